package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// listCollections serves GET /collections: the caller's favorites, as an
// offset page.
func (s *Server) listCollections(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListCollections(p, q)
	})
}

// getCollection serves GET /collections/{collection_id}.
func (s *Server) getCollection(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("collection_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetCollection(p, id)
	})
}

// listCollectionItems serves GET /collections/{collection_id}/items
// (offset, limit, fields).
func (s *Server) listCollectionItems(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	id, fields := r.PathValue("collection_id"), parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListCollectionItems(p, id, q, fields)
	})
}
