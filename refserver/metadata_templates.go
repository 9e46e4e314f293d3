package refserver

import (
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// mdTemplate is a metadata template. Fields are guarded by Server.mu.
type mdTemplate struct {
	id, scope, key, displayName string
	hidden, copyOnCopy          bool
	fields                      []*mdField
	typeID                      string // $type of its instances: <templateKey>-<uuid>
	version                     int    // $typeVersion: grows with each schema update

	instances map[string]*mdInstance // by item id
	bySeq     []*mdInstance          // creation order (the default query order)
	sorted    map[string]*sortIndex  // query sort indexes by field key, built on demand
}

// mdField is a field of a template.
type mdField struct {
	id, typ, key, displayName, description string
	hidden                                 bool
	options                                []*mdOption // enum and multiSelect
}

// mdOption is an option of an enum or multiSelect field.
type mdOption struct{ id, key string }

// Field types. integer (deprecated) and taxonomy are decoded and validated
// but cannot be created (spec: "integer ... cannot be used in the POST
// request"; taxonomies need the taxonomy API, which this server lacks).
const (
	fieldString      = "string"
	fieldFloat       = "float"
	fieldDate        = "date"
	fieldEnum        = "enum"
	fieldMultiSelect = "multiSelect"
	fieldInteger     = "integer"
	fieldTaxonomy    = "taxonomy"
)

// kindOfValue is the kind of value (mdVal.kind) the field holds.
func (f *mdField) kindOfValue() byte {
	switch f.typ {
	case fieldFloat, fieldInteger:
		return valNumber
	case fieldDate:
		return valDate
	case fieldMultiSelect, fieldTaxonomy:
		return valList
	}
	return valString
}

func (f *mdField) hasOptions() bool { return f.typ == fieldEnum || f.typ == fieldMultiSelect }

func (f *mdField) option(key string) (int, *mdOption) {
	for i, o := range f.options {
		if o.key == key {
			return i, o
		}
	}
	return -1, nil
}

func (t *mdTemplate) field(key string) (int, *mdField) {
	for i, f := range t.fields {
		if f.key == key {
			return i, f
		}
	}
	return -1, nil
}

// freeForm reports whether the template takes any key (global.properties).
func (t *mdTemplate) freeForm() bool { return t.scope == scopeGlobal && t.key == globalPropertiesKey }

// record is the MetadataTemplate record.
func (t *mdTemplate) record() map[string]any {
	fields := make([]any, 0, len(t.fields))
	for _, f := range t.fields {
		m := map[string]any{"id": f.id, "type": f.typ, "key": f.key, "displayName": f.displayName, "hidden": f.hidden}
		if f.description != "" {
			m["description"] = f.description
		}
		if f.hasOptions() {
			opts := make([]any, 0, len(f.options))
			for _, o := range f.options {
				opts = append(opts, map[string]any{"id": o.id, "key": o.key})
			}
			m["options"] = opts
		}
		fields = append(fields, m)
	}
	return map[string]any{
		"id": t.id, "type": "metadata_template", "scope": t.scope, "templateKey": t.key,
		"displayName": t.displayName, "hidden": t.hidden, "fields": fields,
		"copyInstanceOnItemCopy": t.copyOnCopy,
	}
}

// addTemplate registers a new template (ids are assigned here). Callers
// hold s.mu (or run before the server answers).
func (s *state) addTemplate(t *mdTemplate) {
	t.id = newUUID()
	t.typeID = t.key + "-" + newUUID()
	t.instances = make(map[string]*mdInstance)
	s.metadata.templates[t.scope+"."+t.key] = t
	s.metadata.byID[t.id] = t
	s.metadata.order = append(s.metadata.order, t)
	s.dirty(kTemplates, t.id)
	s.dirty(kMetadata, metadataKey)
}

// templateBody is the body of POST /metadata_templates/schema.
type templateBody struct {
	Scope                  *string     `json:"scope"`
	TemplateKey            *string     `json:"templateKey"`
	DisplayName            *string     `json:"displayName"`
	Hidden                 *bool       `json:"hidden"`
	CopyInstanceOnItemCopy *bool       `json:"copyInstanceOnItemCopy"`
	Fields                 []fieldBody `json:"fields"`
}

// fieldBody is a field of a create body or of addField data. The taxonomy
// properties are decoded so that a taxonomy field is refused for what it
// is rather than for an unknown member.
type fieldBody struct {
	Type         *string      `json:"type"`
	Key          *string      `json:"key"`
	DisplayName  *string      `json:"displayName"`
	Description  *string      `json:"description"`
	Hidden       *bool        `json:"hidden"`
	Options      []optionBody `json:"options"`
	TaxonomyKey  *string      `json:"taxonomyKey"`
	TaxonomyID   *string      `json:"taxonomyId"`
	Namespace    *string      `json:"namespace"`
	OptionsRules any          `json:"optionsRules"`
}

// optionBody is an option of a field body, or the data of the option ops.
type optionBody struct {
	Key *string `json:"key"`
}

// newField checks a field body and builds the field. Field rules: type one
// of the creatable types, key 1..256 characters, displayName 1..4096,
// options (unique, non-empty keys) only on enum and multiSelect.
func newField(b fieldBody) (*mdField, *wire.Error) {
	if b.Type == nil || b.Key == nil || b.DisplayName == nil {
		return nil, wire.BadRequest("A field needs type, key and displayName")
	}
	switch *b.Type {
	case fieldString, fieldFloat, fieldDate, fieldEnum, fieldMultiSelect:
	case fieldInteger, fieldTaxonomy:
		return nil, wire.BadRequest("Fields of type %s cannot be created", *b.Type)
	default:
		return nil, wire.BadRequest("Invalid field type %q", *b.Type)
	}
	if aerr := checkFieldKey(*b.Key); aerr != nil {
		return nil, aerr
	}
	if aerr := checkDisplayName(*b.DisplayName, "field displayName"); aerr != nil {
		return nil, aerr
	}
	if b.TaxonomyKey != nil || b.TaxonomyID != nil || b.Namespace != nil || b.OptionsRules != nil {
		return nil, wire.BadRequest("Taxonomy properties are only valid on taxonomy fields")
	}
	f := &mdField{id: newUUID(), typ: *b.Type, key: *b.Key, displayName: *b.DisplayName}
	if b.Description != nil {
		if len(*b.Description) > maxDisplayNameLen {
			return nil, wire.BadRequest("Field description is longer than %d characters", maxDisplayNameLen)
		}
		f.description = *b.Description
	}
	if b.Hidden != nil {
		f.hidden = *b.Hidden
	}
	if b.Options != nil && !f.hasOptions() {
		return nil, wire.BadRequest("Options are only valid on enum and multiSelect fields")
	}
	for _, o := range b.Options {
		if o.Key == nil {
			return nil, wire.BadRequest("An option needs a key")
		}
		if aerr := f.addOption(*o.Key); aerr != nil {
			return nil, aerr
		}
	}
	return f, nil
}

func (f *mdField) addOption(key string) *wire.Error {
	if aerr := checkOptionKey(key); aerr != nil {
		return aerr
	}
	if _, o := f.option(key); o != nil {
		return wire.BadRequest("Option %q already exists on field %q", key, f.key)
	}
	f.options = append(f.options, &mdOption{id: newUUID(), key: key})
	return nil
}

func checkFieldKey(key string) *wire.Error {
	if key == "" || utf8.RuneCountInString(key) > maxFieldKeyLen || strings.HasPrefix(key, "$") || !utf8.ValidString(key) {
		return wire.BadRequest("Invalid field key %q: 1 to %d characters, not starting with $", key, maxFieldKeyLen)
	}
	return nil
}

func checkOptionKey(key string) *wire.Error {
	if strings.TrimSpace(key) == "" || !utf8.ValidString(key) {
		return wire.BadRequest("Invalid option key %q", key)
	}
	return nil
}

func checkDisplayName(v, what string) *wire.Error {
	if strings.TrimSpace(v) == "" || utf8.RuneCountInString(v) > maxDisplayNameLen {
		return wire.BadRequest("Invalid %s: 1 to %d characters", what, maxDisplayNameLen)
	}
	return nil
}

// validTemplateKey applies the spec's pattern ^[a-zA-Z_][-a-zA-Z0-9_]*$ and
// the 64-character limit.
func validTemplateKey(k string) bool {
	if k == "" || len(k) > maxTemplateKeyLen {
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
	if len(k) > maxTemplateKeyLen {
		k = k[:maxTemplateKeyLen]
	}
	return k
}

// createTemplate serves POST /metadata_templates/schema: 201
// MetadataTemplate. scope must be enterprise (or the full enterprise_<id>);
// global is 403. A templateKey that is taken is 409 conflict (the service
// documents no code for it); a derived key gets a numeric suffix instead.
func (s *Server) createTemplate(w http.ResponseWriter, r *http.Request, p *principal) error {
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
	switch s.scopeKind(*body.Scope) {
	case scopeGlobal:
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Templates cannot be created in the global scope")
	case s.enterpriseScope():
	default:
		return wire.BadRequest("Invalid scope %q: templates are created in the enterprise scope", *body.Scope)
	}
	if aerr := checkDisplayName(*body.DisplayName, "displayName"); aerr != nil {
		return aerr
	}
	t := &mdTemplate{scope: s.enterpriseScope(), displayName: *body.DisplayName}
	if body.Hidden != nil {
		t.hidden = *body.Hidden
	}
	if body.CopyInstanceOnItemCopy != nil {
		t.copyOnCopy = *body.CopyInstanceOnItemCopy
	}
	for _, fb := range body.Fields {
		f, aerr := newField(fb)
		if aerr != nil {
			return aerr
		}
		if _, dup := t.field(f.key); dup != nil {
			return wire.BadRequest("Duplicate field key %q", f.key)
		}
		t.fields = append(t.fields, f)
	}
	derived := body.TemplateKey == nil
	if derived {
		t.key = templateKeyFrom(*body.DisplayName)
		if t.key == "" {
			return wire.BadRequest("Cannot derive a templateKey from displayName; send templateKey")
		}
	} else {
		t.key = *body.TemplateKey
		if !validTemplateKey(t.key) {
			return wire.BadRequest("Invalid templateKey %q: at most %d characters matching ^[a-zA-Z_][-a-zA-Z0-9_]*$", t.key, maxTemplateKeyLen)
		}
	}

	return s.change(w, func() (reply, *wire.Error) {
		return s.createTemplateTx(t, derived)
	})
}

// createTemplateTx is the transaction of POST /metadata_templates/schema
// (createTemplate): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) createTemplateTx(t *mdTemplate, derived bool) (reply, *wire.Error) {
	if s.template(t.scope, t.key) != nil {
		if !derived {
			return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "A template with templateKey %q already exists", t.key)
		}
		base := t.key
		for n := 1; s.template(t.scope, t.key) != nil; n++ {
			suffix := strconv.Itoa(n)
			t.key = base[:min(len(base), maxTemplateKeyLen-len(suffix))] + suffix
		}
	}
	s.addTemplate(t)
	return reply{http.StatusCreated, t.record()}, nil
}

