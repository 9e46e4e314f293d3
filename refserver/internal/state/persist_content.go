package state

import (
	"fmt"
	"strconv"
)

// The records of the server itself, of versions and of upload session
// parts: their keys, and the setters that mark them. The keys live here,
// not with the codecs in internal/persist, because the state marks these
// records by key (the meta record when an id is taken, a version through
// changeVersion, a part as it lands).

// MetaKey is the key of the one KMeta record (ids, tokens, signing key).
const MetaKey = "server"

// PartKey is the key of the part of session sid at offset.
func PartKey(sid string, offset int64) string { return fmt.Sprintf("%s/%020d", sid, offset) }

// dropSession removes ss (ended or expired) from the live sessions, with
// its parts, and stops its hash worker.
func (s *Tx) dropSession(ss *Session) {
	ss.ended.Store(true)
	s.Sessions.Delete(ss.ID)
	for off := range ss.Parts {
		s.Parts.Delete(PartKey(ss.ID, off))
	}
}

// VersionKey is the key of the version at position pos (1: the oldest) of
// file fileID. A file's versions are only ever appended, so a position
// names the same version for the file's life.
func VersionKey(fileID string, pos int) string { return fileID + "/" + strconv.Itoa(pos) }

// changeVersion is the one setter of version records: it runs change (nil
// for a new version, already in f.Versions) on version v of file f through
// the items table, so f's record is marked with v's: a read of the file
// waits for its item's marks only (ItemReadWait), so a version is never
// marked without its file. Every change to a version (a new one, trashed,
// restored) goes through here. Hand mark: versions have no table (their
// records are keyed by their file and position, and live in the file).
func (s *Tx) changeVersion(f *Item, v *Version, change func(*Version)) {
	s.Items.Update(f.Typ, f.ID, func(*Item) {
		if change != nil {
			change(v)
		}
	})
	if s.Persist == nil {
		return
	}
	for i := len(f.Versions) - 1; i >= 0; i-- { // a new version is the last
		if f.Versions[i] == v {
			s.Dirty(KVersions, VersionKey(f.ID, i+1))
			break
		}
	}
}

// dirtyVersionsGone marks the records of every version of it, which is
// gone from the state. Hand mark (a sweep): versions have no table, and
// leave with their file.
func (s *Tx) dirtyVersionsGone(it *Item) {
	if s.Persist == nil {
		return
	}
	for i := range it.Versions {
		s.Dirty(KVersions, VersionKey(it.ID, i+1))
	}
}
