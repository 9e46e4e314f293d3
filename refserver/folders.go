package refserver

import (
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// createFolder serves POST /folders: 201 Folder--Full.
func (s *Server) createFolder(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CreateFolderBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Name == nil {
		return wire.BadRequest("Missing required field: name")
	}
	if body.Parent == nil || body.Parent.ID == nil {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if aerr := state.CheckName(*body.Name); aerr != nil {
		return aerr
	}
	syncState := "not_synced"
	if body.SyncState != nil {
		switch *body.SyncState {
		case "synced", "not_synced", "partially_synced":
			syncState = *body.SyncState
		default:
			return wire.BadRequest("Invalid value for sync_state")
		}
	}
	uploadEmail := ""
	if body.FolderUploadEmail != nil {
		switch body.FolderUploadEmail.Access {
		case "open", "collaborators":
			uploadEmail = body.FolderUploadEmail.Access
		default:
			return wire.BadRequest("Invalid value for folder_upload_email.access")
		}
	}
	fields := parseFields(r)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateFolder(p, body, syncState, uploadEmail, fields)
	})
}

// folderID reads {folder_id}; a malformed id is 405 as the spec says for
// the folder endpoints.
func folderID(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("folder_id")
	if !state.ValidID(id) {
		return "", wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: malformed folder id")
	}
	return id, nil
}

// maxFolderOffset is the largest offset a folder listing accepts; the
// service rejects larger ones with 400 and points to marker paging.
const maxFolderOffset = 300_000

func parseCollectionQuery(r *http.Request, allowMarker bool) (state.CollectionQuery, *wire.Error) {
	q := state.CollectionQuery{Key: "name"}
	if v := r.URL.Query().Get("sort"); v != "" {
		switch v {
		case "id", "name", "date", "size":
			q.Key = v
		default:
			return q, wire.BadRequest("Invalid value for \"sort\"")
		}
	}
	if v := r.URL.Query().Get("direction"); v != "" {
		switch strings.ToUpper(v) {
		case "ASC":
		case "DESC":
			q.Desc = true
		default:
			return q, wire.BadRequest("Invalid value for \"direction\"")
		}
	}
	var aerr *wire.Error
	if q.Offset, aerr = wire.QueryInt(r.URL.Query(), "offset", 0); aerr != nil {
		return q, aerr
	}
	if q.Limit, aerr = wire.PageLimit(r.URL.Query(), 100, 1000); aerr != nil {
		return q, aerr
	}
	if q.Offset > maxFolderOffset && r.URL.Query().Get("usemarker") != "true" {
		// The service documents the cap but no error code: bad_request.
		return q, wire.BadRequest("offset must not exceed %d; use marker-based pagination (usemarker=true)", maxFolderOffset)
	}
	if allowMarker {
		if q.UseMarker, aerr = wire.QueryBool(r.URL.Query(), "usemarker"); aerr != nil {
			return q, aerr
		}
		if m := r.URL.Query().Get("marker"); m != "" {
			pos, ok := wire.DecodeMarker(m)
			if !ok {
				return q, wire.BadRequest("Invalid value for \"marker\"")
			}
			q.UseMarker, q.Marker = true, pos
		}
	}
	return q, nil
}

// HideFromUsers makes items invisible to the managed user, as the service
// does for items a user may not see (an access policy, a classification):
// the user gets 404 for them, yet they still count in their folder's
// total_count and take their place in its pages, so listings show short or
// empty pages while more items follow. The admin and the app still see
// them. It fails when an id is not a file or folder.
func (s *Server) HideFromUsers(ids ...string) error {
	var err error
	s.st.Update(func(tx *state.Tx) { err = tx.HideItems(ids) })
	if err != nil {
		return err
	}
	return s.flushState()
}

// getFolder serves GET /folders/{folder_id}: 200 Folder--Full with the first
// page of items, 304 on a matching if-none-match.
func (s *Server) getFolder(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := folderID(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := parseCollectionQuery(r, false)
	if aerr != nil {
		return aerr
	}
	rd, aerr := itemRead(r, "folder", id)
	if aerr != nil {
		return aerr
	}
	hints, aerr := repHints(r)
	if aerr != nil {
		return aerr
	}
	return s.change(w, withRepHints(hints, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.GetItem(p, rd, q) }))
}

// listFolderItems serves GET /folders/{folder_id}/items with offset or
// marker paging.
func (s *Server) listFolderItems(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := folderID(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := parseCollectionQuery(r, true)
	if aerr != nil {
		return aerr
	}
	rd, aerr := itemRead(r, "folder", id)
	if aerr != nil {
		return aerr
	}
	hints, aerr := repHints(r)
	if aerr != nil {
		return aerr
	}
	if rd.Link != nil || rd.Fields != nil {
		// Through a shared link the answer depends on the link's folder;
		// full entries show more than their own records (a folder's size).
		return s.change(w, withRepHints(hints, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.ListFolderItems(p, rd, q) }))
	}
	var (
		mark   uint64
		window []string
	)
	q.Window = &window
	err := s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		m0 := tx.MarkCount()
		rep, aerr := tx.ListFolderItems(p, rd, q)
		mark = tx.ListingReadWait(m0, id, window)
		return rep, aerr
	})
	answersRead(w, mark)
	return err
}

// deleteFolder serves DELETE /folders/{folder_id}: 204, the folder goes to
// the trash with its content. A non-empty folder
// needs recursive=true (else 400 folder_not_empty). Folder "0" cannot be
// deleted: 403 access_denied_insufficient_permissions (the spec's code for
// a folder the user may not delete).
func (s *Server) deleteFolder(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("folder_id")
	if !state.ValidID(id) {
		return wire.NotFound("folder")
	}
	recursive, aerr := wire.QueryBool(r.URL.Query(), "recursive")
	if aerr != nil {
		return aerr
	}
	if id == state.RootID {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The root folder cannot be deleted")
	}
	s.st.Update(func(tx *state.Tx) { aerr = tx.TrashItemTx(p, "folder", id, r.Header.Get("If-Match"), recursive) })
	if aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