// templateOf resolves {scope}/{template_key} of a template path: 400 for
// no scope, 404 not_found for no such template.
func (s *state) templateOf(scope, key string) (*mdTemplate, *wire.Error) {
	t := s.template(scope, key)
	if t == nil {
		return nil, wire.NotFound("metadata template")
	}
	return t, nil
}

// getTemplate serves GET /metadata_templates/{scope}/{template_key}/schema.
func (s *Server) getTemplate(w http.ResponseWriter, r *http.Request, p *principal) error {
	scope, aerr := s.pathScope(r)
	if aerr != nil {
		return aerr
	}
	templateKey := r.PathValue("template_key")
	return s.change(w, func() (reply, *wire.Error) {
		return s.getTemplateTx(scope, templateKey)
	})
}

// getTemplateTx is the transaction of GET
// /metadata_templates/{scope}/{template_key}/schema. (getTemplate): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) getTemplateTx(scope string, templateKey string) (reply, *wire.Error) {
	t, aerr := s.templateOf(scope, templateKey)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusOK, t.record()}, nil
}

// getTemplateByID serves GET /metadata_templates/{template_id}. An unknown
// id is 400 bad_request, as the spec lists ("often returned ... when the
// ID of the template is not recognised").
func (s *Server) getTemplateByID(w http.ResponseWriter, r *http.Request, p *principal) error {
	pathValue := r.PathValue("template_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.getTemplateByIDTx(pathValue)
	})
}

