package state

import (
	"io"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// PartLanded ends the write of the part at off of ss (done is closed: the
// offset is free again) and, when ok and the session is still live,
// records the part (size bytes, SHA1 sum) and marks it; hashIt reports that
// the caller is to hash the contiguous parts from there. Callers hold mu.
func (s *State) PartLanded(ss *Session, off, size int64, sum string, ok bool, done chan struct{}) (part *UploadPart, hashIt, live bool) {
	delete(ss.Writing, off)
	close(done)
	_, live = s.Sessions[ss.ID]
	if !ok || !live {
		return nil, false, live
	}
	part = &UploadPart{ID: s.newPartID(ss), Offset: off, Size: size, SHA1: sum}
	ss.Parts[off] = part
	ss.LastPartAt = s.Now()
	s.Dirty(KSessions, ss.ID)
	s.dirtyPart(ss, off)
	if hashIt = ss.Hashing == nil && off == ss.Hashed; hashIt {
		ss.Hashing = make(chan struct{})
	}
	return part, hashIt, true
}

// HashLanded feeds the parts that continue the hashed run of the file to
// the whole-file hash, in offset order, until the next part has not landed
// yet. The caller set ss.hashing; hashLanded closes it when it stops. Only
// one request hashes a session at a time, and never under s.mu.
func (s *State) HashLanded(ss *Session) {
	buf := blob.GetBuffer()
	defer blob.PutBuffer(buf)
	for {
		s.Mu.Lock()
		pt, ok := ss.Parts[ss.Hashed]
		if !ok || ss.HashErr != nil || ss.Final != nil {
			close(ss.Hashing)
			ss.Hashing = nil
			s.Mu.Unlock()
			return
		}
		asm := ss.Asm
		s.Mu.Unlock()
		_, err := io.CopyBuffer(ss.Whole, io.NewSectionReader(asm, pt.Offset, pt.Size), *buf)
		s.Mu.Lock()
		if err != nil {
			ss.HashErr = err
		} else {
			ss.Hashed += pt.Size
		}
		s.Mu.Unlock()
	}
}
