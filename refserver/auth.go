package refserver

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// authenticate maps the Authorization header, or where the service accepts
// one the access_token query parameter (queryToken), to a principal. A
// missing or unknown token is 401 unauthorized with a WWW-Authenticate
// challenge (RFC 6750); the token itself never appears in the answer.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*state.Principal, *wire.Error) {
	h := r.Header.Get("Authorization")
	if tok, ok := queryToken(r); ok && h == "" {
		h = "Bearer " + tok
	}
	if h == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="Service"`)
		return nil, wire.Errorf(http.StatusUnauthorized, wire.CodeUnauthorized, "Unauthorized: no access token was provided")
	}
	scheme, tok, ok := strings.Cut(h, " ")
	tok = strings.TrimSpace(tok)
	if ok && strings.EqualFold(scheme, "Bearer") && tok != "" {
		var found *state.Principal
		s.st.View(func(tx *state.ReadTx) {
			for t, p := range tx.Principals {
				if subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
					found = p
				}
			}
		})
		if found != nil {
			return s.asUser(r, found)
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
func (s *Server) asUser(r *http.Request, p *state.Principal) (*state.Principal, *wire.Error) {
	var active bool
	s.st.View(func(tx *state.ReadTx) { active = tx.UserActive(p.User) })
	if !active {
		return nil, wire.Errorf(http.StatusUnauthorized, wire.CodeUnauthorized, "Unauthorized: the user of this token was deleted")
	}
	id := r.Header.Get("As-User")
	if id == "" {
		return p, nil
	}
	if !p.IsAdmin() || p.Restrict != nil {
		return nil, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The As-User header requires an admin or a service account with permission to act as users")
	}
	u := s.st.ManagedUser(id)
	if u == nil {
		return nil, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The As-User header names no user of the enterprise")
	}
	return s.st.PrincipalForUser(u), nil
}
