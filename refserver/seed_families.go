package refserver

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
)

// What the API cannot create and the server makes on request: users
// outside the enterprise (Options.ExternalUsers, whom POST /invites
// invites) and file requests (Options.FileRequests, AddFileRequest; the
// service creates them in its web app only).

// seedFamilies makes the external users (on every start: a login a user
// has already is kept) and, on a fresh server, the file requests of
// Options; it commits them before the server answers.
func (s *Server) seedFamilies() error {
	for _, login := range s.opts.ExternalUsers {
		if a, err := mail.ParseAddress(login); err != nil || a.Address != login {
			return fmt.Errorf("refserver: external user %q is not an e-mail address", login)
		}
	}
	var inside string
	s.st.Update(func(tx *state.Tx) {
		for _, login := range s.opts.ExternalUsers {
			if u := tx.AddExternalUser(login); !u.Free {
				inside = login
			}
		}
	})
	if inside != "" {
		return fmt.Errorf("refserver: external user %q is a user of the enterprise", inside)
	}
	if !s.restored && s.opts.FileRequests > 0 {
		for i := range s.opts.FileRequests {
			f, err := s.st.SeedFolder(s.userPrincipal(), state.RootID, fmt.Sprintf("File request %d", i+1))
			if err != nil {
				return err
			}
			if _, err := s.AddFileRequest(f.ID); err != nil {
				return err
			}
		}
	}
	return s.flushState()
}

// userPrincipal is the principal of the managed user's token.
func (s *Server) userPrincipal() (p *state.Principal) {
	s.st.View(func(tx *state.ReadTx) { p = tx.Principals[s.st.Cfg.UserToken] })
	return p
}

// AddFileRequest makes an active file request on folder folderID, created
// by the folder's owner, as the web app does (title "Upload files to
// <folder name>"), and returns its id. The API has no call that creates
// one; Options.FileRequests seeds some at start.
func (s *Server) AddFileRequest(folderID string) (string, error) {
	var fr *state.FileRequest
	s.st.Update(func(tx *state.Tx) {
		if f := tx.Items.At("folder", folderID); f != nil && f.Typ == "folder" && !f.Trashed() {
			fr = tx.SeedFileRequest(f, f.Owner)
		}
	})
	if fr == nil {
		return "", fmt.Errorf("refserver: no folder %q to make a file request on", folderID)
	}
	return fr.ID, s.flushState()
}

// FileRequestIDs lists the ids of the server's file requests, in id order
// (the startup line of cmd/refserver lists them).
func (s *Server) FileRequestIDs() (ids []string) {
	s.st.View(func(tx *state.ReadTx) { ids = tx.FileRequestIDs() })
	return ids
}

// ExternalUsers maps the login of each user of Options.ExternalUsers to
// the user's id (the startup line of cmd/refserver lists them).
func (s *Server) ExternalUsers() map[string]string {
	out := make(map[string]string, len(s.opts.ExternalUsers))
	s.st.View(func(tx *state.ReadTx) {
		for _, login := range s.opts.ExternalUsers {
			if u := tx.Users.ByLogin[strings.ToLower(login)]; u != nil {
				out[login] = u.ID
			}
		}
	})
	return out
}

// lowerAll is ss in lower case.
func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, v := range ss {
		out[i] = strings.ToLower(v)
	}
	return out
}
