package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// copyFile serves POST /files/{file_id}/copy.
func (s *Server) copyFile(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	return s.copyItem(w, r, p, "file", id)
}

// copyFolder serves POST /folders/{folder_id}/copy.
func (s *Server) copyFolder(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("folder_id")
	if !state.ValidID(id) {
		return wire.NotFound("folder")
	}
	if id == state.RootID {
		return wire.Errorf(http.StatusInternalServerError, wire.CodeInternalServerError, "The root folder cannot be copied")
	}
	return s.copyItem(w, r, p, "folder", id)
}

func (s *Server) copyItem(w http.ResponseWriter, r *http.Request, p *state.Principal, typ, id string) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CopyBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Parent == nil || body.Parent.ID == nil || *body.Parent.ID == "" {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if body.Name != nil {
		name, aerr := state.CopyName(typ, *body.Name)
		if aerr != nil {
			return aerr
		}
		body.Name = &name
	}
	if body.Version != nil && typ != "file" {
		return wire.BadRequest("Only a file copy takes a version")
	}
	fields := parseFields(r)

	var (
		nodes []state.CopyNode
		name  string
		aerr  *wire.Error
	)
	s.st.View(func(tx *state.ReadTx) { nodes, name, aerr = tx.PlanCopy(p, typ, id, &body) })
	if aerr != nil {
		return aerr
	}
	blobs, err := s.st.CopyBlobs(r.Context(), nodes)
	if err != nil {
		s.dropUnreferenced(r, blobs...)
		return err
	}
	if err := s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.AddCopyTx(p, nodes, *body.Parent.ID, name, fields)
	}); err != nil {
		s.dropUnreferenced(r, blobs...)
		return err
	}
	return nil
}
