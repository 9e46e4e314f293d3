package cms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// LockAccess is the kind of a file lock (lock.access); the service knows
// one.
type LockAccess string

// Lock kinds.
const (
	// LockAccessLock is the lock that keeps other users from changing the
	// file (and, with IsDownloadPrevented, from downloading it).
	LockAccessLock LockAccess = "lock"
)

// Lock is the lock held on a file (File.Lock, requested with
// Fields "lock"). A lock whose ExpiredAt is in the past no longer holds.
type Lock struct {
	ID                  string    `json:"id"`
	Type                string    `json:"type,omitzero"`
	CreatedBy           *UserMini `json:"created_by,omitzero"`
	CreatedAt           time.Time `json:"created_at,omitzero"`
	ExpiredAt           time.Time `json:"expired_at,omitzero"`
	IsDownloadPrevented bool      `json:"is_download_prevented"`
	// AppType names the application that holds the lock (gsuite,
	// office_wopi, office_wopiplus, other), empty for a user's lock.
	AppType string `json:"app_type,omitzero"`
}

// LockRequest locks a file (the lock member of PUT /files/{file_id}).
type LockRequest struct {
	// Access is the kind of lock; empty sends LockAccessLock, the only one.
	Access LockAccess `json:"access"`
	// ExpiresAt is when the lock ends; zero for a lock without end.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// IsDownloadPrevented keeps other users from downloading the file while
	// it is locked. It is always sent: false is a lock that allows them.
	IsDownloadPrevented bool `json:"is_download_prevented"`
}

// DownloadAccess says who may download a file (permissions.can_download
// of PUT /files/{file_id}), over what the collaboration roles allow.
type DownloadAccess string

// Download access levels.
const (
	DownloadAccessOpen    DownloadAccess = "open"
	DownloadAccessCompany DownloadAccess = "company"
)

// FileDownloadPermissions is the permissions member of PUT /files/{file_id}.
type FileDownloadPermissions struct {
	CanDownload DownloadAccess `json:"can_download"`
}

// UpdateFileRequest is the body of FilesService.Update (PUT /files/{file_id}).
// Zero fields are left out and keep their value; Nullable fields send an
// explicit null with cms.Null (remove the lock, remove the shared link).
type UpdateFileRequest struct {
	// Name renames the file (1 to 255 characters; no "/", "\", trailing
	// spaces, "." or ".."). A name taken in the folder fails with an
	// *APIError matching ErrItemNameInUse whose Conflicts names the item.
	Name string `json:"name,omitzero"`
	// Description changes the description (at most 256 characters);
	// cms.Ptr("") clears it. The service takes "" to clear and no null.
	Description *string `json:"description,omitempty"`
	// Parent moves the file to another folder.
	Parent *FolderRef `json:"parent,omitzero"`
	// Tags replaces the file's tags (1 to 100 of them); nil leaves them.
	Tags []string `json:"tags,omitempty"`
	// SharedLink creates or changes the shared link (Set) or removes it
	// (Null); see also SetSharedLink and RemoveSharedLink.
	SharedLink Nullable[SharedLinkRequest] `json:"shared_link,omitzero"`
	// Lock locks the file (Set) or unlocks it (Null); see also Lock and
	// Unlock.
	Lock Nullable[LockRequest] `json:"lock,omitzero"`
	// DispositionAt is the file's retention expiry; it cannot be moved
	// earlier once set.
	DispositionAt time.Time `json:"disposition_at,omitzero"`
	// Permissions sets who may download the file.
	Permissions *FileDownloadPermissions `json:"permissions,omitzero"`
}

// UpdateItemOptions are the options of the file and folder updates
// (PUT /files/{file_id}, PUT /folders/{folder_id}) and their lock helpers.
type UpdateItemOptions struct {
	// Fields selects the fields returned (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// IfMatch is the etag the item must still have (header if-match); on a
	// mismatch the call fails with an *APIError matching
	// ErrPreconditionFailed and nothing changes.
	IfMatch string `url:"-"`
}

// setHeaders sends if-match.
func (o *UpdateItemOptions) setHeaders(h http.Header) error {
	return setHeader(h, "If-Match", "if-match", o.IfMatch)
}

// Item name rules of the service.
const (
	maxItemName        = 255
	maxItemDescription = 256
	maxItemTags        = 100
)

