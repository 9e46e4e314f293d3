package state

import (
	"sync/atomic"
	"time"
)

// User is an account of the enterprise.
type User struct {
	ID, Name, Login, Role string
	CreatedAt             time.Time
	UserProfile           // the rest of the user record (users_record.go)

	// deleted: DELETE /users/{id}, after which its tokens stop working.
	// Authentication reads it on every request without the state's lock
	// (UserActive), so that it does not queue for the lock twice.
	deleted atomic.Bool
}

// Deleted reports whether the user was deleted (DELETE /users/{id}).
func (u *User) Deleted() bool { return u.deleted.Load() }

// SetDeleted marks the user deleted.
func (u *User) SetDeleted() { u.deleted.Store(true) }

// Mini is the user's mini record (type, id, name, login), as other
// records embed it.
func (u *User) Mini() map[string]any {
	return map[string]any{"type": "user", "id": u.ID, "name": u.Name, "login": u.Login}
}

// Principal is who a token acts for.
type Principal struct {
	Kind  string // "admin", "service", "user" or "app"
	Token string
	User  *User
	// Restrict, when set, limits a downscoped token (oauth_downscope.go).
	Restrict *Restriction
}

// IsAdmin reports whether the principal acts as the enterprise admin (the
// admin, or a service account acting with its permissions: users, groups,
// governance, As-User).
func (p *Principal) IsAdmin() bool { return p.Kind == "admin" || p.Kind == KindService }

// KindService is the Kind of the service account's principal: an admin of
// the enterprise's users and policies, but for content a user of its own
// (access.go).
const KindService = "service"

// SeesAll reports whether the principal may access every item: the admin
// and the app token, not the service account.
func (p *Principal) SeesAll() bool { return p.Kind == "admin" || p.Kind == "app" }

// InitPrincipals makes the enterprise, its admin, user and service
// account, and the principals of their tokens; tokens Cfg leaves empty are
// made random. Distinct tokens are required. Called once by refserver's
// newServer, before the state is restored.
func (s *Tx) InitPrincipals() error {
	if s.Cfg.AdminToken == "" {
		s.Cfg.AdminToken = RandomHex(20)
	}
	if s.Cfg.UserToken == "" {
		s.Cfg.UserToken = RandomHex(20)
	}
	if s.Cfg.AppToken == "" {
		s.Cfg.AppToken = RandomHex(20)
	}
	if s.Cfg.AdminToken == s.Cfg.UserToken || s.Cfg.AdminToken == s.Cfg.AppToken || s.Cfg.UserToken == s.Cfg.AppToken {
		return ErrString("refserver: the admin, user and app tokens must differ")
	}
	now := s.Now().UTC().Truncate(time.Second)
	s.EnterpriseID = "1000001"
	s.Admin = &User{ID: "2000001", Name: "Ada Admin", Login: "admin@cms.test", Role: "admin", CreatedAt: now}
	s.User = &User{ID: "2000002", Name: "Uma User", Login: "user@cms.test", Role: "user", CreatedAt: now}
	s.App = &User{ID: "2000003", Name: "Service Account", Login: "automation@cms.test", Role: "user", CreatedAt: now}
	s.Principals = map[string]*Principal{
		s.Cfg.AdminToken: {Kind: "admin", Token: s.Cfg.AdminToken, User: s.Admin},
		s.Cfg.UserToken:  {Kind: "user", Token: s.Cfg.UserToken, User: s.User},
		s.Cfg.AppToken:   {Kind: "app", Token: s.Cfg.AppToken, User: s.App},
	}
	return nil
}

// ErrString is an error that is only its text: a state that cannot be
// made or restored (a bad option, a record that names a missing item).
type ErrString string

// Error returns the text.
func (e ErrString) Error() string { return string(e) }
