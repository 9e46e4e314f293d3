package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// listRecentItems serves GET /recent_items (limit, marker, fields): the
// caller's recent items, newest first, as a marker page.
func (s *Server) listRecentItems(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListRecentItems(p, q, fields)
	})
}
