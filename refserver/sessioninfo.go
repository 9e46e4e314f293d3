package refserver

// SessionState is the state of an upload session as UploadSession reports it.
type SessionState string

// The states of an upload session.
const (
	SessionOpen      SessionState = "open"      // accepting parts
	SessionCommitted SessionState = "committed" // committed into a file
	SessionAborted   SessionState = "aborted"   // deleted by its owner
)

// UploadSessionInfo is what a test can see of an upload session: its parts
// and, once it ended, how. It stays available after a commit or an abort.
type UploadSessionInfo struct {
	// ID is the upload session id.
	ID string
	// State is open, committed or aborted.
	State SessionState
	// FileSize, PartSize and TotalParts are the session's numbers.
	FileSize, PartSize int64
	TotalParts         int
	// Parts are the uploaded parts, in offset order.
	Parts []UploadPartInfo
	// FileID is the file of a new-version session, or the file a commit
	// created; "" otherwise.
	FileID string
}

// UploadPartInfo is one part of an upload session.
type UploadPartInfo struct {
	// PartID is the part_id the server answered with.
	PartID string
	// Offset and Size place the part in the file.
	Offset, Size int64
	// SHA1 is the lower-case hex SHA1 of the part.
	SHA1 string
}

// UploadSession returns the session with id, open or ended (committed or
// aborted), whoever owns it. Expired sessions are not kept.
func (s *Server) UploadSession(id string) (UploadSessionInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.sessions[id]; ok {
		return sessionInfo(ss, SessionOpen, ss.fileID), true
	}
	info, ok := s.ended[id]
	return info, ok
}

// endSession removes a session and keeps its description. Callers hold s.mu.
func (s *state) endSession(ss *session, state SessionState, fileID string) {
	delete(s.sessions, ss.id)
	s.ended[ss.id] = sessionInfo(ss, state, fileID)
	s.dirtySession(ss)
	s.dirty(kEnded, ss.id)
}

func sessionInfo(ss *session, state SessionState, fileID string) UploadSessionInfo {
	info := UploadSessionInfo{
		ID: ss.id, State: state, FileSize: ss.fileSize, PartSize: ss.partSize,
		TotalParts: ss.totalParts, FileID: fileID,
	}
	for _, pt := range sortedParts(ss) {
		info.Parts = append(info.Parts, UploadPartInfo{PartID: pt.ID, Offset: pt.Offset, Size: pt.Size, SHA1: pt.SHA1})
	}
	return info
}
