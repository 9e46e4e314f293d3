package state

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// MDTemplate is a metadata template. Fields are guarded by Server.mu.
type MDTemplate struct {
	ID, Scope, Key, DisplayName string
	Hidden, CopyOnCopy          bool
	Fields                      []*MDField
	TypeID                      string // $type of its instances: <templateKey>-<uuid>
	Version                     int    // $typeVersion: grows with each schema update

	Instances map[string]*MDInstance // by item id
	BySeq     []*MDInstance          // creation order (the default query order)
	Sorted    map[string]*sortIndex  // query sort indexes by field key, built on demand
}

// mdField is a field of a template.
type MDField struct {
	ID, Typ, Key, DisplayName, Description string
	Hidden                                 bool
	Options                                []*MDOption // enum and multiSelect
}

// mdOption is an option of an enum or multiSelect field.
type MDOption struct{ ID, Key string }

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
func (f *MDField) kindOfValue() byte {
	switch f.Typ {
	case fieldFloat, fieldInteger:
		return ValNumber
	case fieldDate:
		return valDate
	case fieldMultiSelect, fieldTaxonomy:
		return valList
	}
	return valString
}

func (f *MDField) HasOptions() bool { return f.Typ == fieldEnum || f.Typ == fieldMultiSelect }

func (f *MDField) option(key string) (int, *MDOption) {
	for i, o := range f.Options {
		if o.Key == key {
			return i, o
		}
	}
	return -1, nil
}

func (t *MDTemplate) Field(key string) (int, *MDField) {
	for i, f := range t.Fields {
		if f.Key == key {
			return i, f
		}
	}
	return -1, nil
}

// freeForm reports whether the template takes any key (global.properties).
func (t *MDTemplate) freeForm() bool { return t.Scope == ScopeGlobal && t.Key == GlobalPropertiesKey }

// Record is the MetadataTemplate record.
func (t *MDTemplate) Record() map[string]any {
	fields := make([]any, 0, len(t.Fields))
	for _, f := range t.Fields {
		m := map[string]any{"id": f.ID, "type": f.Typ, "key": f.Key, "displayName": f.DisplayName, "hidden": f.Hidden}
		if f.Description != "" {
			m["description"] = f.Description
		}
		if f.HasOptions() {
			opts := make([]any, 0, len(f.Options))
			for _, o := range f.Options {
				opts = append(opts, map[string]any{"id": o.ID, "key": o.Key})
			}
			m["options"] = opts
		}
		fields = append(fields, m)
	}
	return map[string]any{
		"id": t.ID, "type": "metadata_template", "scope": t.Scope, "templateKey": t.Key,
		"displayName": t.DisplayName, "hidden": t.Hidden, "fields": fields,
		"copyInstanceOnItemCopy": t.CopyOnCopy,
	}
}

// AddTemplate registers a new template (ids are assigned here). Callers
// hold s.mu (or run before the server answers).
func (s *State) AddTemplate(t *MDTemplate) {
	t.ID = NewUUID()
	t.TypeID = t.Key + "-" + NewUUID()
	t.Instances = make(map[string]*MDInstance)
	s.Metadata.Templates[t.Scope+"."+t.Key] = t
	s.Metadata.ByID[t.ID] = t
	s.Metadata.Order = append(s.Metadata.Order, t)
	s.Dirty(KTemplates, t.ID)
	s.Dirty(KMetadata, MetadataKey)
}

