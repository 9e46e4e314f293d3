package state

import (
	"strings"
)

// APIOrigin is the API host's origin: BaseURL without its APIRoot (the
// base of the token and authorize URLs, avatars, the enterprise hostname).
func (s *Env) APIOrigin() string { return strings.TrimSuffix(s.BaseURL, APIRoot) }

// PrincipalForUser is the principal a token of user u acts as.
func (s *Env) PrincipalForUser(u *User) *Principal {
	switch u {
	case s.Admin:
		return &Principal{Kind: "admin", User: s.Admin}
	case s.App:
		// The service account of an authorized app: it manages the
		// enterprise with the admin's permissions (an app with Manage
		// Enterprise), and is a user of its own for content: its own
		// content and what is shared with it; others' only As-User.
		return &Principal{Kind: KindService, User: s.App}
	default:
		return &Principal{Kind: "user", User: u}
	}
}

// ManagedUser returns the managed (or app) user of the enterprise with id,
// not the service account, nor a deleted or rolled-out user (users.go).
// It runs a View of its own: callers may hold the oauth room's lock
// (never the other way round).
func (s *State) ManagedUser(id string) (u *User) {
	s.View(func(tx *ReadTx) {
		if eu := tx.EnterpriseUser(id); eu != nil && eu != s.App {
			u = eu
		}
	})
	return u
}
