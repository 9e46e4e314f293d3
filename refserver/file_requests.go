package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// fileRequestID is the {file_request_id} of a route: decimal digits, 405
// otherwise (as the service answers for a malformed id).
func fileRequestID(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("file_request_id")
	if !state.ValidID(id) {
		return "", wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed")
	}
	return id, nil
}

// getFileRequest serves GET /file_requests/{file_request_id}: 200
// FileRequest.
func (s *Server) getFileRequest(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileRequestID(r)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetFileRequest(p, id)
	})
}

// readFileRequestChange reads the update members of a body.
func readFileRequestChange(r *http.Request, v any, c *state.FileRequestChange) *wire.Error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	if aerr := wire.DecodeJSONObject(r.Body, v, wire.CodeBadRequest, "description"); aerr != nil {
		return aerr
	}
	return c.Check()
}

// updateFileRequest serves PUT /file_requests/{file_request_id}: 200
// FileRequest; If-Match is checked.
func (s *Server) updateFileRequest(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileRequestID(r)
	if aerr != nil {
		return aerr
	}
	var body state.FileRequestChange
	if aerr := readFileRequestChange(r, &body, &body); aerr != nil {
		return aerr
	}
	ifMatch := r.Header.Get("If-Match")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateFileRequest(p, id, ifMatch, body)
	})
}

// copyFileRequest serves POST /file_requests/{file_request_id}/copy
// {folder:{type:"folder",id}, ...update members}: 200 FileRequest.
func (s *Server) copyFileRequest(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileRequestID(r)
	if aerr != nil {
		return aerr
	}
	var body struct {
		state.FileRequestChange
		Folder *struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		} `json:"folder"`
	}
	if aerr := readFileRequestChange(r, &body, &body.FileRequestChange); aerr != nil {
		return aerr
	}
	if body.Folder == nil || body.Folder.ID == "" {
		return wire.BadRequest("Missing required field: folder.id")
	}
	if body.Folder.Type != "" && body.Folder.Type != "folder" {
		return wire.BadRequest("Invalid value for \"folder.type\": folder")
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CopyFileRequest(p, id, body.Folder.ID, body.FileRequestChange)
	})
}

// deleteFileRequest serves DELETE /file_requests/{file_request_id}: 204.
func (s *Server) deleteFileRequest(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileRequestID(r)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.DeleteFileRequest(p, id)
	})
}
