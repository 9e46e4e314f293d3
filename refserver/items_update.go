package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// updateFile serves PUT /files/{file_id}: 200 File--Full.
func (s *Server) updateFile(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDStrict(r)
	if aerr != nil {
		return aerr
	}
	return s.updateItem(w, r, p, "file", id)
}

// updateFolder serves PUT /folders/{folder_id}: 200 Folder--Full.
func (s *Server) updateFolder(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := folderID(r)
	if aerr != nil {
		return aerr
	}
	return s.updateItem(w, r, p, "folder", id)
}

func (s *Server) updateItem(w http.ResponseWriter, r *http.Request, p *state.Principal, typ, id string) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.ItemUpdateBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest, "shared_link", "lock", "folder_upload_email"); aerr != nil {
		return aerr
	}
	if aerr := body.CheckShape(typ); aerr != nil {
		return aerr
	}
	now := s.st.NowSec()
	link, removeLink, aerr := parseSharedLink(body.SharedLink, now)
	if aerr != nil {
		return aerr
	}
	if link != nil && link.CanEdit != nil && *link.CanEdit && typ != "file" {
		return wire.BadRequest("shared_link.permissions.can_edit is for files")
	}
	lock, unlock, aerr := parseLock(body.Lock, s.st.Now())
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	ifMatch := r.Header.Get("If-Match")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateItem(id, body, p, typ, ifMatch, lock, unlock, now, removeLink, link, fields)
	})
}
