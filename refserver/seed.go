package refserver

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Seed adds demo content: for the admin and the managed user, a few folders
// in their roots with small text files, and a few device pins. It fails if
// the names are taken.
func (s *Server) Seed() error {
	ctx := context.Background()
	for _, p := range []*principal{s.principals[s.cfg.AdminToken], s.principals[s.cfg.UserToken]} {
		docs, err := s.seedFolder(p, rootID, "Documents")
		if err != nil {
			return err
		}
		if _, err := s.seedFolder(p, rootID, "Photos"); err != nil {
			return err
		}
		files := map[string]string{
			"README.txt": fmt.Sprintf("Demo content of %s.\n", p.user.name),
			"notes.md":   "# Notes\n\n- one\n- two\n",
		}
		for name, body := range files {
			if err := s.seedFile(ctx, p, docs.id, name, body); err != nil {
				return err
			}
		}
		if err := s.seedFile(ctx, p, rootID, "welcome.txt", "Welcome to the reference server.\n"); err != nil {
			return err
		}
	}
	return s.AddDevicePins(4)
}

func (s *state) seedFolder(p *principal, parentID, name string) (*item, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, aerr := s.parentFolder(p, parentID)
	if aerr != nil {
		return nil, fmt.Errorf("refserver: seed folder %q: %w", name, aerr)
	}
	if c := s.conflict(parentID, ownerIn(p, parent), name, nil); c != nil {
		return nil, fmt.Errorf("refserver: seed folder %q: name in use", name)
	}
	now := s.nowSec()
	f := &item{
		typ: "folder", id: s.newID(), name: name, parentID: parentID,
		owner: ownerIn(p, parent), createdBy: p.user, modBy: p.user,
		createdAt: now, modifiedAt: now, contentCreatedAt: now, contentModifiedAt: now,
		syncState: "not_synced",
	}
	s.addItem(f)
	s.dirtyItem(f)
	return f, nil
}

func (s *state) seedFile(ctx context.Context, p *principal, parentID, name, body string) error {
	blob, err := s.store.Put(ctx, strings.NewReader(body))
	if err != nil {
		return fmt.Errorf("refserver: seed file %q: %w", name, err)
	}
	s.mu.Lock()
	f, aerr := s.createFile(p, parentID, name, blob, time.Time{}, time.Time{})
	if aerr == nil {
		f.readyAt = time.Time{}
	}
	s.mu.Unlock()
	if aerr != nil {
		_ = s.store.Delete(ctx, blob.ID)
		return fmt.Errorf("refserver: seed file %q: %w", name, aerr)
	}
	return nil
}
