package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// fileIDStrict reads {file_id}; a malformed id is 405 as the spec says for
// get and delete file.
func fileIDStrict(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("file_id")
	if !state.ValidID(id) || id == state.RootID {
		return "", wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: malformed file id")
	}
	return id, nil
}

// fileIDLoose reads {file_id}; a malformed id is 404 (endpoints whose spec
// lists no 405).
func fileIDLoose(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("file_id")
	if !state.ValidID(id) || id == state.RootID {
		return "", wire.NotFound("file")
	}
	return id, nil
}

// getFile serves GET /files/{file_id}: 200 File--Full (fields rules of
// the service's download guide), 304 on a matching if-none-match.
func (s *Server) getFile(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDStrict(r)
	if aerr != nil {
		return aerr
	}
	rd, aerr := itemRead(r, "file", id)
	if aerr != nil {
		return aerr
	}
	hints, aerr := repHints(r)
	if aerr != nil {
		return aerr
	}
	var mark uint64
	err := s.change(w, withRepHints(hints, func(tx *state.Tx) (state.Reply, *wire.Error) {
		m0 := tx.MarkCount()
		rep, aerr := tx.GetItem(p, rd, state.CollectionQuery{})
		mark = tx.ItemReadWait(m0, "file", id)
		return rep, aerr
	}))
	if rd.Link == nil { // through a shared link, the answer depends on the link's folder too
		answersRead(w, mark)
	}
	return err
}

// deleteFile serves DELETE /files/{file_id}: 204, 412 on an if-match
// mismatch. The file goes to the trash (trash.go): 404 here afterwards.
func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDStrict(r)
	if aerr != nil {
		return aerr
	}
	s.st.Update(func(tx *state.Tx) { aerr = tx.TrashItemTx(p, "file", id, r.Header.Get("If-Match"), false) })
	if aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// preflightUpload serves OPTIONS /files/content: 200 UploadUrl when an
// upload would be accepted, 409 ConflictError when the name is taken.
func (s *Server) preflightUpload(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	var body state.PreflightBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Name == nil {
		return wire.BadRequest("Missing required field: name")
	}
	if body.Parent == nil || body.Parent.ID == nil {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if body.Size != nil && *body.Size < 0 {
		return wire.BadRequest("Invalid value for size")
	}
	if aerr := state.CheckName(*body.Name); aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.PreflightUpload(p, body)
	})
}

// preflightNewVersion serves OPTIONS /files/{file_id}/content, the
// pre-check before a new version: the body (name, size, parent,
// description, all optional) as OPTIONS /files/content takes it; 200 with
// the upload URL, or the error the upload would get.
func (s *Server) preflightNewVersion(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	var body state.PreflightBody
	if r.ContentLength != 0 {
		if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
			return aerr
		}
	}
	if body.Size != nil && *body.Size < 0 {
		return wire.BadRequest("Invalid value for size")
	}
	name := ""
	if body.Name != nil {
		name = *body.Name
		if aerr := state.CheckName(name); aerr != nil {
			return aerr
		}
	}
	ifMatch := r.Header.Get("If-Match")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.PreflightNewVersion(p, id, ifMatch, name)
	})
}
