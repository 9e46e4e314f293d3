package state

import (
	"fmt"
)

// Records of the server itself, its users, items and upload sessions.

// MetaKey is the key of the one KMeta record (ids, tokens, signing key).
const MetaKey = "server"

// PartKey is the key of the part of session sid at offset.
func PartKey(sid string, offset int64) string { return fmt.Sprintf("%s/%020d", sid, offset) }

// dirtyPart marks the part of ss at offset.
func (s *State) dirtyPart(ss *Session, offset int64) {
	if s.Persist != nil {
		s.Dirty(KParts, PartKey(ss.ID, offset))
	}
}

// dirtySession marks ss and every part of it (the session ended or
// expired).
func (s *State) dirtySession(ss *Session) {
	if s.Persist == nil {
		return
	}
	s.Dirty(KSessions, ss.ID)
	for off := range ss.Parts {
		s.dirtyPart(ss, off)
	}
}
