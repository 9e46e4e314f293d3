package refserver

import "github.com/contentapi/cms/refserver/internal/state"

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
	var (
		d  state.EndedSession
		ok bool
	)
	s.st.View(func(tx *state.ReadTx) { d, ok = tx.DescribeSessionID(id) })
	if !ok {
		return UploadSessionInfo{}, false
	}
	info := UploadSessionInfo{
		ID: d.ID, State: SessionState(d.State), FileSize: d.FileSize, PartSize: d.PartSize,
		TotalParts: d.TotalParts, FileID: d.FileID,
	}
	for _, p := range d.Parts {
		info.Parts = append(info.Parts, UploadPartInfo(p))
	}
	return info, true
}