// FieldBody is a field of a create body or of addField data. The taxonomy
// properties are decoded so that a taxonomy field is refused for what it
// is rather than for an unknown member.
type FieldBody struct {
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

// NewField checks a field body and builds the field. Field rules: type one
// of the creatable types, key 1..256 characters, displayName 1..4096,
// options (unique, non-empty keys) only on enum and multiSelect.
func NewField(b FieldBody) (*MDField, *wire.Error) {
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
	if aerr := CheckDisplayName(*b.DisplayName, "field displayName"); aerr != nil {
		return nil, aerr
	}
	if b.TaxonomyKey != nil || b.TaxonomyID != nil || b.Namespace != nil || b.OptionsRules != nil {
		return nil, wire.BadRequest("Taxonomy properties are only valid on taxonomy fields")
	}
	f := &MDField{ID: NewUUID(), Typ: *b.Type, Key: *b.Key, DisplayName: *b.DisplayName}
	if b.Description != nil {
		if len(*b.Description) > maxDisplayNameLen {
			return nil, wire.BadRequest("Field description is longer than %d characters", maxDisplayNameLen)
		}
		f.Description = *b.Description
	}
	if b.Hidden != nil {
		f.Hidden = *b.Hidden
	}
	if b.Options != nil && !f.HasOptions() {
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

func (f *MDField) addOption(key string) *wire.Error {
	if aerr := checkOptionKey(key); aerr != nil {
		return aerr
	}
	if _, o := f.option(key); o != nil {
		return wire.BadRequest("Option %q already exists on field %q", key, f.Key)
	}
	f.Options = append(f.Options, &MDOption{ID: NewUUID(), Key: key})
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

func CheckDisplayName(v, what string) *wire.Error {
	if strings.TrimSpace(v) == "" || utf8.RuneCountInString(v) > maxDisplayNameLen {
		return wire.BadRequest("Invalid %s: 1 to %d characters", what, maxDisplayNameLen)
	}
	return nil
}

// CreateTemplateTx is the transaction of POST /metadata_templates/schema
// (createTemplate): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *State) CreateTemplateTx(t *MDTemplate, derived bool) (Reply, *wire.Error) {
	if s.Template(t.Scope, t.Key) != nil {
		if !derived {
			return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A template with templateKey %q already exists", t.Key)
		}
		base := t.Key
		for n := 1; s.Template(t.Scope, t.Key) != nil; n++ {
			suffix := strconv.Itoa(n)
			t.Key = base[:min(len(base), MaxTemplateKeyLen-len(suffix))] + suffix
		}
	}
	s.AddTemplate(t)
	return Reply{wire.StatusCreated, t.Record()}, nil
}

// templateOf resolves {scope}/{template_key} of a template path: 400 for
// no scope, 404 not_found for no such template.
func (s *State) templateOf(scope, key string) (*MDTemplate, *wire.Error) {
	t := s.Template(scope, key)
	if t == nil {
		return nil, wire.NotFound("metadata template")
	}
	return t, nil
}

// GetTemplateTx is the transaction of GET
// /metadata_templates/{scope}/{template_key}/schema. (getTemplate): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *State) GetTemplateTx(scope string, templateKey string) (Reply, *wire.Error) {
	t, aerr := s.templateOf(scope, templateKey)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, t.Record()}, nil
}

// GetTemplateByIDTx is the transaction of GET
// /metadata_templates/{template_id}. (getTemplateByID): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *State) GetTemplateByIDTx(pathValue string) (Reply, *wire.Error) {
	t := s.Metadata.ByID[pathValue]
	if t == nil {
		return Reply{}, wire.BadRequest("Template id not recognised")
	}
	return Reply{wire.StatusOK, t.Record()}, nil
}

// DeleteTemplateTx is the transaction of DELETE
// /metadata_templates/{scope}/{template_key}/schema (deleteTemplate): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *State) DeleteTemplateTx(scope string, templateKey string) (Reply, *wire.Error) {
	t, aerr := s.templateOf(scope, templateKey)
	if aerr != nil {
		return Reply{}, aerr
	}
	if t.Scope == ScopeGlobal {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Global templates cannot be deleted")
	}
	for _, in := range append([]*MDInstance(nil), t.BySeq...) {
		s.RemoveInstance(in)
	}
	delete(s.Metadata.Templates, t.Scope+"."+t.Key)
	delete(s.Metadata.ByID, t.ID)
	s.Metadata.Order = wire.RemoveFrom(s.Metadata.Order, t)
	s.Dirty(KTemplates, t.ID)
	s.Dirty(KMetadata, MetadataKey)
	return Reply{Status: wire.StatusNoContent}, nil
}

// ListTemplatesTx is the transaction of listTemplates (listTemplates): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *State) ListTemplatesTx(scope string, q wire.Page) (Reply, *wire.Error) {
	var all []*MDTemplate
	for _, t := range s.Metadata.Order {
		if t.Scope == scope {
			all = append(all, t)
		}
	}
	return Reply{wire.StatusOK, wire.PositionEntries(all, q, (*MDTemplate).Record)}, nil
}

// ListTemplatesByInstanceTx is the transaction of GET
// /metadata_templates?metadata_instance_id= (listTemplatesByInstance): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *State) ListTemplatesByInstanceTx(id string, p *Principal, limit int64) (Reply, *wire.Error) {
	var found []*MDTemplate
	if in := s.Metadata.ByInstID[strings.ToLower(id)]; in != nil && s.live(p, in.Item) {
		found = append(found, in.Tmpl)
	}
	return Reply{wire.StatusOK, wire.PositionEntries(found, wire.Page{Limit: limit}, (*MDTemplate).Record)}, nil
}
