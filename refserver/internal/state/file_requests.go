package state

import (
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// File requests (/file_requests/{id}): a link that lets anyone upload
// into a folder. The service creates them in the web app only, so the
// server seeds them (SeedFileRequest, refserver's Options.FileRequests);
// the API reads, updates, copies and deletes them. Access follows the
// folder: who sees it reads its requests (404 otherwise), who may edit it
// changes, copies and deletes them (403 access_denied_insufficient_permissions
// otherwise). The etag grows with each change; an If-Match that differs
// is 412 precondition_failed.

// FileRequest is one file request.
type FileRequest struct {
	ID, FolderID                string
	Title, Description          string
	HasDescription              bool // description is not null
	Status                      string
	EmailRequired, DescRequired bool
	ExpiresAt                   time.Time
	Etag                        int
	CreatedBy, UpdatedBy        *User
	CreatedAt, UpdatedAt        time.Time
}

// File request statuses.
const (
	FileRequestActive   = "active"
	FileRequestInactive = "inactive"
)

// fileRequestState is the server's state for file requests, reached only
// through a transaction.
type fileRequestState struct {
	ByID Table[*FileRequest]
}

// InitFileRequests prepares the (empty) state of file requests; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitFileRequests() {
	s.FileRequests = fileRequestState{ByID: newTable[*FileRequest](s.Env, KFileRequests)}
}

// AddFileRequest files a file request (a new one, or one restored).
func (s *Tx) AddFileRequest(fr *FileRequest) { s.FileRequests.ByID.Put(fr.ID, fr) }

// SeedFileRequest makes an active file request on folder f by u, as the
// web app does: title "Upload files to <folder name>".
func (s *Tx) SeedFileRequest(f *Item, u *User) *FileRequest {
	now := s.NowSec()
	fr := &FileRequest{ID: s.NewID(), FolderID: f.ID, Title: "Upload files to " + f.Name, Status: FileRequestActive,
		CreatedBy: u, UpdatedBy: u, CreatedAt: now, UpdatedAt: now}
	s.AddFileRequest(fr)
	return fr
}

// FileRequestIDs lists the ids of the file requests, in id order.
func (s *ReadTx) FileRequestIDs() []string {
	ids := s.FileRequests.ByID.Keys()
	return ids
}

func (s *ReadTx) fileRequestRecord(fr *FileRequest) map[string]any {
	var desc any
	if fr.HasDescription {
		desc = fr.Description
	}
	folder := map[string]any{"type": "folder", "id": fr.FolderID}
	if f := s.Items.At("folder", fr.FolderID); f != nil {
		folder = s.Mini(f)
	}
	return map[string]any{
		"type": "file_request", "id": fr.ID, "title": fr.Title, "description": desc, "status": fr.Status,
		"is_email_required": fr.EmailRequired, "is_description_required": fr.DescRequired,
		"expires_at": FmtTime(fr.ExpiresAt), "folder": folder,
		"url": "/f/" + fr.ID, "etag": strconv.Itoa(fr.Etag),
		"created_by": fr.CreatedBy.Mini(), "created_at": FmtTime(fr.CreatedAt),
		"updated_by": fr.UpdatedBy.Mini(), "updated_at": FmtTime(fr.UpdatedAt),
	}
}

// fileRequestFor finds file request id for p: 404 not_found when there is
// none or p does not see its folder, 403 when act is refused on it.
func (s *ReadTx) fileRequestFor(p *Principal, id string, act Action) (*FileRequest, *wire.Error) {
	fr := s.FileRequests.ByID.At(id)
	if fr == nil {
		return nil, wire.NotFound("file_request")
	}
	if _, aerr := s.Lookup(p, "folder", fr.FolderID); aerr != nil {
		return nil, wire.NotFound("file_request")
	}
	if _, aerr := s.LookupFor(p, "folder", fr.FolderID, act); aerr != nil {
		return nil, aerr
	}
	return fr, nil
}

// FileRequestChange is the body of PUT /file_requests/{id} and the update
// fields of POST /file_requests/{id}/copy: only the members sent change.
type FileRequestChange struct {
	Title                 *string               `json:"title"`
	Description           wire.Nullable[string] `json:"description"`
	Status                *string               `json:"status"`
	IsEmailRequired       *bool                 `json:"is_email_required"`
	IsDescriptionRequired *bool                 `json:"is_description_required"`
	ExpiresAt             *time.Time            `json:"expires_at"`
}

