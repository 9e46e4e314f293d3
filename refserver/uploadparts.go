package refserver

import (
	"crypto/sha1"
	"encoding/hex"
	"io"
	"mime"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// uploadPart serves PUT .../upload_sessions/{id}: 200 UploadedPart. The
// range must fit the session (else 416), the digest must match the body
// (else 400 bad_digest). Uploading the same part again is idempotent; a
// different part over an uploaded range is 409 range_overlaps_existing_part.
//
// A new part is written straight into the session's content at its offset
// while it is hashed; it counts once its digest matched. A repeat of a
// stored part is only hashed, so it can never change stored bytes, and a
// part whose first copy is still arriving waits for it. The request that
// completes a run of contiguous parts from the start of the file feeds them
// to the whole-file hash before it answers.
func (s *Server) uploadPart(w http.ResponseWriter, r *http.Request, p *principal) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/octet-stream" {
		return wire.BadRequest("Content-Type must be application/octet-stream")
	}
	wantSHA1, aerr := wire.RequestDigest(r.Header.Get("Digest"))
	if aerr != nil {
		return aerr
	}
	crh := r.Header.Get("Content-Range")
	if crh == "" {
		return wire.BadRequest("Missing required header: content-range")
	}
	cr, err := wire.ParseContentRange(crh)
	if err != nil {
		return wire.BadRequest("Malformed content-range header: expected bytes <first>-<last>/<total>")
	}
	size := cr.Last - cr.First + 1
	var (
		old   *uploadPart
		asm   Assembly
		done  chan struct{}
		ss    *session
		stale *session
	)
	for {
		var wait chan struct{}
		s.mu.Lock()
		ss, stale, aerr = s.session(p, r.PathValue("session_id"))
		if aerr == nil {
			aerr = checkPartRange(ss, cr)
		}
		if aerr == nil && r.ContentLength >= 0 && r.ContentLength != size {
			aerr = errRange("The body length %d does not match the content range length %d", r.ContentLength, size)
		}
		if aerr == nil {
			if old = ss.parts[cr.First]; old != nil {
				if old.SHA1 != wantSHA1 || old.Size != size {
					aerr = wire.Errorf(http.StatusConflict, wire.CodeRangeOverlaps, "The part overlaps a part already uploaded")
				}
			} else if wait = ss.writing[cr.First]; wait == nil {
				done = make(chan struct{})
				ss.writing[cr.First] = done
				asm = ss.asm
			}
		}
		s.mu.Unlock()
		s.dropContent(r, stale)
		if aerr != nil {
			return aerr
		}
		if wait == nil {
			break
		}
		select { // the first copy of this part is still arriving
		case <-wait:
		case <-r.Context().Done():
			return r.Context().Err()
		}
	}
	if old != nil {
		return s.verifyRepeat(w, r, old, size)
	}

	h := sha1.New()
	n, werr := asm.WriteAt(r.Context(), io.TeeReader(r.Body, h), cr.First, size)
	var extra [1]byte
	if werr == nil && n == size {
		if k, _ := io.ReadFull(r.Body, extra[:]); k > 0 {
			n++ // the body is longer than the range
		}
	}
	sum := hex.EncodeToString(h.Sum(nil))
	gone := werr != nil && r.Context().Err() != nil // the client left
	aerr = nil
	switch {
	case gone:
	case werr != nil:
		aerr = wire.BadRequest("Reading the part body failed")
	case n != size:
		aerr = errRange("The body length does not match the content range length %d", size)
	case sum != wantSHA1:
		aerr = wire.Errorf(http.StatusBadRequest, wire.CodeBadDigest, "The digest of the part does not match the received bytes")
	}
	if gone || aerr != nil {
		_ = asm.Drop(cr.First) // before the offset is free for another copy
	}
	var (
		part   *uploadPart
		hashIt bool
	)
	s.update(func() {
		var live bool
		part, hashIt, live = s.partLanded(ss, cr.First, size, sum, !gone && aerr == nil, done)
		if !live && aerr == nil {
			aerr = wire.NotFound("upload session") // aborted meanwhile
		}
	})
	if gone {
		return r.Context().Err()
	}
	if aerr != nil {
		return aerr
	}
	if hashIt {
		s.hashLanded(ss)
	}
	writeJSON(w, http.StatusOK, map[string]any{"part": part})
	return nil
}

