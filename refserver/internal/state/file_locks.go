package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// File locks (PUT /files/{file_id} with "lock"; spec UpdateFileByIdRequestBody
// lock, the locking guide): {"lock": {"access": "lock", "expires_at":
// <RFC 3339, optional>, "is_download_prevented": <bool>}} locks a file,
// {"lock": null} unlocks it. While a lock is active (no expiry, or before
// it), users other than the one who locked the file may not upload a new
// version, rename, move or delete it, nor download it when
// is_download_prevented: 403 access_denied_item_locked (the common errors
// guide's code). The locker, the owner and the enterprise admin may unlock
// (others: 403 access_denied_insufficient_permissions); locking again
// replaces the lock. An expired lock is gone: it neither refuses nor
// renders.

// CodeItemLocked is the 403 code of a change a lock refuses.
const CodeItemLocked = "access_denied_item_locked"

// FileLock is the lock of a file. Its fields are read and changed only in a transaction.
type FileLock struct {
	ID                string
	By                *User
	CreatedAt         time.Time
	ExpiresAt         time.Time // zero: until unlocked
	DownloadPrevented bool
}

// LockBody is the lock member of an update. The spec names its kind
// access; the classic box-node-sdk (files.lock) sends type, which the
// service takes too: either says "lock".
type LockBody struct {
	Access              *string `json:"access"`
	Type                *string `json:"type"`
	ExpiresAt           *string `json:"expires_at"`
	IsDownloadPrevented *bool   `json:"is_download_prevented"`
}

// activeLock returns the file's lock while it holds, else nil.
func (s *ReadTx) activeLock(f *Item) *FileLock {
	l := f.Lock()
	if l == nil || !l.ExpiresAt.IsZero() && !s.Now().Before(l.ExpiresAt) {
		return nil
	}
	return l
}

// LockRefuses returns 403 access_denied_item_locked when a lock someone
// else holds keeps p from doing act to f (ActUpload, ActEdit for a rename
// or a move, ActDelete, ActDownload when downloads are prevented), or nil.
func (s *ReadTx) LockRefuses(p *Principal, f *Item, act Action) *wire.Error {
	if f.Typ != "file" {
		return nil
	}
	l := s.activeLock(f)
	if l == nil || p.User == l.By {
		return nil
	}
	switch act {
	case ActUpload, ActEdit, ActDelete:
	case ActDownload:
		if !l.DownloadPrevented {
			return nil
		}
	default:
		return nil
	}
	return wire.Errorf(wire.StatusForbidden, CodeItemLocked, "The file is locked by another user")
}

// applyLock sets or removes f's lock for p.
func (s *Tx) applyLock(p *Principal, f *Item, l *FileLock, unlock bool) *wire.Error {
	cur := s.activeLock(f)
	if unlock {
		if cur != nil && p.User != cur.By && p.User != f.Owner && !p.SeesAll() {
			return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the user who locked the file, its owner or an admin may unlock it")
		}
		f.SetLock(nil)
		return nil
	}
	if cur != nil && p.User != cur.By {
		return wire.Errorf(wire.StatusForbidden, CodeItemLocked, "The file is locked by another user")
	}
	l.ID, l.By = s.NewID(), p.User
	f.SetLock(l)
	return nil
}

// lockRecord is the Lock record of a file's active lock, or nil.
func (s *Tx) lockRecord(f *Item) any {
	l := s.activeLock(f)
	if l == nil {
		return nil
	}
	return map[string]any{
		"type": "lock", "id": l.ID, "created_by": l.By.Mini(), "created_at": FmtTime(l.CreatedAt),
		"expired_at": FmtTime(l.ExpiresAt), "is_download_prevented": l.DownloadPrevented, "app_type": nil,
	}
}
