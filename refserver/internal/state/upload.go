package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// CreateFile adds a file with its first version, re-checking the parent and
// the name.
func (s *Tx) CreateFile(p *Principal, parentID, name string, content blob.Info, created, modified time.Time) (*Item, *wire.Error) {
	parent, aerr := s.ParentFolder(p, parentID)
	if aerr != nil {
		return nil, aerr
	}
	owner := OwnerIn(p, parent)
	if c := s.Conflict(parentID, owner, name, nil); c != nil {
		return nil, s.ErrUploadNameInUse(c)
	}
	now := s.NowSec()
	if created.IsZero() {
		created = now
	}
	if modified.IsZero() {
		modified = now
	}
	f := &Item{
		Typ: "file", ID: s.NewID(), Name: name, ParentID: parentID,
		Owner: owner, CreatedBy: p.User, ModBy: p.User,
		CreatedAt: now, ModifiedAt: now, ContentCreatedAt: created, ContentModifiedAt: modified,
		Versions: []*Version{NewVersion(s.NewID(), blob.RefOf(content), now, p.User)},
	}
	f.SetReadyAt(s.Now().Add(s.Cfg.ContentNotReady))
	s.AddItem(f)
	s.versionAdded(f, f.Current())
	s.cascadeInto(f) // metadata_cascade_policies.go
	if parent != nil {
		s.touchItem(parent, now, nil)
	}
	return f, nil
}

// AddVersion makes blob the current version of f, optionally renaming it,
// re-checking the name.
func (s *Tx) AddVersion(p *Principal, f *Item, name string, content blob.Info, modified time.Time) *wire.Error {
	if aerr := s.LockRefuses(p, f, ActUpload); aerr != nil {
		return aerr
	}
	if name != "" && name != f.Name {
		if c := s.Conflict(f.ParentID, f.Owner, name, f); c != nil {
			return s.ErrUploadNameInUse(c)
		}
	}
	s.supersede(f)
	now := s.NowSec()
	if modified.IsZero() {
		modified = now
	}
	v := NewVersion(s.NewID(), blob.RefOf(content), now, p.User)
	s.Items.Update(f.Typ, f.ID, func(f *Item) {
		if name != "" {
			f.Name = name
		}
		f.Versions = append(f.Versions, v)
		f.ContentModifiedAt = modified
		f.SetReadyAt(s.Now().Add(s.Cfg.ContentNotReady))
		f.touch(now, p.User)
	})
	s.versionAdded(f, v)
	if parent, ok := s.Items.Get("folder", f.ParentID); ok {
		s.touchItem(parent, now, nil)
	}
	s.ItemEvent(evItemUpload, f, p.User)
	return nil
}

// CheckUploadTarget checks that p may upload a file named name into the
// folder parentID, before the content is read: the folder exists and p may
// upload there, and the name is free (409 item_name_in_use).
func (s *ReadTx) CheckUploadTarget(p *Principal, parentID, name string) *wire.Error {
	parent, aerr := s.ParentFolder(p, parentID)
	if aerr != nil {
		return aerr
	}
	if c := s.Conflict(parentID, OwnerIn(p, parent), name, nil); c != nil {
		return s.ErrUploadNameInUse(c)
	}
	return nil
}

// CreateFileTx serves POST {upload}/files/content once the content is
// stored: the new file in the folder parentID, 201 Files.
func (s *Tx) CreateFileTx(p *Principal, parentID, name string, content blob.Info, created, modified time.Time, fields []string) (Reply, *wire.Error) {
	f, aerr := s.CreateFile(p, parentID, name, content, created, modified)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{Status: wire.StatusCreated, Body: map[string]any{"total_count": 1, "entries": []any{s.Render(f, fields, p)}}}, nil
}

// CheckNewVersion checks that p may upload a new version of the file
// fileID: if-match (ifMatch) must match its etag (412), and a new name
// (name, "" to keep it) must be free in its folder.
func (s *ReadTx) CheckNewVersion(p *Principal, fileID, ifMatch, name string) *wire.Error {
	f, aerr := s.LookupFor(p, "file", fileID, ActUpload)
	if aerr != nil {
		return aerr
	}
	if aerr := CheckIfMatch(ifMatch, f.Etag()); aerr != nil {
		return aerr
	}
	if name != "" && name != f.Name {
		if c := s.Conflict(f.ParentID, f.Owner, name, f); c != nil {
			return s.ErrUploadNameInUse(c)
		}
	}
	return nil
}

// AddVersionTx serves POST {upload}/files/{id}/content once the content is
// stored: the checks of CheckNewVersion again, then the new version, 200
// Files.
func (s *Tx) AddVersionTx(p *Principal, fileID, ifMatch, name string, content blob.Info, modified time.Time, fields []string) (Reply, *wire.Error) {
	if aerr := s.CheckNewVersion(p, fileID, ifMatch, name); aerr != nil {
		return Reply{}, aerr
	}
	f := s.Items.At("file", fileID)
	if aerr := s.AddVersion(p, f, name, content, modified); aerr != nil {
		return Reply{}, aerr
	}
	return Reply{Status: wire.StatusOK, Body: map[string]any{"total_count": 1, "entries": []any{s.Render(f, fields, p)}}}, nil
}