// checkItemName applies the service's rules for a file or folder name:
// 1 to 255 characters, no "/" or "\", no trailing space, not "." or "..",
// no non-printable characters.
func checkItemName(arg, name string) error {
	switch {
	case name == "":
		return invalidArg(arg, "empty")
	case utf8.RuneCountInString(name) > maxItemName:
		return invalidArg(arg, fmt.Sprintf("longer than %d characters", maxItemName))
	case name == "." || name == "..":
		return invalidArg(arg, quoteArg(name)+" is not a name")
	case strings.ContainsAny(name, `/\`):
		return invalidArg(arg, `contains "/" or "\"`)
	case strings.HasSuffix(name, " "):
		return invalidArg(arg, "ends with a space")
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return invalidArg(arg, "contains a non-printable character")
	}
	return nil
}

// checkItemUpdate checks what file and folder updates share: the name, the
// description, the parent, the tags and the shared link.
func checkItemUpdate(name string, description *string, parent *FolderRef, tags []string, link Nullable[SharedLinkRequest], folder bool) error {
	if name != "" {
		if err := checkItemName("name", name); err != nil {
			return err
		}
	}
	if description != nil && utf8.RuneCountInString(*description) > maxItemDescription {
		return invalidArg("description", fmt.Sprintf("longer than %d characters", maxItemDescription))
	}
	if parent != nil {
		if err := checkID("parent folder", parent.ID); err != nil {
			return err
		}
	}
	if len(tags) > maxItemTags {
		return invalidArg("tags", fmt.Sprintf("%d tags, at most %d", len(tags), maxItemTags))
	}
	if l, ok := link.Get(); ok {
		if err := l.validate(); err != nil {
			return err
		}
		if folder {
			return checkFolderLink(&l)
		}
	}
	return nil
}

// check applies the lock's rules: access lock (or empty).
func (l *LockRequest) check() error {
	return checkEnum("lock access", l.Access, LockAccessLock)
}

// MarshalJSON sends access "lock" when Access is empty.
func (l LockRequest) MarshalJSON() ([]byte, error) {
	type wire LockRequest
	if l.Access == "" {
		l.Access = LockAccessLock
	}
	return json.Marshal(wire(l))
}

// Update changes a file (PUT /files/{file_id}): rename, move (Parent),
// description, tags, shared link, lock, retention expiry, download
// permission. A name taken in the destination fails with an *APIError
// matching ErrItemNameInUse; a file another user locked with
// ErrAccessDeniedItemLocked; a stale opts.IfMatch with
// ErrPreconditionFailed.
func (s *FilesService) Update(ctx context.Context, fileID string, body *UpdateFileRequest, opts *UpdateItemOptions) (*File, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkItemUpdate(body.Name, body.Description, body.Parent, body.Tags, body.SharedLink, false); err != nil {
		return nil, nil, err
	}
	if l, ok := body.Lock.Get(); ok {
		if err := l.check(); err != nil {
			return nil, nil, err
		}
	}
	if p := body.Permissions; p != nil {
		if p.CanDownload == "" {
			return nil, nil, invalidArg("permissions can_download", "empty")
		}
		if err := checkEnum("permissions can_download", p.CanDownload, DownloadAccessOpen, DownloadAccessCompany); err != nil {
			return nil, nil, err
		}
	}
	if opts == nil {
		opts = &UpdateItemOptions{}
	}
	return callAPI[File](ctx, s.client, http.MethodPut, body, opts, "files", fileID)
}

// Lock locks a file (PUT /files/{file_id} with {"lock": {"access": "lock",
// ...}}); a nil lock is a lock without end that allows downloads. The
// answer carries the lock when opts.Fields names "lock".
func (s *FilesService) Lock(ctx context.Context, fileID string, lock *LockRequest, opts *UpdateItemOptions) (*File, *Response, error) {
	if lock == nil {
		lock = &LockRequest{}
	}
	return s.Update(ctx, fileID, &UpdateFileRequest{Lock: Set(*lock)}, opts)
}

// Unlock removes a file's lock (PUT /files/{file_id} with {"lock": null}).
func (s *FilesService) Unlock(ctx context.Context, fileID string, opts *UpdateItemOptions) (*File, *Response, error) {
	return s.Update(ctx, fileID, &UpdateFileRequest{Lock: Null[LockRequest]()}, opts)
}

// CopyFileRequest is the body of FilesService.Copy.
type CopyFileRequest struct {
	// Parent is the folder to copy the file into (required).
	Parent FolderRef `json:"parent"`
	// Name names the copy (at most 255 characters; the service removes the
	// characters it does not take); empty keeps the file's name.
	Name string `json:"name,omitzero"`
	// Version is the id of the file version to copy; empty copies the
	// current one.
	Version string `json:"version,omitzero"`
}

// Copy copies a file into a folder (POST /files/{file_id}/copy; the service
// answers 201 with the new file). A name taken in the folder fails with an
// *APIError matching ErrItemNameInUse. A POST is not retried blindly.
func (s *FilesService) Copy(ctx context.Context, fileID string, body *CopyFileRequest, opts *FieldsOptions) (*File, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("parent folder", body.Parent.ID); err != nil {
		return nil, nil, err
	}
	if utf8.RuneCountInString(body.Name) > maxItemName {
		return nil, nil, invalidArg("name", fmt.Sprintf("longer than %d characters", maxItemName))
	}
	if body.Version != "" {
		if err := checkID("file version", body.Version); err != nil {
			return nil, nil, err
		}
	}
	return callAPI[File](ctx, s.client, http.MethodPost, body, opts, "files", fileID, "copy")
}
