package state

import (
	"slices"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Folder locks (POST /folder_locks, GET /folder_locks?folder_id=, DELETE
// /folder_locks/{id}): a lock freezes a folder against move and delete —
// the only operations the service locks, and both together. While a
// folder is locked, moving it or moving it to the trash (itself or as
// part of a folder above it) is refused with 403
// access_denied_insufficient_permissions, for everyone, the owner and the
// admin included, until the lock is deleted; renames and everything else
// still work. Only who may manage the folder's collaborators (its owner,
// a co-owner, the admin) creates, lists and deletes its locks; others
// who see the folder get 403, others 404.

// FolderLock is one lock on a folder.
type FolderLock struct {
	ID, FolderID string
	CreatedBy    *User
	CreatedAt    time.Time
}

// folderLockState is the server's state for folder locks, reached only through a transaction.
type folderLockState struct {
	ByID     Table[*FolderLock]
	ByFolder map[string][]*FolderLock // oldest first
}

// InitFolderLocks prepares the (empty) state of folder locks; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitFolderLocks() {
	s.FolderLocks = folderLockState{ByID: newTable[*FolderLock](s.Env, KFolderLocks), ByFolder: map[string][]*FolderLock{}}
}

// AddFolderLock files a lock (a new one, or one restored).
func (s *Tx) AddFolderLock(l *FolderLock) {
	s.FolderLocks.ByID.Put(l.ID, l)
	s.FolderLocks.ByFolder[l.FolderID] = append(s.FolderLocks.ByFolder[l.FolderID], l)
}

// dropFolderLock removes a lock.
func (s *Tx) dropFolderLock(l *FolderLock) {
	s.FolderLocks.ByID.Delete(l.ID)
	wire.RemoveKeyed(s.FolderLocks.ByFolder, l.FolderID, l)
}

// folderLocksItemPurged drops the locks of a folder deleted for good.
func (s *Tx) folderLocksItemPurged(it *Item) {
	if it.Typ != "folder" { // a file may share the id (SeparateIDSpaces)
		return
	}
	for _, l := range slices.Clone(s.FolderLocks.ByFolder[it.ID]) {
		s.dropFolderLock(l)
	}
}

// errFolderLocked is the refusal of a locked operation.
func errFolderLocked(op string) *wire.Error {
	return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The folder is locked: %s is not allowed until its folder lock is deleted", op)
}

// FolderLockRefuses is the refusal of moving (op "move") or deleting (op
// "delete") it while it is a locked folder, or — for delete — a folder
// holding a locked folder; nil otherwise. The cost is the number of
// locked folders times their depth, not the size of the tree.
func (s *ReadTx) FolderLockRefuses(it *Item, op string) *wire.Error {
	if it.Typ != "folder" || len(s.FolderLocks.ByFolder) == 0 {
		return nil
	}
	if len(s.FolderLocks.ByFolder[it.ID]) > 0 {
		return errFolderLocked(op)
	}
	if op != "delete" {
		return nil
	}
	for id := range s.FolderLocks.ByFolder {
		if f, ok := s.Items.Get("folder", id); ok && !f.Trashed() && s.IsUnder(f, it.ID) {
			return errFolderLocked(op)
		}
	}
	return nil
}

// folderLockRecord is the FolderLock record.
func (s *ReadTx) folderLockRecord(l *FolderLock) map[string]any {
	var folder any
	if f, ok := s.Items.Get("folder", l.FolderID); ok {
		folder = s.Mini(f)
	}
	var by any
	if l.CreatedBy != nil {
		by = map[string]any{"type": "user", "id": l.CreatedBy.ID}
	}
	return map[string]any{
		"id": l.ID, "type": "folder_lock", "folder": folder, "created_by": by,
		"created_at": FmtTime(l.CreatedAt), "lock_type": "freeze",
		"locked_operations": map[string]any{"move": true, "delete": true},
	}
}

// folderLockTarget finds the folder whose locks p manages: 404 when p
// does not see it (or it is the root, or in the trash), 403 when p sees it
// but may not manage it.
func (s *ReadTx) folderLockTarget(p *Principal, id string) (*Item, *wire.Error) {
	if !ValidID(id) || id == RootID {
		return nil, wire.NotFound("folder")
	}
	it, aerr := s.LookupFor(p, "folder", id, actManageCollaborators)
	if aerr != nil {
		return nil, aerr
	}
	if it.Trashed() {
		return nil, wire.NotFound("folder")
	}
	return it, nil
}

// CreateFolderLock serves POST /folder_locks (refserver's
// createFolderLock): a new lock on folder id (200 FolderLock). Box
// records no event for folder locks.
func (s *Tx) CreateFolderLock(p *Principal, folderID string) (Reply, *wire.Error) {
	f, aerr := s.folderLockTarget(p, folderID)
	if aerr != nil {
		return Reply{}, aerr
	}
	l := &FolderLock{ID: s.NewID(), FolderID: f.ID, CreatedBy: p.User, CreatedAt: s.NowSec()}
	s.AddFolderLock(l)
	return Reply{wire.StatusOK, s.folderLockRecord(l)}, nil
}

// ListFolderLocks serves GET /folder_locks?folder_id= (listFolderLocks):
// the folder's locks, oldest first, in one page. limit is a string here,
// as the spec's FolderLocks has it (box-typescript-sdk-gen requires one).
func (s *Tx) ListFolderLocks(p *Principal, folderID string) (Reply, *wire.Error) {
	f, aerr := s.folderLockTarget(p, folderID)
	if aerr != nil {
		return Reply{}, aerr
	}
	entries := wire.RenderEach(s.FolderLocks.ByFolder[f.ID], func(l *FolderLock) any { return s.folderLockRecord(l) })
	return Reply{wire.StatusOK, map[string]any{"entries": entries, "limit": strconv.Itoa(wire.MaxPageLimit), "next_marker": nil}}, nil
}

// DeleteFolderLock serves DELETE /folder_locks/{id} (deleteFolderLock):
// 204; 404 when there is no such lock or p does not see its folder, 403
// when p sees the folder but may not manage it.
func (s *Tx) DeleteFolderLock(p *Principal, id string) (Reply, *wire.Error) {
	l, ok := s.FolderLocks.ByID.Get(id)
	if !ok {
		return Reply{}, wire.NotFound("folder_lock")
	}
	f, ok := s.Items.Get("folder", l.FolderID)
	if !ok || !s.visible(p, f) {
		return Reply{}, wire.NotFound("folder_lock")
	}
	if !s.Can(p, f, actManageCollaborators) {
		return Reply{}, ErrDenied("folder")
	}
	s.dropFolderLock(l)
	return Reply{Status: wire.StatusNoContent}, nil
}
