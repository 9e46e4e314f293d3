package refserver

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// templateBody is the body of POST /metadata_templates/schema.
type templateBody struct {
	Scope                  *string              `json:"scope"`
	TemplateKey            *string              `json:"templateKey"`
	DisplayName            *string              `json:"displayName"`
	Hidden                 *bool                `json:"hidden"`
	CopyInstanceOnItemCopy *bool                `json:"copyInstanceOnItemCopy"`
	Fields                 []metadata.FieldBody `json:"fields"`
}

// validTemplateKey applies the spec's pattern ^[a-zA-Z_][-a-zA-Z0-9_]*$ and
// the 64-character limit.
func validTemplateKey(k string) bool {
	if k == "" || len(k) > state.MaxTemplateKeyLen {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

// templateKeyFrom derives a templateKey from a displayName the way the
// service does: camelCase of its ASCII letters and digits where only white
// space starts a new word and every other character drops out (Box's
// metadata guide: "Test Name (with-special_) Characters" →
// "testNameWithspecialCharacters"; "Contract Details 2" →
// "contractDetails2"), a leading digit prefixed with "_", at most 64
// characters. "" when nothing usable is left.
func templateKeyFrom(displayName string) string {
	var b strings.Builder
	upper := false
	for _, r := range displayName {
		if unicode.IsSpace(r) {
			upper = b.Len() > 0
			continue
		}
		isLetter := r < utf8.RuneSelf && unicode.IsLetter(r)
		isDigit := r >= '0' && r <= '9'
		if !isLetter && !isDigit {
			continue // out of the key's alphabet, and no word boundary
		}
		switch {
		case b.Len() == 0 && isDigit:
			b.WriteByte('_')
			b.WriteRune(r)
		case b.Len() == 0:
			b.WriteRune(unicode.ToLower(r))
		case upper:
			b.WriteRune(unicode.ToUpper(r))
		default:
			b.WriteRune(r)
		}
		upper = false
	}
	k := b.String()
	if len(k) > state.MaxTemplateKeyLen {
		k = k[:state.MaxTemplateKeyLen]
	}
	return k
}

// createTemplate serves POST /metadata_templates/schema: 201
// MetadataTemplate. scope must be enterprise (or the full enterprise_<id>);
// global is 403. A templateKey that is taken is 409 conflict (the service
// documents no code for it); a derived key gets a numeric suffix instead.
func (s *Server) createTemplate(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body templateBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Scope == nil || body.DisplayName == nil {
		return wire.BadRequest("Missing required field: scope and displayName are required")
	}
	scope, aerr := metadata.CreationScope(s.st.Env, *body.Scope)
	if aerr != nil {
		return aerr
	}
	if aerr := metadata.CheckDisplayName(*body.DisplayName, "displayName"); aerr != nil {
		return aerr
	}
	t := &state.MDTemplate{Scope: scope, DisplayName: *body.DisplayName}
	if body.Hidden != nil {
		t.Hidden = *body.Hidden
	}
	if body.CopyInstanceOnItemCopy != nil {
		t.CopyOnCopy = *body.CopyInstanceOnItemCopy
	}
	for _, fb := range body.Fields {
		f, aerr := metadata.NewField(fb)
		if aerr != nil {
			return aerr
		}
		if _, dup := t.Field(f.Key); dup != nil {
			return wire.BadRequest("Duplicate field key %q", f.Key)
		}
		t.Fields = append(t.Fields, f)
	}
	derived := body.TemplateKey == nil
	if derived {
		t.Key = templateKeyFrom(*body.DisplayName)
		if t.Key == "" {
			return wire.BadRequest("Cannot derive a templateKey from displayName; send templateKey")
		}
	} else {
		t.Key = *body.TemplateKey
		if !validTemplateKey(t.Key) {
			return wire.BadRequest("Invalid templateKey %q: at most %d characters matching ^[a-zA-Z_][-a-zA-Z0-9_]*$", t.Key, state.MaxTemplateKeyLen)
		}
	}

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.CreateTemplate(tx, t, derived)
	})
}

// getTemplate serves GET /metadata_templates/{scope}/{template_key}/schema.
func (s *Server) getTemplate(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	scope, aerr := s.pathScope(r)
	if aerr != nil {
		return aerr
	}
	templateKey := r.PathValue("template_key")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.GetTemplate(tx, scope, templateKey)
	})
}

// getTemplateByID serves GET /metadata_templates/{template_id}. An unknown
// id is 400 bad_request, as the spec lists ("often returned ... when the
// ID of the template is not recognised").
func (s *Server) getTemplateByID(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	pathValue := r.PathValue("template_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.GetTemplateByID(tx, pathValue)
	})
}

// deleteTemplate serves DELETE /metadata_templates/{scope}/{template_key}/schema:
// 204; the template and all its instances are gone. Global templates
// cannot be deleted (403).
func (s *Server) deleteTemplate(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	scope, aerr := s.pathScope(r)
	if aerr != nil {
		return aerr
	}
	templateKey := r.PathValue("template_key")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.DeleteTemplate(tx, scope, templateKey)
	})
}

// listEnterpriseTemplates serves GET /metadata_templates/enterprise
// (marker paging, limit ≤ 1000, default 100).
func (s *Server) listEnterpriseTemplates(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return s.listTemplates(w, r, s.st.EnterpriseScope())
}

// listGlobalTemplates serves GET /metadata_templates/global.
func (s *Server) listGlobalTemplates(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return s.listTemplates(w, r, state.ScopeGlobal)
}

func (s *Server) listTemplates(w http.ResponseWriter, r *http.Request, scope string) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.ListTemplates(tx, scope, q)
	})
}

// listTemplatesByInstance serves GET /metadata_templates?metadata_instance_id=:
// the one template of that instance, or no entries when the id names no
// instance the caller can see (its item in the trash included). A missing
// or malformed id is 400.
func (s *Server) listTemplatesByInstance(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.URL.Query().Get("metadata_instance_id")
	if !isUUID(id) {
		return wire.BadRequest("metadata_instance_id must be the $id (a UUID) of a metadata instance")
	}
	limit, aerr := wire.PageLimit(r.URL.Query(), wire.DefaultPageLimit, wire.MaxPageLimit)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.ListTemplatesByInstance(tx, id, p, limit)
	})
}
