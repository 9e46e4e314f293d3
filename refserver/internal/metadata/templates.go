package metadata

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

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
	Key          *string         `json:"key"`
	StaticConfig json.RawMessage `json:"staticConfig"`
}

// staticConfig is the option's staticConfig, which must be an object (400
// otherwise); nil when absent.
func (o optionBody) staticConfig() (json.RawMessage, *wire.Error) {
	if o.StaticConfig == nil {
		return nil, nil
	}
	var m map[string]any
	if json.Unmarshal(o.StaticConfig, &m) != nil || m == nil {
		return nil, wire.BadRequest("Invalid value for \"staticConfig\": an object")
	}
	return slices.Clone(o.StaticConfig), nil
}

// addOption adds the option of o to f.
func addOption(f *state.MDField, o optionBody) *wire.Error {
	if o.Key == nil {
		return wire.BadRequest("An option needs a key")
	}
	cfg, aerr := o.staticConfig()
	if aerr != nil {
		return aerr
	}
	if aerr := f.AddOption(*o.Key); aerr != nil {
		return aerr
	}
	f.Options[len(f.Options)-1].StaticConfig = cfg
	return nil
}

// NewField checks a field body and builds the field. Field rules: type one
// of the creatable types, key 1..256 characters, displayName 1..4096,
// options (unique, non-empty keys) only on enum and multiSelect.
func NewField(b FieldBody) (*state.MDField, *wire.Error) {
	if b.Type == nil || b.Key == nil || b.DisplayName == nil {
		return nil, wire.BadRequest("A field needs type, key and displayName")
	}
	switch *b.Type {
	case state.FieldString, state.FieldFloat, state.FieldDate, state.FieldEnum, state.FieldMultiSelect:
	case state.FieldInteger, state.FieldTaxonomy:
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
	f := &state.MDField{ID: state.NewUUID(), Typ: *b.Type, Key: *b.Key, DisplayName: *b.DisplayName}
	if b.Description != nil {
		if len(*b.Description) > state.MaxDisplayNameLen {
			return nil, wire.BadRequest("Field description is longer than %d characters", state.MaxDisplayNameLen)
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
		if aerr := addOption(f, o); aerr != nil {
			return nil, aerr
		}
	}
	return f, nil
}

// checkFieldKey checks a new field key: 1 to MaxFieldKeyLen characters of
// valid UTF-8, not starting with "$" (400).
func checkFieldKey(key string) *wire.Error {
	if key == "" || utf8.RuneCountInString(key) > state.MaxFieldKeyLen || strings.HasPrefix(key, "$") || !utf8.ValidString(key) {
		return wire.BadRequest("Invalid field key %q: 1 to %d characters, not starting with $", key, state.MaxFieldKeyLen)
	}
	return nil
}

// CheckDisplayName checks a display name (what names it in the error): not
// blank, at most MaxDisplayNameLen characters (400).
func CheckDisplayName(v, what string) *wire.Error {
	if strings.TrimSpace(v) == "" || utf8.RuneCountInString(v) > state.MaxDisplayNameLen {
		return wire.BadRequest("Invalid %s: 1 to %d characters", what, state.MaxDisplayNameLen)
	}
	return nil
}

// CreationScope applies the scope rule of POST /metadata_templates/schema
// (refserver's createTemplate): templates are created in the enterprise
// scope, named "enterprise" or in full (enterprise_<id>), which it
// returns; the global scope is 403 access_denied_insufficient_permissions,
// any other 400.
func CreationScope(s *state.Env, scope string) (string, *wire.Error) {
	switch s.ScopeKind(scope) {
	case state.ScopeGlobal:
		return "", wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Templates cannot be created in the global scope")
	case s.EnterpriseScope():
		return s.EnterpriseScope(), nil
	}
	return "", wire.BadRequest("Invalid scope %q: templates are created in the enterprise scope", scope)
}

// CreateTemplate serves POST /metadata_templates/schema (refserver's
// createTemplate): t is added, 409 when its key is taken, unless derived
// (no templateKey sent: one made from the displayName), which then takes
// a numbered key; 201 with its record.
func CreateTemplate(s *state.Tx, t *state.MDTemplate, derived bool) (state.Reply, *wire.Error) {
	if s.Template(t.Scope, t.Key) != nil {
		if !derived {
			return state.Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A template with templateKey %q already exists", t.Key)
		}
		base := t.Key
		for n := 1; s.Template(t.Scope, t.Key) != nil; n++ {
			suffix := strconv.Itoa(n)
			t.Key = base[:min(len(base), state.MaxTemplateKeyLen-len(suffix))] + suffix
		}
	}
	s.AddTemplate(t)
	return state.Reply{Status: wire.StatusCreated, Body: t.Record()}, nil
}

// TemplateOf resolves {scope}/{template_key} of a template path: 400 for
// no scope, 404 not_found for no such template.
func TemplateOf(s *state.Tx, scope, key string) (*state.MDTemplate, *wire.Error) {
	t := s.Template(scope, key)
	if t == nil {
		return nil, wire.NotFound("metadata template")
	}
	return t, nil
}

// GetTemplate serves GET /metadata_templates/{scope}/{template_key}/schema
// (getTemplate): the template's record, 404 when there is none.
func GetTemplate(s *state.Tx, scope string, templateKey string) (state.Reply, *wire.Error) {
	t, aerr := TemplateOf(s, scope, templateKey)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	return state.Reply{Status: wire.StatusOK, Body: t.Record()}, nil
}

// GetTemplateByID serves GET /metadata_templates/{template_id}
// (getTemplateByID): the template with that id, 400 for an unknown one.
func GetTemplateByID(s *state.Tx, pathValue string) (state.Reply, *wire.Error) {
	t := s.Metadata.ByID.At(pathValue)
	if t == nil {
		return state.Reply{}, wire.BadRequest("Template id not recognised")
	}
	return state.Reply{Status: wire.StatusOK, Body: t.Record()}, nil
}

// DeleteTemplate serves DELETE
// /metadata_templates/{scope}/{template_key}/schema (deleteTemplate): the
// template goes with its instances (204); global templates are 403.
func DeleteTemplate(s *state.Tx, scope string, templateKey string) (state.Reply, *wire.Error) {
	t, aerr := TemplateOf(s, scope, templateKey)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	if t.Scope == state.ScopeGlobal {
		return state.Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Global templates cannot be deleted")
	}
	for _, in := range append([]*state.MDInstance(nil), t.BySeq...) {
		s.RemoveInstance(in)
	}
	s.CascadeTemplateDeleted(t)
	delete(s.Metadata.Templates, t.Scope+"."+t.Key)
	s.Metadata.ByID.Delete(t.ID)
	s.SetTemplateOrder(wire.RemoveFrom(s.Metadata.Order, t))
	return state.Reply{Status: wire.StatusNoContent}, nil
}

// ListTemplates serves GET /metadata_templates/enterprise and
// /metadata_templates/global (refserver's listTemplates): a marker page of
// the scope's templates, oldest first.
func ListTemplates(s *state.Tx, scope string, q wire.Page) (state.Reply, *wire.Error) {
	var all []*state.MDTemplate
	for _, t := range s.Metadata.Order {
		if t.Scope == scope {
			all = append(all, t)
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(all, q, (*state.MDTemplate).Record)}, nil
}

// ListTemplatesByInstance serves GET
// /metadata_templates?metadata_instance_id= (listTemplatesByInstance): the
// template of the instance with id, when p may read its item; an empty
// page otherwise.
func ListTemplatesByInstance(s *state.Tx, id string, p *state.Principal, limit int64) (state.Reply, *wire.Error) {
	var found []*state.MDTemplate
	if in := s.Metadata.ByInstID.At(strings.ToLower(id)); in != nil && s.Live(p, in.Item) {
		found = append(found, in.Tmpl)
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(found, wire.Page{Limit: limit}, (*state.MDTemplate).Record)}, nil
}