// Check refuses a change the service refuses: 400 bad_request for an
// empty title or an unknown status.
func (c *FileRequestChange) Check() *wire.Error {
	if c.Title != nil && *c.Title == "" {
		return wire.BadRequest("Invalid value for \"title\": must not be empty")
	}
	if c.Status != nil && *c.Status != FileRequestActive && *c.Status != FileRequestInactive {
		return wire.BadRequest("Invalid value for \"status\": active or inactive")
	}
	return nil
}

func (c *FileRequestChange) apply(fr *FileRequest) {
	if c.Title != nil {
		fr.Title = *c.Title
	}
	if c.Description.Present {
		fr.Description, fr.HasDescription = c.Description.V, !c.Description.Null
	}
	if c.Status != nil {
		fr.Status = *c.Status
	}
	if c.IsEmailRequired != nil {
		fr.EmailRequired = *c.IsEmailRequired
	}
	if c.IsDescriptionRequired != nil {
		fr.DescRequired = *c.IsDescriptionRequired
	}
	if c.ExpiresAt != nil {
		fr.ExpiresAt = c.ExpiresAt.UTC().Truncate(time.Second)
	}
}

// GetFileRequest serves GET /file_requests/{id} (refserver's
// getFileRequest).
func (s *Tx) GetFileRequest(p *Principal, id string) (Reply, *wire.Error) {
	fr, aerr := s.fileRequestFor(p, id, ActSee)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, s.fileRequestRecord(fr)}, nil
}

// UpdateFileRequest serves PUT /file_requests/{id} (updateFileRequest):
// 200 with the request after the change; ifMatch, when given, must be its
// etag (412 precondition_failed).
func (s *Tx) UpdateFileRequest(p *Principal, id, ifMatch string, c FileRequestChange) (Reply, *wire.Error) {
	fr, aerr := s.fileRequestFor(p, id, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	if ifMatch != "" && ifMatch != strconv.Itoa(fr.Etag) {
		return Reply{}, wire.Errorf(wire.StatusPreconditionFailed, wire.CodePreconditionFailed, "The resource has been modified. Please retrieve the resource again and retry")
	}
	s.FileRequests.ByID.Update(fr.ID, func(fr *FileRequest) {
		c.apply(fr)
		fr.Etag++
		fr.UpdatedBy, fr.UpdatedAt = p.User, s.NowSec()
	})
	return Reply{wire.StatusOK, s.fileRequestRecord(fr)}, nil
}

// CopyFileRequest serves POST /file_requests/{id}/copy (copyFileRequest):
// 200 with a new request on folderID, the source's settings with the
// change applied. Both folders must be p's to edit.
func (s *Tx) CopyFileRequest(p *Principal, id, folderID string, c FileRequestChange) (Reply, *wire.Error) {
	src, aerr := s.fileRequestFor(p, id, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !ValidID(folderID) || folderID == RootID {
		return Reply{}, wire.NotFound("folder")
	}
	f, aerr := s.LookupFor(p, "folder", folderID, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	now := s.NowSec()
	fr := *src
	fr.ID, fr.FolderID, fr.Etag = s.NewID(), f.ID, 0
	fr.CreatedBy, fr.UpdatedBy, fr.CreatedAt, fr.UpdatedAt = p.User, p.User, now, now
	c.apply(&fr)
	s.AddFileRequest(&fr)
	return Reply{wire.StatusOK, s.fileRequestRecord(&fr)}, nil
}

// DeleteFileRequest serves DELETE /file_requests/{id} (deleteFileRequest):
// 204.
func (s *Tx) DeleteFileRequest(p *Principal, id string) (Reply, *wire.Error) {
	fr, aerr := s.fileRequestFor(p, id, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	s.FileRequests.ByID.Delete(fr.ID)
	return Reply{Status: wire.StatusNoContent}, nil
}

// fileRequestsItemPurged drops the requests of a folder deleted for good.
func (s *Tx) fileRequestsItemPurged(it *Item) {
	if it.Typ != "folder" {
		return
	}
	s.FileRequests.ByID.DeleteWhere(func(fr *FileRequest) bool { return fr.FolderID == it.ID })
}
