package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// createFolderLockBody is the body of POST /folder_locks.
type createFolderLockBody struct {
	Folder *struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"folder"`
	LockedOperations *struct {
		Move   *bool `json:"move"`
		Delete *bool `json:"delete"`
	} `json:"locked_operations"`
}

// createFolderLock serves POST /folder_locks: 200 FolderLock. folder must
// be {"type":"folder","id":...} (400 bad_request); locked_operations, when
// sent, must lock both move and delete (400 schema_validation_failed), as
// the service locks them only together.
func (s *Server) createFolderLock(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body createFolderLockBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Folder == nil || body.Folder.ID == nil || *body.Folder.ID == "" {
		return wire.BadRequest("Missing required field: folder.id")
	}
	if body.Folder.Type == nil || *body.Folder.Type != "folder" {
		return wire.BadRequest("Invalid value for folder.type: folder")
	}
	if ops := body.LockedOperations; ops != nil && (ops.Move == nil || !*ops.Move || ops.Delete == nil || !*ops.Delete) {
		return wire.Errorf(http.StatusBadRequest, "schema_validation_failed", "locked_operations: move and delete are locked together and must both be true")
	}
	id := *body.Folder.ID
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateFolderLock(p, id)
	})
}

// listFolderLocks serves GET /folder_locks?folder_id=: the folder's locks
// (400 bad_request without folder_id).
func (s *Server) listFolderLocks(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.URL.Query().Get("folder_id")
	if id == "" {
		return wire.BadRequest("Missing required query parameter: folder_id")
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListFolderLocks(p, id)
	})
}

// deleteFolderLock serves DELETE /folder_locks/{folder_lock_id}: 204.
func (s *Server) deleteFolderLock(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("folder_lock_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.DeleteFolderLock(p, id)
	})
}
