package refserver

import (
	"context"
	"fmt"

	"github.com/contentapi/cms/refserver/internal/state"
)

// Seed adds demo content: for the admin and the managed user, a few folders
// in their roots with small text files, and a few device pins. It fails if
// the names are taken.
func (s *Server) Seed() error {
	ctx := context.Background()
	var seeded []*state.Principal
	s.st.View(func(tx *state.ReadTx) {
		seeded = []*state.Principal{tx.Principals[s.st.Cfg.AdminToken], tx.Principals[s.st.Cfg.UserToken]}
	})
	for _, p := range seeded {
		docs, err := s.st.SeedFolder(p, state.RootID, "Documents")
		if err != nil {
			return err
		}
		if _, err := s.st.SeedFolder(p, state.RootID, "Photos"); err != nil {
			return err
		}
		files := map[string]string{
			"README.txt": fmt.Sprintf("Demo content of %s.\n", p.User.Name),
			"notes.md":   "# Notes\n\n- one\n- two\n",
		}
		for name, body := range files {
			if err := s.st.SeedFile(ctx, p, docs.ID, name, body); err != nil {
				return err
			}
		}
		if err := s.st.SeedFile(ctx, p, state.RootID, "welcome.txt", "Welcome to the reference server.\n"); err != nil {
			return err
		}
	}
	return s.AddDevicePins(4)
}
