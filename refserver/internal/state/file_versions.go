package state

import (
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// fileVersion finds the file id and its version vid for p. Callers hold
// s.mu.
func (s *State) fileVersion(id, vid string, p *Principal) (*Item, *Version, *wire.Error) {
	f, aerr := s.LookupFor(p, "file", id, actEdit)
	if aerr != nil {
		return nil, nil, aerr
	}
	for _, v := range f.Versions {
		if v.ID == vid {
			return f, v, nil
		}
	}
	return nil, nil, wire.NotFound("file version")
}

// versionBlocked returns the error that keeps a version from the trash
// (retention or an active legal hold), or nil. Callers hold s.mu.
func (s *State) versionBlocked(v *Version) *wire.Error {
	now := s.Now()
	if fvr, ok := s.Retention.ByVersion[v.ID]; ok && fvr.retainedAt(now) {
		return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "File version %s is under retention", v.ID)
	}
	if h, ok := s.Holds.ByVersion[v.ID]; ok && len(s.ActiveHolds(h, now)) > 0 {
		return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "File version %s is under a legal hold", v.ID)
	}
	return nil
}

// DeleteFileVersionTx is the transaction of DELETE
// /files/{file_id}/versions/{id} (deleteFileVersion): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *State) DeleteFileVersionTx(fileID string, versionID string, p *Principal, ifMatch string) (Reply, *wire.Error) {
	f, v, aerr := s.fileVersion(fileID, versionID, p)
	if aerr != nil {
		return Reply{}, aerr
	}
	switch {
	case v == f.Current():
		return Reply{}, wire.BadRequest("The current version cannot be deleted: promote another version first")
	case !v.TrashedAt.IsZero():
		return Reply{}, wire.NotFound("file version")
	}
	if aerr := FirstAPIError(CheckIfMatch(ifMatch, f.Etag()), s.LockRefuses(p, f, actEdit), s.versionBlocked(v)); aerr != nil {
		return Reply{}, aerr
	}
	if !s.Can(p, f, actEdit) {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Access denied - insufficient permission to delete a version")
	}
	v.TrashedAt, v.TrashedBy = s.NowSec(), p.User
	s.dirtyItem(f)
	return Reply{Status: wire.StatusNoContent}, nil
}

func FirstAPIError(errs ...*wire.Error) *wire.Error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// RestoreFileVersionTx is the transaction of PUT
// /files/{file_id}/versions/{id} (restoreFileVersion): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *State) RestoreFileVersionTx(fileID string, versionID string, p *Principal, fields []string) (Reply, *wire.Error) {
	f, v, aerr := s.fileVersion(fileID, versionID, p)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !v.TrashedAt.IsZero() {
		v.TrashedAt, v.TrashedBy = time.Time{}, nil
		v.RestoredAt, v.RestoredBy = s.NowSec(), p.User
		s.dirtyItem(f)
	}
	return Reply{wire.StatusOK, PickFields(VersionRecord(f, slices.Index(f.Versions, v)+1, v), fields, "type", "id", "sha1")}, nil
}

// PromoteVersion makes a copy of an earlier version's content (blob) the
// current version of f, by u. Callers hold mu.
func (s *State) PromoteVersion(f *Item, blob blob.Info, u *User) {
	now := s.NowSec()
	f.Versions = append(f.Versions, &Version{ID: s.NewID(), Blob: blob, CreatedAt: now, By: u})
	s.versionAdded(f, f.Current())
	f.ReadyAt = s.Now().Add(s.Cfg.ContentNotReady)
	f.touch(now, u)
	s.dirtyItem(f)
	s.ItemEvent(evItemMakeCurrent, f, u)
}
