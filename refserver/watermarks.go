package refserver

import (
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Watermarks: an item has at most one, with the only imprint "default".
// PUT creates it (201) or updates it (200, new modified_at); GET and DELETE
// answer 404 when there is none. A watermark on a folder covers what is in
// it (watermark_info.is_watermark_inherited). It is hidden while its item
// is in the trash and gone when the item is purged.

// watermark is the watermark of one item.
type watermark struct {
	createdAt, modifiedAt time.Time
}

// watermarkState is the server's state for watermarks on files and folders, guarded by Server.mu.
type watermarkState struct {
	byItem map[string]*watermark
}

// initWatermarks prepares the state of watermarks on files and folders; called once by newServer.
func (s *state) initWatermarks() {
	s.watermarks = watermarkState{byItem: map[string]*watermark{}}
}

// watermarkItemPurged drops the watermark of an item deleted for good.
func (s *state) watermarkItemPurged(it *item) {
	delete(s.watermarks.byItem, it.id)
	s.dirty(kWatermarks, it.id)
}

// applyWatermarkTo gives it a watermark, or refreshes the one it has
// (modified_at); created reports a new one.
func (s *state) applyWatermarkTo(it *item) (wm *watermark, created bool) {
	now := s.nowSec()
	wm, ok := s.watermarks.byItem[it.id]
	if !ok {
		wm = &watermark{createdAt: now}
		s.watermarks.byItem[it.id] = wm
	}
	wm.modifiedAt = now
	s.dirty(kWatermarks, it.id)
	return wm, !ok
}

// removeWatermarkFrom removes the watermark of it, reporting whether it had
// one.
func (s *state) removeWatermarkFrom(it *item) bool {
	if _, ok := s.watermarks.byItem[it.id]; !ok {
		return false
	}
	delete(s.watermarks.byItem, it.id)
	s.dirty(kWatermarks, it.id)
	return true
}

// watermarkInfo is the watermark_info field of a file or folder.
func (s *state) watermarkInfo(it *item) map[string]any {
	_, own := s.watermarks.byItem[it.id]
	inherited := false
	if !own {
		for f := range s.ancestors(it) {
			if _, inherited = s.watermarks.byItem[f.id]; inherited {
				break
			}
		}
	}
	return map[string]any{
		"is_watermarked": own || inherited, "is_watermark_inherited": inherited,
		"is_watermarked_by_access_policy": false,
	}
}

func watermarkRecord(wm *watermark) map[string]any {
	return map[string]any{"watermark": map[string]any{
		"created_at": fmtTime(wm.createdAt), "modified_at": fmtTime(wm.modifiedAt),
	}}
}

// watermarkTarget finds the file or folder of a watermark route: a
// malformed id, the root folder or an item p cannot see is 404.
func (s *state) watermarkTarget(id string, edit bool, p *principal, typ string) (*item, *wire.Error) {
	if !validID(id) || id == rootID {
		return nil, wire.NotFound(typ)
	}
	if !edit {
		return s.lookup(p, typ, id)
	}
	return s.lookupFor(p, typ, id, actEdit)
}

// getWatermark serves GET /files/{id}/watermark and /folders/{id}/watermark:
// 200 Watermark, 404 when the item has none.
func (s *Server) getWatermark(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		id := r.PathValue("id")
		return s.change(w, func() (reply, *wire.Error) {
			return s.getWatermarkTx(id, p, typ)
		})
	}
}

// getWatermarkTx is the transaction of GET /files/{id}/watermark
// (getWatermark): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) getWatermarkTx(id string, p *principal, typ string) (reply, *wire.Error) {
	it, aerr := s.watermarkTarget(id, false, p, typ)
	if aerr != nil {
		return reply{}, aerr
	}
	wm, ok := s.watermarks.byItem[it.id]
	if !ok {
		return reply{}, wire.NotFound("watermark")
	}
	return reply{http.StatusOK, watermarkRecord(wm)}, nil
}

// applyWatermarkBody is the body of PUT .../watermark.
type applyWatermarkBody struct {
	Watermark *struct {
		Imprint *string `json:"imprint"`
	} `json:"watermark"`
}

// applyWatermark serves PUT /files/{id}/watermark and /folders/{id}/watermark:
// 201 when it creates the watermark, 200 when it updates the existing one.
// The body must be {"watermark":{"imprint":"default"}} (400 bad_request).
func (s *Server) applyWatermark(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
			return aerr
		}
		var body applyWatermarkBody
		if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
			return aerr
		}
		if body.Watermark == nil || body.Watermark.Imprint == nil {
			return wire.BadRequest("Missing required field: watermark.imprint")
		}
		if *body.Watermark.Imprint != "default" {
			return wire.BadRequest("Invalid value for watermark.imprint: default")
		}
		id := r.PathValue("id")
		return s.change(w, func() (reply, *wire.Error) {
			return s.applyWatermarkTx(id, p, typ)
		})
	}
}

// applyWatermarkTx is the transaction of PUT /files/{id}/watermark
// (applyWatermark): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) applyWatermarkTx(id string, p *principal, typ string) (reply, *wire.Error) {
	it, aerr := s.watermarkTarget(id, true, p, typ)
	if aerr != nil {
		return reply{}, aerr
	}
	wm, created := s.applyWatermarkTo(it)
	if created {
		return reply{http.StatusCreated, watermarkRecord(wm)}, nil
	}
	return reply{http.StatusOK, watermarkRecord(wm)}, nil
}

// removeWatermark serves DELETE /files/{id}/watermark and
// /folders/{id}/watermark: 204, 404 when the item has none.
func (s *Server) removeWatermark(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		id := r.PathValue("id")
		return s.change(w, func() (reply, *wire.Error) {
			return s.removeWatermarkTx(id, p, typ)
		})
	}
}

// removeWatermarkTx is the transaction of DELETE /files/{id}/watermark
// (removeWatermark): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) removeWatermarkTx(id string, p *principal, typ string) (reply, *wire.Error) {
	it, aerr := s.watermarkTarget(id, true, p, typ)
	if aerr != nil {
		return reply{}, aerr
	}
	if !s.removeWatermarkFrom(it) {
		return reply{}, wire.NotFound("watermark")
	}
	return reply{status: http.StatusNoContent}, nil
}
