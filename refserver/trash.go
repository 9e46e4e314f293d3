package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// trashedID reads {id} of a trash endpoint: a malformed id is 404.
func trashedID(r *http.Request, typ string) (string, *wire.Error) {
	id := r.PathValue("id")
	if !state.ValidID(id) || id == state.RootID {
		return "", wire.NotFound(typ)
	}
	return id, nil
}

// getTrashed serves GET /files/{id}/trash, /folders/{id}/trash and
// /web_links/{id}/trash: 200 the trashed item.
func (s *Server) getTrashed(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id, aerr := trashedID(r, typ)
		if aerr != nil {
			return aerr
		}
		fields := parseFields(r)
		return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
			return tx.GetTrashed(p, typ, id, fields)
		})
	}
}

// purgeTrashed serves DELETE /files/{id}/trash, /folders/{id}/trash and
// /web_links/{id}/trash: 204, the item (a folder with its content) is gone
// for good. What purgeBlocked reports (a retention or a hold) keeps it.
func (s *Server) purgeTrashed(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id, aerr := trashedID(r, typ)
		if aerr != nil {
			return aerr
		}
		s.st.Update(func(tx *state.Tx) { aerr = tx.PurgeTrashed(p, typ, id) })
		if aerr != nil {
			return aerr
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}

// restoreHandler serves POST /files/{id}, /folders/{id} and /web_links/{id}:
// 201 the restored item. It goes back to its parent folder; the parent of
// the body is used only when that folder is gone (in the trash or deleted),
// and without one the restore is 409 parent_folder_unavailable. The name of
// the body renames it; a name taken in the folder is 409 item_name_in_use.
// The body is optional.
func (s *Server) restoreHandler(typ, pathKey string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id := r.PathValue(pathKey)
		if !state.ValidID(id) || id == state.RootID {
			return wire.NotFound(typ)
		}
		if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
			return aerr
		}
		var body state.RestoreBody
		if aerr := decodeOptionalJSON(r, &body); aerr != nil {
			return aerr
		}
		if body.Name != nil {
			check := state.CheckName
			if typ == "web_link" {
				check = checkWebLinkName
			}
			if aerr := check(*body.Name); aerr != nil {
				return aerr
			}
		}
		if body.Parent != nil && (body.Parent.ID == nil || *body.Parent.ID == "") {
			return wire.BadRequest("Missing required field: parent.id")
		}
		fields := parseFields(r)
		return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
			return tx.RestoreItem(p, typ, id, body, fields)
		})
	}
}

// parseTrashQuery reads the query of GET /folders/trash/items. Marker
// paging (usemarker=true) takes no sort, direction or offset, and a marker
// needs usemarker=true: 400 invalid_parameter otherwise, as the spec says.
// An offset above 10000 is 400 bad_request (wire.QueryOffset, shared with the
// other offset-paged lists).
func parseTrashQuery(r *http.Request) (state.CollectionQuery, *wire.Error) {
	v := r.URL.Query()
	q := state.CollectionQuery{Key: "name"}
	var aerr *wire.Error
	if q.UseMarker, aerr = wire.QueryBool(r.URL.Query(), "usemarker"); aerr != nil {
		return q, aerr
	}
	invalid := func(format string, args ...any) *wire.Error {
		return wire.Errorf(http.StatusBadRequest, wire.CodeInvalidParameter, format, args...)
	}
	if q.UseMarker {
		for _, name := range []string{"sort", "direction", "offset"} {
			if v.Has(name) {
				return q, invalid("%q cannot be used with marker-based paging", name)
			}
		}
	} else if v.Has("marker") {
		return q, invalid("\"marker\" needs usemarker=true")
	}
	switch s := v.Get("sort"); s {
	case "":
	case "name", "date", "size":
		q.Key = s
	default:
		return q, invalid("Invalid value for \"sort\"")
	}
	switch d := v.Get("direction"); d {
	case "", "ASC":
	case "DESC":
		q.Desc = true
	default:
		return q, invalid("Invalid value for \"direction\"")
	}
	if q.Offset, aerr = wire.QueryOffset(r.URL.Query()); aerr != nil {
		return q, aerr
	}
	if q.Limit, aerr = wire.PageLimit(r.URL.Query(), 100, 1000); aerr != nil {
		return q, aerr
	}
	if m := v.Get("marker"); m != "" {
		pos, ok := wire.DecodeMarker(m)
		if !ok {
			return q, invalid("Invalid value for \"marker\"")
		}
		q.Marker = pos
	}
	return q, nil
}

// listTrash serves GET /folders/trash/items: the items p may see that are
// in the trash themselves, offset- or marker-paged, mini records unless
// fields says otherwise.
func (s *Server) listTrash(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := parseTrashQuery(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListTrash(p, q, fields)
	})
}