// getTemplateByIDTx is the transaction of GET
// /metadata_templates/{template_id}. (getTemplateByID): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) getTemplateByIDTx(pathValue string) (reply, *wire.Error) {
	t := s.metadata.byID[pathValue]
	if t == nil {
		return reply{}, wire.BadRequest("Template id not recognised")
	}
	return reply{http.StatusOK, t.record()}, nil
}

// deleteTemplate serves DELETE /metadata_templates/{scope}/{template_key}/schema:
// 204; the template and all its instances are gone. Global templates
// cannot be deleted (403).
func (s *Server) deleteTemplate(w http.ResponseWriter, r *http.Request, p *principal) error {
	scope, aerr := s.pathScope(r)
	if aerr != nil {
		return aerr
	}
	templateKey := r.PathValue("template_key")
	return s.change(w, func() (reply, *wire.Error) {
		return s.deleteTemplateTx(scope, templateKey)
	})
}

// deleteTemplateTx is the transaction of DELETE
// /metadata_templates/{scope}/{template_key}/schema (deleteTemplate): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) deleteTemplateTx(scope string, templateKey string) (reply, *wire.Error) {
	t, aerr := s.templateOf(scope, templateKey)
	if aerr != nil {
		return reply{}, aerr
	}
	if t.scope == scopeGlobal {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Global templates cannot be deleted")
	}
	for _, in := range append([]*mdInstance(nil), t.bySeq...) {
		s.removeInstance(in)
	}
	delete(s.metadata.templates, t.scope+"."+t.key)
	delete(s.metadata.byID, t.id)
	s.metadata.order = wire.RemoveFrom(s.metadata.order, t)
	s.dirty(kTemplates, t.id)
	s.dirty(kMetadata, metadataKey)
	return reply{status: http.StatusNoContent}, nil
}