// partLanded ends the write of the part at off of ss (done is closed: the
// offset is free again) and, when ok and the session is still live,
// records the part (size bytes, SHA1 sum) and marks it; hashIt reports that
// the caller is to hash the contiguous parts from there. Callers hold mu.
func (s *state) partLanded(ss *session, off, size int64, sum string, ok bool, done chan struct{}) (part *uploadPart, hashIt, live bool) {
	delete(ss.writing, off)
	close(done)
	_, live = s.sessions[ss.id]
	if !ok || !live {
		return nil, false, live
	}
	part = &uploadPart{ID: s.newPartID(ss), Offset: off, Size: size, SHA1: sum}
	ss.parts[off] = part
	ss.lastPartAt = s.now()
	s.dirty(kSessions, ss.id)
	s.dirtyPart(ss, off)
	if hashIt = ss.hashing == nil && off == ss.hashed; hashIt {
		ss.hashing = make(chan struct{})
	}
	return part, hashIt, true
}

// verifyRepeat answers a part sent again: its bytes are hashed, not
// stored; the same bytes get the stored part back.
func (s *Server) verifyRepeat(w http.ResponseWriter, r *http.Request, old *uploadPart, size int64) error {
	h := sha1.New()
	buf := blob.GetBuffer()
	n, err := io.CopyBuffer(h, io.LimitReader(r.Body, size+1), *buf)
	blob.PutBuffer(buf)
	switch {
	case err != nil && r.Context().Err() != nil:
		return r.Context().Err()
	case err != nil:
		return wire.BadRequest("Reading the part body failed")
	case n != size:
		return errRange("The body length does not match the content range length %d", size)
	case hex.EncodeToString(h.Sum(nil)) != old.SHA1:
		return wire.Errorf(http.StatusBadRequest, wire.CodeBadDigest, "The digest of the part does not match the received bytes")
	}
	writeJSON(w, http.StatusOK, map[string]any{"part": old}) // idempotent repeat: the first copy
	return nil
}

// hashLanded feeds the parts that continue the hashed run of the file to
// the whole-file hash, in offset order, until the next part has not landed
// yet. The caller set ss.hashing; hashLanded closes it when it stops. Only
// one request hashes a session at a time, and never under s.mu.
func (s *state) hashLanded(ss *session) {
	buf := blob.GetBuffer()
	defer blob.PutBuffer(buf)
	for {
		s.mu.Lock()
		pt, ok := ss.parts[ss.hashed]
		if !ok || ss.hashErr != nil || ss.final != nil {
			close(ss.hashing)
			ss.hashing = nil
			s.mu.Unlock()
			return
		}
		asm := ss.asm
		s.mu.Unlock()
		_, err := io.CopyBuffer(ss.whole, io.NewSectionReader(asm, pt.Offset, pt.Size), *buf)
		s.mu.Lock()
		if err != nil {
			ss.hashErr = err
		} else {
			ss.hashed += pt.Size
		}
		s.mu.Unlock()
	}
}

// wholeSHA1 waits until no request is hashing the session, finishes the
// whole-file hash if parts are left (a part whose hashing failed, or a
// commit that came first), and returns the file's hex SHA1. Callers hold
// ss.commitMu, not s.mu.
func (s *Server) wholeSHA1(r *http.Request, ss *session) (string, error) {
	for {
		s.mu.Lock()
		busy := ss.hashing
		if busy == nil {
			if ss.hashErr != nil {
				ss.whole, ss.hashed, ss.hashErr = sha1.New(), 0, nil // start over
			}
			if ss.hashed == ss.fileSize {
				sum := hex.EncodeToString(ss.whole.Sum(nil))
				s.mu.Unlock()
				return sum, nil
			}
			ss.hashing = make(chan struct{})
		}
		s.mu.Unlock()
		if busy == nil {
			s.hashLanded(ss)
			s.mu.Lock()
			err, short := ss.hashErr, ss.hashed != ss.fileSize
			s.mu.Unlock()
			if err != nil {
				return "", err
			}
			if short {
				return "", wire.Errorf(http.StatusBadRequest, wire.CodePartsMismatch, "The parts do not cover the file")
			}
			continue
		}
		select {
		case <-busy:
		case <-r.Context().Done():
			return "", r.Context().Err()
		}
	}
}
