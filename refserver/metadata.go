package refserver

import (
	"errors"
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// mdRoute is s.route whose handlers may also fail with an *mdError.
func (s *Server) mdRoute(methods map[string]endpoint) http.Handler {
	wrapped := make(map[string]endpoint, len(methods))
	for m, ep := range methods {
		h := ep.h
		ep.h = func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
			err := h(w, r, p)
			var me *metadata.MDError
			if !errors.As(err, &me) {
				return err
			}
			drain(r.Body)
			writeJSON(w, me.Status, map[string]any{
				"code": me.Code, "message": me.Message, "request_id": w.Header().Get(wire.HeaderRequestID),
			})
			return nil
		}
		wrapped[m] = ep
	}
	return s.route(wrapped)
}

// pathScope reads {scope} of a path: the canonical scope, or 400
// bad_request for a value that is no scope (the spec's 400 "scope not
// recognised"). Another enterprise's scope is returned as is: no template
// of this server has it, so lookups answer 404.
func (s *Server) pathScope(r *http.Request) (string, *wire.Error) {
	scope := r.PathValue("scope")
	switch k := s.st.ScopeKind(scope); k {
	case "":
		return "", wire.BadRequest("Invalid scope %q: use global, enterprise or enterprise_<id>", scope)
	case "other":
		return scope, nil
	default:
		return k, nil
	}
}

// isUUID reports whether v has the 8-4-4-4-12 hex shape of a UUID.
func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// requireContentType accepts a body declared as one of types (parameters
// ignored) and, when allowEmpty, a body declared as nothing.
func requireContentType(r *http.Request, allowEmpty bool, types ...string) *wire.Error {
	ct := r.Header.Get("Content-Type")
	if ct == "" && allowEmpty {
		return nil
	}
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.TrimSpace(mt)
	for _, t := range types {
		if strings.EqualFold(mt, t) {
			return nil
		}
	}
	return wire.BadRequest("Content-Type must be %s", strings.Join(types, " or "))
}
