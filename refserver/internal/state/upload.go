package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// CreateFile adds a file with its first version, re-checking the parent and
// the name. Callers hold s.mu.
func (s *State) CreateFile(p *Principal, parentID, name string, blob blob.Info, created, modified time.Time) (*Item, *wire.Error) {
	parent, aerr := s.ParentFolder(p, parentID)
	if aerr != nil {
		return nil, aerr
	}
	owner := OwnerIn(p, parent)
	if c := s.Conflict(parentID, owner, name, nil); c != nil {
		return nil, s.ErrNameInUse(c)
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
		Versions: []*Version{{ID: s.NewID(), Blob: blob, CreatedAt: now, By: p.User}},
		ReadyAt:  s.Now().Add(s.Cfg.ContentNotReady),
	}
	s.AddItem(f)
	s.versionAdded(f, f.Current())
	if parent != nil {
		parent.touch(now, nil)
	}
	s.dirtyItem(f, parent)
	return f, nil
}

// AddVersion makes blob the current version of f, optionally renaming it,
// re-checking the name. Callers hold s.mu.
func (s *State) AddVersion(p *Principal, f *Item, name string, blob blob.Info, modified time.Time) *wire.Error {
	if aerr := s.LockRefuses(p, f, ActUpload); aerr != nil {
		return aerr
	}
	if name != "" && name != f.Name {
		if c := s.Conflict(f.ParentID, f.Owner, name, f); c != nil {
			return s.ErrNameInUse(c)
		}
		f.Name = name
	}
	now := s.NowSec()
	if modified.IsZero() {
		modified = now
	}
	f.Versions = append(f.Versions, &Version{ID: s.NewID(), Blob: blob, CreatedAt: now, By: p.User})
	s.versionAdded(f, f.Current())
	f.ContentModifiedAt = modified
	f.ReadyAt = s.Now().Add(s.Cfg.ContentNotReady)
	f.touch(now, p.User)
	s.dirtyItem(f)
	if parent, ok := s.Items[f.ParentID]; ok {
		parent.touch(now, nil)
		s.dirtyItem(parent)
	}
	s.ItemEvent(evItemUpload, f, p.User)
	return nil
}
