package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// transferOwnedFolderBody is the body of PUT /users/{user_id}/folders/0.
type transferOwnedFolderBody struct {
	OwnedBy *struct {
		ID *string `json:"id"`
	} `json:"owned_by"`
}

// transferOwnedFolder serves PUT /users/{user_id}/folders/{folder_id}:
// only folder 0 (the user's root) transfers (404 otherwise); owned_by.id
// is required (400 bad_request); notify is read and ignored (this server
// sends no mail). 200 Folder of the new folder.
func (s *Server) transferOwnedFolder(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if r.PathValue("folder_id") != state.RootID {
		return wire.NotFound("folder")
	}
	if _, aerr := wire.QueryBool(r.URL.Query(), "notify"); aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body transferOwnedFolderBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.OwnedBy == nil || body.OwnedBy.ID == nil || *body.OwnedBy.ID == "" {
		return wire.BadRequest("Missing required field: owned_by.id")
	}
	from, to, fields := r.PathValue("user_id"), *body.OwnedBy.ID, parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.TransferOwnedFolder(p, from, to, fields)
	})
}
