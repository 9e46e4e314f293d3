package state

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// SeedFolder makes folder name in parentID for p (refserver's Seed),
// in a transaction of its own; it fails when the name is taken.
func (s *State) SeedFolder(p *Principal, parentID, name string) (f *Item, err error) {
	s.Update(func(tx *Tx) { f, err = tx.seedFolder(p, parentID, name) })
	return f, err
}

func (s *Tx) seedFolder(p *Principal, parentID, name string) (*Item, error) {
	parent, aerr := s.ParentFolder(p, parentID)
	if aerr != nil {
		return nil, fmt.Errorf("refserver: seed folder %q: %w", name, aerr)
	}
	if c := s.Conflict(parentID, OwnerIn(p, parent), name, nil); c != nil {
		return nil, fmt.Errorf("refserver: seed folder %q: name in use", name)
	}
	now := s.NowSec()
	f := &Item{
		Typ: "folder", ID: s.NewFolderID(), Name: name, ParentID: parentID,
		Owner: OwnerIn(p, parent), CreatedBy: p.User, ModBy: p.User,
		CreatedAt: now, ModifiedAt: now, ContentCreatedAt: now, ContentModifiedAt: now,
	}
	f.SetSyncState("not_synced")
	s.AddItem(f)
	return f, nil
}

// SeedFile stores body and makes file name of it in parentID for p,
// downloadable at once (refserver's Seed), in a transaction of its own;
// it deletes the blob again when the file cannot be made.
func (s *State) SeedFile(ctx context.Context, p *Principal, parentID, name, body string) error {
	blob, err := s.Store.Put(ctx, strings.NewReader(body))
	if err != nil {
		return fmt.Errorf("refserver: seed file %q: %w", name, err)
	}
	var aerr *wire.Error
	s.Update(func(tx *Tx) {
		var f *Item
		if f, aerr = tx.CreateFile(p, parentID, name, blob, time.Time{}, time.Time{}); aerr == nil {
			f.SetReadyAt(time.Time{})
		}
	})
	if aerr != nil {
		if err := s.Store.Delete(ctx, blob.ID); err != nil {
			s.ContentLeft("deleting blob", err, "blob", blob.ID)
		}
		return fmt.Errorf("refserver: seed file %q: %w", name, aerr)
	}
	return nil
}
