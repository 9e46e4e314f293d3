package cms

import (
	"context"
	"net/http"
	"time"
)

// FolderLocksService locks folders against being moved or deleted
// (/folder_locks). A locked folder refuses those operations for everyone,
// its owner included, until the lock is deleted. Only the folder's owner or
// a co-owner may create, list or delete its locks.
type FolderLocksService service

// FolderLockedOperations are the operations a folder lock refuses
// (locked_operations). The service takes both, both true.
type FolderLockedOperations struct {
	Move   bool `json:"move"`
	Delete bool `json:"delete"`
}

// FolderLock is a lock on a folder (FolderLock).
type FolderLock struct {
	ID        string      `json:"id"`
	Type      string      `json:"type,omitzero"`
	Folder    *FolderMini `json:"folder,omitzero"`
	CreatedBy *UserMini   `json:"created_by,omitzero"`
	CreatedAt time.Time   `json:"created_at,omitzero"`
	// LockedOperations are the operations refused while the lock holds.
	LockedOperations *FolderLockedOperations `json:"locked_operations,omitzero"`
	// LockType is the kind of lock; the service knows "freeze".
	LockType string `json:"lock_type,omitzero"`
}

// typedFolderRef names a folder with its type ({"type": "folder", "id"}),
// as POST /folder_locks and POST /file_requests/{id}/copy take it.
type typedFolderRef struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// createFolderLockRequest is the body of POST /folder_locks.
type createFolderLockRequest struct {
	LockedOperations FolderLockedOperations `json:"locked_operations"`
	Folder           typedFolderRef         `json:"folder"`
}

// Create locks a folder against both moving and deleting (POST /folder_locks,
// with locked_operations move and delete true, the only lock the service
// takes). The caller must own or co-own the folder.
func (s *FolderLocksService) Create(ctx context.Context, folderID string) (*FolderLock, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if folderID == "0" {
		return nil, nil, &ArgError{Arg: "folder id", Reason: "the root folder cannot be locked", Err: ErrInvalidID}
	}
	body := &createFolderLockRequest{
		LockedOperations: FolderLockedOperations{Move: true, Delete: true},
		Folder:           typedFolderRef{Type: "folder", ID: folderID},
	}
	return callAPI[FolderLock](ctx, s.client, http.MethodPost, body, nil, "folder_locks")
}

// listFolderLocksQuery is the query of GET /folder_locks.
type listFolderLocksQuery struct {
	FolderID string `url:"folder_id"`
}

// ListByFolder returns the locks of a folder, unpaged
// (GET /folder_locks?folder_id=). A folder has at most one lock.
func (s *FolderLocksService) ListByFolder(ctx context.Context, folderID string) (*Collection[*FolderLock], *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	// The wire sends {entries, limit, next_marker} and no total_count.
	var page struct {
		Entries []*FolderLock `json:"entries"`
	}
	r, err := s.client.apiRequest(http.MethodGet, nil, &listFolderLocksQuery{FolderID: folderID}, []string{"folder_locks"})
	if err != nil {
		return nil, nil, err
	}
	resp, err := s.client.do(ctx, r, &page)
	if err != nil {
		return nil, resp, err
	}
	return &Collection[*FolderLock]{TotalCount: len(page.Entries), Entries: page.Entries}, resp, nil
}

// Delete removes a folder lock (DELETE /folder_locks/{folder_lock_id}): the
// folder can be moved and deleted again.
func (s *FolderLocksService) Delete(ctx context.Context, folderLockID string) (*Response, error) {
	if err := checkID("folder lock", folderLockID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "folder_locks", folderLockID)
}
