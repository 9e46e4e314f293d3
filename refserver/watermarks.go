package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// getWatermark serves GET /files/{id}/watermark and /folders/{id}/watermark:
// 200 Watermark, 404 when the item has none.
func (s *Server) getWatermark(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id := r.PathValue("id")
		return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
			return tx.GetWatermark(id, p, typ)
		})
	}
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
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
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
		return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
			return tx.ApplyWatermark(id, p, typ)
		})
	}
}

// removeWatermark serves DELETE /files/{id}/watermark and
// /folders/{id}/watermark: 204, 404 when the item has none.
func (s *Server) removeWatermark(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id := r.PathValue("id")
		return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
			return tx.RemoveWatermark(id, p, typ)
		})
	}
}
