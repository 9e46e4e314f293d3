package state

import (
	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// PartLanded ends the write of the part at off of ss (done is closed: the
// offset is free again) and, when ok and the session is still live,
// records the part (size bytes, SHA1 sum) and marks it. When the part
// continues the hashed run of the file and no worker hashes the session,
// the transaction starts the session's hash worker (uploadhash.go) as it
// ends: the part's request answers without waiting for it.
func (s *Tx) PartLanded(ss *Session, off, size int64, sum string, ok bool, done chan struct{}) (part *UploadPart, live bool) {
	delete(ss.Writing, off)
	close(done)
	_, live = s.Sessions.Get(ss.ID)
	if !ok || !live {
		return nil, live
	}
	part = &UploadPart{ID: s.newPartID(ss), Offset: off, Size: size, SHA1: sum}
	s.Sessions.Update(ss.ID, func(ss *Session) {
		ss.Parts[off] = part
		ss.LastPartAt = s.Now()
	})
	s.Parts.Put(PartKey(ss.ID, off), part)
	if ss.Hashing == nil && off == ss.Hashed {
		ss.Hashing = make(chan struct{})
		s.hash = append(s.hash, ss)
	}
	return part, true
}

// CheckPartRange applies the session's part rules to a content range: 416
// for a total other than the file size, an offset off the part grid, or a
// size other than the part size (the last part may be shorter).
func CheckPartRange(ss *Session, cr wire.ContentRange) *wire.Error {
	size := cr.Last - cr.First + 1
	switch {
	case cr.Total != ss.FileSize:
		return wire.ErrRange("The content range total %d does not match the session's file_size %d", cr.Total, ss.FileSize)
	case cr.First%ss.PartSize != 0:
		return wire.ErrRange("The part offset %d is not a multiple of the part size %d", cr.First, ss.PartSize)
	case cr.Last == cr.Total-1 && size > ss.PartSize:
		return wire.ErrRange("The last part is larger than the part size %d", ss.PartSize)
	case cr.Last != cr.Total-1 && size != ss.PartSize:
		return wire.ErrRange("The part size %d does not match the session's part size %d", size, ss.PartSize)
	}
	return nil
}

// PartSlot is what ReservePart found for a part upload.
type PartSlot struct {
	// Session is p's live session.
	Session *Session
	// Old is the part stored at the offset: the upload is a repeat, whose
	// bytes are only checked against it.
	Old *UploadPart
	// Wait, when set, is closed once the first copy of the part, still
	// arriving, has landed: the caller waits and asks again.
	Wait chan struct{}
	// Done is set when the caller writes the part into Asm: PartLanded
	// closes it.
	Done chan struct{}
	Asm  blob.Assembly
}

// ReservePart serves the start of PUT {upload}/files/upload_sessions/{id}:
// the part at cr (contentLength, -1 when unknown, must be its size) of p's
// session: a repeat of a stored part (409 range_overlaps_existing_part
// unless it has the same SHA1 and size), a part another request is still
// writing (Wait), or a new part this request writes (Done, Asm).
func (s *Tx) ReservePart(p *Principal, sessionID string, cr wire.ContentRange, contentLength int64, wantSHA1 string) (PartSlot, *wire.Error) {
	var slot PartSlot
	var aerr *wire.Error
	size := cr.Last - cr.First + 1
	if slot.Session, aerr = s.Session(p, sessionID); aerr != nil {
		return slot, aerr
	}
	ss := slot.Session
	if aerr := CheckPartRange(ss, cr); aerr != nil {
		return slot, aerr
	}
	if contentLength >= 0 && contentLength != size {
		return slot, wire.ErrRange("The body length %d does not match the content range length %d", contentLength, size)
	}
	if slot.Old = ss.Parts[cr.First]; slot.Old != nil {
		if slot.Old.SHA1 != wantSHA1 || slot.Old.Size != size {
			return slot, wire.Errorf(wire.StatusConflict, wire.CodeRangeOverlaps, "The part overlaps a part already uploaded")
		}
		return slot, nil
	}
	if slot.Wait = ss.Writing[cr.First]; slot.Wait == nil {
		slot.Done = make(chan struct{})
		ss.Writing[cr.First] = slot.Done
		slot.Asm = ss.Asm
	}
	return slot, nil
}
