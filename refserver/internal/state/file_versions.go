package state

import (
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// fileVersion finds the file id and its version vid for p.
func (s *Tx) fileVersion(id, vid string, p *Principal) (*Item, *Version, *wire.Error) {
	f, aerr := s.LookupFor(p, "file", id, ActEdit)
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
// (retention or an active legal hold), or nil.
func (s *Tx) versionBlocked(v *Version) *wire.Error {
	now := s.Now()
	if fvr, ok := s.Retention.ByVersion[v.ID]; ok && fvr.retainedAt(now) {
		return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "File version %s is under retention", v.ID)
	}
	if h, ok := s.Holds.ByVersion[v.ID]; ok && len(s.ActiveHolds(h, now)) > 0 {
		return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "File version %s is under a legal hold", v.ID)
	}
	return nil
}

// DeleteFileVersion serves DELETE /files/{file_id}/versions/{id}
// (refserver's deleteFileVersion): an earlier version goes to the trash
// (204), unless it is the current one (400), ifMatch fails (412), a lock,
// retention or a legal hold keeps it.
func (s *Tx) DeleteFileVersion(fileID string, versionID string, p *Principal, ifMatch string) (Reply, *wire.Error) {
	f, v, aerr := s.fileVersion(fileID, versionID, p)
	if aerr != nil {
		return Reply{}, aerr
	}
	switch {
	case v == f.Current():
		return Reply{}, wire.BadRequest("The current version cannot be deleted: promote another version first")
	case !v.TrashedAt().IsZero():
		return Reply{}, wire.NotFound("file version")
	}
	if aerr := FirstAPIError(CheckIfMatch(ifMatch, f.Etag()), s.LockRefuses(p, f, ActEdit), s.versionBlocked(v)); aerr != nil {
		return Reply{}, aerr
	}
	if !s.Can(p, f, ActEdit) {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Access denied - insufficient permission to delete a version")
	}
	s.changeVersion(f, v, func(v *Version) { v.SetTrash(s.NowSec(), v.RestoredAt(), p.User, v.RestoredBy()) })
	return Reply{Status: wire.StatusNoContent}, nil
}

// FirstAPIError returns the first non-nil error of errs, or nil.
func FirstAPIError(errs ...*wire.Error) *wire.Error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// RestoreFileVersion serves PUT /files/{file_id}/versions/{id}
// (restoreFileVersion): a version in the trash is restored (a version not
// in the trash is left as it is); 200 with its record.
func (s *Tx) RestoreFileVersion(fileID string, versionID string, p *Principal, fields []string) (Reply, *wire.Error) {
	f, v, aerr := s.fileVersion(fileID, versionID, p)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !v.TrashedAt().IsZero() {
		s.changeVersion(f, v, func(v *Version) {
			v.SetTrash(time.Time{}, s.NowSec(), nil, p.User)
		})
	}
	return Reply{wire.StatusOK, PickFields(VersionRecord(f, slices.Index(f.Versions, v)+1, v), fields, "type", "id", "sha1")}, nil
}

// supersede records, before a new version of f becomes current, the name
// of the version it replaces: f's name now.
func (s *Tx) supersede(f *Item) {
	if prev := f.Current(); prev.Name() != f.Name {
		s.changeVersion(f, prev, func(v *Version) { v.SetName(f.Name) })
	}
}

// PromoteVersion makes a copy of an earlier version's content (blob) the
// current version of f, by u, under the name the file had with that
// version (Box: "the same hash digest, etag, and name as the original");
// the caller checked the name is free (PromotableVersion).
func (s *Tx) PromoteVersion(f *Item, old *Version, content blob.Info, u *User) {
	now := s.NowSec()
	s.supersede(f)
	v := NewVersion(s.NewID(), blob.RefOf(content), now, u)
	s.Items.Update(f.Typ, f.ID, func(f *Item) {
		if old.Name() != "" {
			f.Name = old.Name()
		}
		f.Versions = append(f.Versions, v)
		f.SetReadyAt(s.Now().Add(s.Cfg.ContentNotReady))
		f.touch(now, u)
	})
	s.versionAdded(f, v)
	s.ItemEvent(evItemMakeCurrent, f, u)
}

// ListFileVersions serves GET /files/{id}/versions: a page of the file's
// earlier versions, newest first (the current one is not listed).
func (s *Tx) ListFileVersions(p *Principal, fileID string, q wire.Page, fields []string) (Reply, *wire.Error) {
	f, aerr := s.LookupFor(p, "file", fileID, ActPreview)
	if aerr != nil {
		return Reply{}, aerr
	}
	earlier := slices.Clone(f.Versions[:len(f.Versions)-1])
	slices.Reverse(earlier)
	page := wire.OffsetEntries(earlier, q, func(*Version) bool { return false }, func(v *Version) any {
		return PickFields(VersionRecord(f, slices.Index(f.Versions, v)+1, v), fields, "type", "id", "sha1")
	})
	return Reply{Status: wire.StatusOK, Body: page}, nil
}

// PromotableVersion is the version of the file p may make current again
// (POST /files/{id}/versions/current): 400 for the current one or one in
// the trash, 404 for none.
func (s *ReadTx) PromotableVersion(p *Principal, fileID, versionID string) (*Version, *wire.Error) {
	f, aerr := s.LookupFor(p, "file", fileID, ActUpload)
	if aerr != nil {
		return nil, aerr
	}
	for _, v := range f.Versions {
		if v.ID != versionID {
			continue
		}
		switch {
		case v == f.Current():
			return nil, wire.BadRequest("The version is the current one already")
		case !v.TrashedAt().IsZero():
			return nil, wire.BadRequest("A version in the trash cannot be promoted: restore it first")
		}
		if v.Name() != "" && v.Name() != f.Name {
			if c := s.Conflict(f.ParentID, f.Owner, v.Name(), f); c != nil {
				return nil, s.ErrNameInUse(c)
			}
		}
		return v, FirstAPIError(s.LockRefuses(p, f, ActUpload))
	}
	return nil, wire.NotFound("file version")
}

// PromoteVersionTx serves POST /files/{id}/versions/current once the
// content is copied: copied (a copy of versionID's content, made outside
// the lock) becomes the file's new current version, if the version may
// still be promoted: 201 with the new version's record.
func (s *Tx) PromoteVersionTx(p *Principal, fileID, versionID string, copied blob.Info, fields []string) (Reply, *wire.Error) {
	old, aerr := s.PromotableVersion(p, fileID, versionID)
	if aerr != nil {
		return Reply{}, aerr
	}
	f := s.Items.At("file", fileID)
	s.PromoteVersion(f, old, copied, p.User)
	return Reply{Status: wire.StatusCreated, Body: PickFields(VersionRecord(f, len(f.Versions), f.Current()), fields, "type", "id", "sha1")}, nil
}
