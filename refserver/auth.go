package refserver

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// user is an account of the enterprise.
type user struct {
	id, name, login, role string
	createdAt             time.Time
	userProfile           // the rest of the user record (users_record.go)
}

func (u *user) mini() map[string]any {
	return map[string]any{"type": "user", "id": u.id, "name": u.name, "login": u.login}
}

// principal is who a token acts for.
type principal struct {
	kind  string // "admin", "user" or "app"
	token string
	user  *user
	// restrict, when set, limits a downscoped token (see oauth.go).
	restrict *restriction
}

// isAdmin reports whether the principal acts as the enterprise admin (the
// admin, or a service account acting with its permissions).
func (p *principal) isAdmin() bool { return p.kind == "admin" }

// seesAll reports whether the principal may access every item.
func (p *principal) seesAll() bool { return p.isAdmin() || p.kind == "app" }

func (s *state) initPrincipals() error {
	if s.cfg.AdminToken == "" {
		s.cfg.AdminToken = randomHex(20)
	}
	if s.cfg.UserToken == "" {
		s.cfg.UserToken = randomHex(20)
	}
	if s.cfg.AppToken == "" {
		s.cfg.AppToken = randomHex(20)
	}
	if s.cfg.AdminToken == s.cfg.UserToken || s.cfg.AdminToken == s.cfg.AppToken || s.cfg.UserToken == s.cfg.AppToken {
		return errString("refserver: the admin, user and app tokens must differ")
	}
	now := s.now().UTC().Truncate(time.Second)
	s.enterpriseID = "1000001"
	s.admin = &user{id: "2000001", name: "Ada Admin", login: "admin@cms.test", role: "admin", createdAt: now}
	s.user = &user{id: "2000002", name: "Uma User", login: "user@cms.test", role: "user", createdAt: now}
	s.app = &user{id: "2000003", name: "Service Account", login: "automation@cms.test", role: "user", createdAt: now}
	s.principals = map[string]*principal{
		s.cfg.AdminToken: {kind: "admin", token: s.cfg.AdminToken, user: s.admin},
		s.cfg.UserToken:  {kind: "user", token: s.cfg.UserToken, user: s.user},
		s.cfg.AppToken:   {kind: "app", token: s.cfg.AppToken, user: s.app},
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }

// authenticate maps the Authorization header to a principal. A missing or
// unknown token is 401 unauthorized with a WWW-Authenticate challenge
// (RFC 6750); the token itself never appears in the answer.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*principal, *wire.Error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="Service"`)
		return nil, wire.Errorf(http.StatusUnauthorized, wire.CodeUnauthorized, "Unauthorized: no access token was provided")
	}
	scheme, tok, ok := strings.Cut(h, " ")
	tok = strings.TrimSpace(tok)
	if ok && strings.EqualFold(scheme, "Bearer") && tok != "" {
		for t, p := range s.principals {
			if subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
				return s.asUser(r, p)
			}
		}
		// Tokens issued by POST /oauth2/token (oauth.go).
		p, ok, expired := s.lookupIssued(tok)
		if ok {
			return s.asUser(r, p)
		}
		if expired {
			w.Header().Set("WWW-Authenticate", `Bearer realm="Service", error="invalid_token", error_description="The access token provided has expired"`)
			return nil, wire.Errorf(http.StatusUnauthorized, wire.CodeUnauthorized, "Unauthorized: the access token has expired")
		}
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="Service", error="invalid_token", error_description="The access token provided is invalid."`)
	return nil, wire.Errorf(http.StatusUnauthorized, wire.CodeUnauthorized, "Unauthorized: the access token is invalid or expired")
}

// errAppScope answers a call the app token may not make. The code is
// insufficient_scope: it is in the spec's ClientError code enum, the spec
// uses it (403) for "the application does not have the right scope", and
// RFC 6750 names the same error for a token lacking the scope.
func errAppScope(w http.ResponseWriter) *wire.Error {
	w.Header().Set("WWW-Authenticate", `Bearer realm="Service", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token."`)
	return wire.Errorf(http.StatusForbidden, wire.CodeInsufficientScope, "The request requires higher privileges than provided by the access token")
}

// asUser applies the As-User header: an admin (or a service account acting
// with admin permissions) acts as the managed user with that id. Anyone
// else, and an unknown user, gets 403 access_denied_insufficient_permissions.
// A token of a deleted user is 401 unauthorized.
func (s *Server) asUser(r *http.Request, p *principal) (*principal, *wire.Error) {
	if !s.userActive(p.user) {
		return nil, wire.Errorf(http.StatusUnauthorized, wire.CodeUnauthorized, "Unauthorized: the user of this token was deleted")
	}
	id := r.Header.Get("As-User")
	if id == "" {
		return p, nil
	}
	if !p.isAdmin() || p.restrict != nil {
		return nil, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The As-User header requires an admin or a service account with permission to act as users")
	}
	u := s.managedUser(id)
	if u == nil {
		return nil, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The As-User header names no user of the enterprise")
	}
	return s.principalForUser(u), nil
}
