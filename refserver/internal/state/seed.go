package state

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// SeedFolder makes folder name in parentID for p (refserver's Seed),
// taking Mu itself; it fails when the name is taken.
func (s *State) SeedFolder(p *Principal, parentID, name string) (*Item, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	parent, aerr := s.ParentFolder(p, parentID)
	if aerr != nil {
		return nil, fmt.Errorf("refserver: seed folder %q: %w", name, aerr)
	}
	if c := s.Conflict(parentID, OwnerIn(p, parent), name, nil); c != nil {
		return nil, fmt.Errorf("refserver: seed folder %q: name in use", name)
	}
	now := s.NowSec()
	f := &Item{
		Typ: "folder", ID: s.NewID(), Name: name, ParentID: parentID,
		Owner: OwnerIn(p, parent), CreatedBy: p.User, ModBy: p.User,
		CreatedAt: now, ModifiedAt: now, ContentCreatedAt: now, ContentModifiedAt: now,
		SyncState: "not_synced",
	}
	s.AddItem(f)
	s.dirtyItem(f)
	return f, nil
}

// SeedFile stores body and makes file name of it in parentID for p,
// downloadable at once (refserver's Seed); it takes Mu itself, and
// deletes the blob again when the file cannot be made.
func (s *State) SeedFile(ctx context.Context, p *Principal, parentID, name, body string) error {
	blob, err := s.Store.Put(ctx, strings.NewReader(body))
	if err != nil {
		return fmt.Errorf("refserver: seed file %q: %w", name, err)
	}
	s.Mu.Lock()
	f, aerr := s.CreateFile(p, parentID, name, blob, time.Time{}, time.Time{})
	if aerr == nil {
		f.ReadyAt = time.Time{}
	}
	s.Mu.Unlock()
	if aerr != nil {
		_ = s.Store.Delete(ctx, blob.ID)
		return fmt.Errorf("refserver: seed file %q: %w", name, aerr)
	}
	return nil
}