// listEnterpriseTemplates serves GET /metadata_templates/enterprise
// (marker paging, limit ≤ 1000, default 100).
func (s *Server) listEnterpriseTemplates(w http.ResponseWriter, r *http.Request, p *principal) error {
	return s.listTemplates(w, r, s.enterpriseScope())
}

// listGlobalTemplates serves GET /metadata_templates/global.
func (s *Server) listGlobalTemplates(w http.ResponseWriter, r *http.Request, p *principal) error {
	return s.listTemplates(w, r, scopeGlobal)
}

func (s *Server) listTemplates(w http.ResponseWriter, r *http.Request, scope string) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.listTemplatesTx(scope, q)
	})
}

// listTemplatesTx is the transaction of listTemplates (listTemplates): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) listTemplatesTx(scope string, q wire.Page) (reply, *wire.Error) {
	var all []*mdTemplate
	for _, t := range s.metadata.order {
		if t.scope == scope {
			all = append(all, t)
		}
	}
	return reply{http.StatusOK, wire.PositionEntries(all, q, (*mdTemplate).record)}, nil
}

// listTemplatesByInstance serves GET /metadata_templates?metadata_instance_id=:
// the one template of that instance, or no entries when the id names no
// instance the caller can see (its item in the trash included). A missing
// or malformed id is 400.
func (s *Server) listTemplatesByInstance(w http.ResponseWriter, r *http.Request, p *principal) error {
	id := r.URL.Query().Get("metadata_instance_id")
	if !isUUID(id) {
		return wire.BadRequest("metadata_instance_id must be the $id (a UUID) of a metadata instance")
	}
	limit, aerr := wire.PageLimit(r.URL.Query(), wire.DefaultPageLimit, wire.MaxPageLimit)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.listTemplatesByInstanceTx(id, p, limit)
	})
}

// listTemplatesByInstanceTx is the transaction of GET
// /metadata_templates?metadata_instance_id= (listTemplatesByInstance): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) listTemplatesByInstanceTx(id string, p *principal, limit int64) (reply, *wire.Error) {
	var found []*mdTemplate
	if in := s.metadata.byInstID[strings.ToLower(id)]; in != nil && s.live(p, in.item) {
		found = append(found, in.tmpl)
	}
	return reply{http.StatusOK, wire.PositionEntries(found, wire.Page{Limit: limit}, (*mdTemplate).record)}, nil
}
