package state

// SessionState is the state of an upload session (the state's copy of
// refserver.SessionState).
type SessionState string

// The states of an upload session.
const (
	SessionOpen      SessionState = "open"      // accepting parts
	SessionCommitted SessionState = "committed" // committed into a file
	SessionAborted   SessionState = "aborted"   // deleted by its owner
)

// EndedSession describes an upload session and its parts (what
// refserver.UploadSessionInfo reports); the state keeps it after a commit
// or an abort.
type EndedSession struct {
	// ID is the upload session id.
	ID string
	// State is open, committed or aborted.
	State SessionState
	// FileSize, PartSize and TotalParts are the session's numbers.
	FileSize, PartSize int64
	TotalParts         int
	// Parts are the uploaded parts, in offset order.
	Parts []EndedPart
	// FileID is the file of a new-version session, or the file a commit
	// created; "" otherwise.
	FileID string
}

// EndedPart is one part of an upload session (refserver.UploadPartInfo).
type EndedPart struct {
	// PartID is the part_id the server answered with.
	PartID string
	// Offset and Size place the part in the file.
	Offset, Size int64
	// SHA1 is the lower-case hex SHA1 of the part.
	SHA1 string
}

// EndSession removes a session and keeps its description; the content of
// one that ends without a commit is discarded once the transaction is
// committed (the outbox).
func (s *Tx) EndSession(ss *Session, state SessionState, fileID string) {
	s.dropSession(ss)
	if state != SessionCommitted {
		s.out.dropContent(ss) // a commit made its content a version
	}
	s.Ended.Put(ss.ID, DescribeSession(ss, state, fileID))
}

// DescribeSession describes ss as it is now, in state.
func DescribeSession(ss *Session, state SessionState, fileID string) EndedSession {
	info := EndedSession{
		ID: ss.ID, State: state, FileSize: ss.FileSize, PartSize: ss.PartSize,
		TotalParts: ss.TotalParts, FileID: fileID,
	}
	for _, pt := range SortedParts(ss) {
		info.Parts = append(info.Parts, EndedPart{PartID: pt.ID, Offset: pt.Offset, Size: pt.Size, SHA1: pt.SHA1})
	}
	return info
}

// DescribeSessionID describes the upload session with id, open or ended (committed
// or aborted), whoever owns it.
func (s *ReadTx) DescribeSessionID(id string) (EndedSession, bool) {
	if ss, ok := s.Sessions.Get(id); ok {
		return DescribeSession(ss, SessionOpen, ss.FileID), true
	}
	d, ok := s.Ended.Get(id)
	return d, ok
}
