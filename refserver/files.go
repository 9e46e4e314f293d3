package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// fileIDStrict reads {file_id}; a malformed id is 405 as the spec says for
// get and delete file.
func fileIDStrict(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("file_id")
	if !validID(id) || id == rootID {
		return "", wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: malformed file id")
	}
	return id, nil
}

// fileIDLoose reads {file_id}; a malformed id is 404 (endpoints whose spec
// lists no 405).
func fileIDLoose(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("file_id")
	if !validID(id) || id == rootID {
		return "", wire.NotFound("file")
	}
	return id, nil
}

// getFile serves GET /files/{file_id}: 200 File--Full (fields rules of
// the service's download guide), 304 on a matching if-none-match.
func (s *Server) getFile(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDStrict(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		f, aerr := s.lookupVia(r, p, "file", id, actSee)
		if aerr != nil {
			return reply{}, aerr
		}
		if h := r.Header.Get("If-None-Match"); h != "" && etagMatches(h, f.etag()) {
			return reply{status: http.StatusNotModified}, nil
		}
		return reply{http.StatusOK, s.render(f, fields, p)}, nil
	})
}

// deleteFile serves DELETE /files/{file_id}: 204, 412 on an if-match
// mismatch. The file goes to the trash (trash.go): 404 here afterwards.
func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDStrict(r)
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	f, aerr := s.lookupFor(p, "file", id, actDelete)
	if aerr == nil {
		aerr = s.lockRefuses(p, f, actDelete)
	}
	if aerr == nil {
		aerr = checkIfMatch(r.Header.Get("If-Match"), f.etag())
	}
	if aerr == nil {
		s.trashItem(f, p.user)
	}
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// preflightBody is the body of OPTIONS /files/content.
type preflightBody struct {
	Name   *string `json:"name"`
	Size   *int64  `json:"size"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
}

// preflightUpload serves OPTIONS /files/content: 200 UploadUrl when an
// upload would be accepted, 409 ConflictError when the name is taken.
func (s *Server) preflightUpload(w http.ResponseWriter, r *http.Request, p *principal) error {
	var body preflightBody
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
	if aerr := checkName(*body.Name); aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.preflightUploadTx(p, body)
	})
}

// preflightUploadTx is the transaction of OPTIONS /files/content
// (preflightUpload): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) preflightUploadTx(p *principal, body preflightBody) (reply, *wire.Error) {
	parent, aerr := s.parentFolder(p, *body.Parent.ID)
	if aerr != nil {
		return reply{}, aerr
	}
	if c := s.conflict(*body.Parent.ID, ownerIn(p, parent), *body.Name, nil); c != nil {
		return reply{}, s.errNameInUse(c)
	}
	return reply{http.StatusOK, map[string]any{
		"upload_url":   s.uploadURL + "/files/content",
		"upload_token": randomHex(24),
	}}, nil
}
