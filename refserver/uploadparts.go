package refserver

import (
	"crypto/sha1"
	"encoding/hex"
	"io"
	"mime"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
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
// part whose first copy is still arriving waits for it. The whole-file
// hash is not the request's: the session's hash worker reads the part back
// once the parts before it are hashed (state's uploadhash.go), so the
// answer does not wait for it.
func (s *Server) uploadPart(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
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
	var slot state.PartSlot
	for {
		s.st.Update(func(tx *state.Tx) {
			slot, aerr = tx.ReservePart(p, r.PathValue("session_id"), cr, r.ContentLength, wantSHA1)
		})
		if aerr != nil {
			return aerr
		}
		if slot.Wait == nil {
			break
		}
		select { // the first copy of this part is still arriving
		case <-slot.Wait:
		case <-r.Context().Done():
			return r.Context().Err()
		}
	}
	ss, old, asm, done := slot.Session, slot.Old, slot.Asm, slot.Done
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
		aerr = wire.ErrRange("The body length does not match the content range length %d", size)
	case sum != wantSHA1:
		aerr = wire.Errorf(http.StatusBadRequest, wire.CodeBadDigest, "The digest of the part does not match the received bytes")
	}
	if gone || aerr != nil {
		_ = asm.Drop(cr.First) // before the offset is free for another copy
	}
	var part *state.UploadPart
	s.st.Update(func(tx *state.Tx) {
		var live bool
		part, live = tx.PartLanded(ss, cr.First, size, sum, !gone && aerr == nil, done)
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
	writeJSON(w, http.StatusOK, map[string]any{"part": part})
	return nil
}

// verifyRepeat answers a part sent again: its bytes are hashed, not
// stored; the same bytes get the stored part back.
func (s *Server) verifyRepeat(w http.ResponseWriter, r *http.Request, old *state.UploadPart, size int64) error {
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
		return wire.ErrRange("The body length does not match the content range length %d", size)
	case hex.EncodeToString(h.Sum(nil)) != old.SHA1:
		return wire.Errorf(http.StatusBadRequest, wire.CodeBadDigest, "The digest of the part does not match the received bytes")
	}
	writeJSON(w, http.StatusOK, map[string]any{"part": old}) // idempotent repeat: the first copy
	return nil
}
