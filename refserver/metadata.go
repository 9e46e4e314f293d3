package refserver

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Metadata: templates (metadata_templates.go, metadata_schema.go),
// instances on files and folders (metadata_instances.go,
// metadata_values.go) and the metadata query engine (metadata_query*.go).
// This file holds the state, the routes, the scopes and the error shape
// they share. docs/metadata.md ("The reference server") summarises the
// rules and lists the error codes chosen where the service documents none;
// each handler's comment has the details.

// Metadata error codes. The spec names all of these for the metadata
// endpoints (the metadata guides of the service).
const (
	codeSchemaValidationFailed = "schema_validation_failed"
	codeTupleAlreadyExists     = "tuple_already_exists"
	codeInstanceNotFound       = "instance_not_found"
	codeInstanceTupleNotFound  = "instance_tuple_not_found"
	codeFailedJSONPatch        = "failed_json_patch_application"
	codeInvalidQuery           = "invalid_query"
	codeUnexpectedJSONType     = "unexpected_json_type"
)

const (
	scopeGlobal          = "global"
	maxInstancesPerItem  = 100
	maxTemplateKeyLen    = 64
	maxFieldKeyLen       = 256
	maxDisplayNameLen    = 4096
	globalPropertiesKey  = "properties"
	contentTypeJSONPatch = "application/json-patch+json"
)

// metadataState is the server's state for metadata templates, instances
// and queries, guarded by Server.mu.
type metadataState struct {
	templates map[string]*mdTemplate   // by scope + "." + templateKey
	byID      map[string]*mdTemplate   // by template id
	order     []*mdTemplate            // every template, oldest first (listings)
	byItem    map[string][]*mdInstance // instances of an item (file or folder id), oldest first
	byInstID  map[string]*mdInstance   // by $id
	seq       int64                    // creation counter of templates and instances
}

// initMetadata prepares the state of metadata templates, instances and
// queries: the global "properties" template (free-form string values)
// exists from the start. Called once by newServer.
func (s *state) initMetadata() {
	s.metadata = metadataState{
		templates: make(map[string]*mdTemplate),
		byID:      make(map[string]*mdTemplate),
		byItem:    make(map[string][]*mdInstance),
		byInstID:  make(map[string]*mdInstance),
	}
	s.addTemplate(&mdTemplate{scope: scopeGlobal, key: globalPropertiesKey, displayName: "Properties"})
}

// metadataItemPurged drops the metadata instances of an item deleted for
// good. Callers hold s.mu.
func (s *state) metadataItemPurged(it *item) {
	for _, in := range append([]*mdInstance(nil), s.metadata.byItem[it.id]...) {
		s.removeInstance(in)
	}
}

// mdError is a failure of the metadata service answered with the
// MetadataError body {code, message, request_id}: no type, no status, no
// help_url (spec schema MetadataError; the live service answers instance
// errors in this shape, box/box-openapi#393). Failures outside the metadata
// service (authentication, an unknown file or folder) keep the standard
// ClientError body.
type mdError struct {
	status        int
	code, message string
}

func (e *mdError) Error() string { return fmt.Sprintf("%d %s: %s", e.status, e.code, e.message) }

func mdErrf(status int, code, format string, args ...any) *mdError {
	return &mdError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

// mdRoute is s.route whose handlers may also fail with an *mdError.
func (s *Server) mdRoute(methods map[string]endpoint) http.Handler {
	wrapped := make(map[string]endpoint, len(methods))
	for m, ep := range methods {
		h := ep.h
		ep.h = func(w http.ResponseWriter, r *http.Request, p *principal) error {
			err := h(w, r, p)
			var me *mdError
			if !errors.As(err, &me) {
				return err
			}
			drain(r.Body)
			writeJSON(w, me.status, map[string]any{
				"code": me.code, "message": me.message, "request_id": w.Header().Get(wire.HeaderRequestID),
			})
			return nil
		}
		wrapped[m] = ep
	}
	return s.route(wrapped)
}

// enterpriseScope is the full scope of this server's enterprise templates.
func (s *state) enterpriseScope() string { return "enterprise_" + s.enterpriseID }

// scopeKind classifies a scope of a path: "global", the full enterprise
// scope for "enterprise" and "enterprise_<this id>", "other" for another
// enterprise's scope (whose templates this server does not hold), or ""
// for something that is no scope at all.
func (s *state) scopeKind(scope string) string {
	switch {
	case scope == scopeGlobal:
		return scopeGlobal
	case scope == "enterprise" || scope == s.enterpriseScope():
		return s.enterpriseScope()
	case strings.HasPrefix(scope, "enterprise_") && validID(strings.TrimPrefix(scope, "enterprise_")):
		return "other"
	}
	return ""
}

// pathScope reads {scope} of a path: the canonical scope, or 400
// bad_request for a value that is no scope (the spec's 400 "scope not
// recognised"). Another enterprise's scope is returned as is: no template
// of this server has it, so lookups answer 404.
func (s *Server) pathScope(r *http.Request) (string, *wire.Error) {
	scope := r.PathValue("scope")
	switch k := s.scopeKind(scope); k {
	case "":
		return "", wire.BadRequest("Invalid scope %q: use global, enterprise or enterprise_<id>", scope)
	case "other":
		return scope, nil
	default:
		return k, nil
	}
}

// template returns the template of a canonical scope and key, or nil.
func (s *state) template(scope, key string) *mdTemplate {
	return s.metadata.templates[scope+"."+key]
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	b := randomBytes(16)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
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
