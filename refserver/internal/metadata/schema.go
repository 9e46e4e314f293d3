package metadata

import (
	"bytes"
	"encoding/json"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// SchemaOp is one operation of PUT /metadata_templates/{scope}/{key}/schema.
type SchemaOp struct {
	Op                    *string         `json:"op"`
	Data                  json.RawMessage `json:"data"`
	FieldKey              *string         `json:"fieldKey"`
	FieldKeys             []string        `json:"fieldKeys"`
	EnumOptionKey         *string         `json:"enumOptionKey"`
	EnumOptionKeys        []string        `json:"enumOptionKeys"`
	MultiSelectOptionKey  *string         `json:"multiSelectOptionKey"`
	MultiSelectOptionKeys []string        `json:"multiSelectOptionKeys"`
}

// editTemplateData, editFieldData are the data of editTemplate / editField.
//
// editTemplate changes displayName, hidden and copyInstanceOnItemCopy. The
// spec leaves data free-form; the guides name only these ("mainly the
// displayName and hidden properties"; "like the displayName,
// copyInstanceOnItemCopy"), and nothing documents renaming a template:
// its key is how files, queries (from), cascade policies and retention
// assignments name it. templateKey is decoded only to be refused with a
// message that says so (400 bad_request, the spec's code for a body that is
// no valid schema change), as an unknown member would be.
type editTemplateData struct {
	DisplayName            *string         `json:"displayName"`
	Hidden                 *bool           `json:"hidden"`
	CopyInstanceOnItemCopy *bool           `json:"copyInstanceOnItemCopy"`
	TemplateKey            json.RawMessage `json:"templateKey"`
}

type editFieldData struct {
	DisplayName *string `json:"displayName"`
	Description *string `json:"description"`
	Key         *string `json:"key"`
	Hidden      *bool   `json:"hidden"`
}

// decodeData decodes the data member of an operation strictly.
func decodeData(raw json.RawMessage, v any) *wire.Error {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return wire.BadRequest("Missing required member: data")
	}
	if aerr := wire.DecodeJSON(bytes.NewReader(raw), v); aerr != nil {
		return wire.BadRequest("Invalid data: %s", aerr.Message)
	}
	// No member of data takes null: the spec gives none a meaning (a
	// field's description is cleared with "", hidden is true or false).
	return wire.CheckNulls(raw, wire.CodeBadRequest)
}

// CloneFields deep-copies fields and options (ids kept).
func CloneFields(fields []*state.MDField) []*state.MDField {
	out := make([]*state.MDField, len(fields))
	for i, f := range fields {
		c := *f
		c.Options = make([]*state.MDOption, len(f.Options))
		for j, o := range f.Options {
			oc := *o
			c.Options[j] = &oc
		}
		out[i] = &c
	}
	return out
}

// SchemaDraft is a template being changed by a schema update.
type SchemaDraft struct {
	DisplayName        string
	hidden, copyOnCopy bool
	Fields             []*state.MDField
	effects            []state.SchemaEffect
}

// Field finds the field with key in the draft: 400 for a missing key or
// no such field.
func (d *SchemaDraft) Field(key *string) (*state.MDField, *wire.Error) {
	if key == nil {
		return nil, wire.BadRequest("Missing required member: fieldKey")
	}
	for _, f := range d.Fields {
		if f.Key == *key {
			return f, nil
		}
	}
	return nil, wire.BadRequest("Could not find field: %s", *key)
}

// optionField returns the field of an option operation and checks its type.
func (d *SchemaDraft) optionField(key *string, typ string) (*state.MDField, *wire.Error) {
	f, aerr := d.Field(key)
	if aerr != nil {
		return nil, aerr
	}
	if f.Typ != typ {
		return nil, wire.BadRequest("Field %q is of type %s, not %s", f.Key, f.Typ, typ)
	}
	return f, nil
}

// permute reorders list to the order of keys, which must name every
// element exactly once (a reorder can neither add nor drop).
func permute[T any](list []T, keys []string, keyOf func(T) string, what string) ([]T, *wire.Error) {
	if len(keys) != len(list) {
		return nil, wire.BadRequest("%s must list every existing key exactly once", what)
	}
	byKey := make(map[string]T, len(list))
	for _, v := range list {
		byKey[keyOf(v)] = v
	}
	out := make([]T, 0, len(list))
	for _, k := range keys {
		v, ok := byKey[k]
		if !ok {
			return nil, wire.BadRequest("%s must list every existing key exactly once (%q)", what, k)
		}
		delete(byKey, k)
		out = append(out, v)
	}
	return out, nil
}

// Apply runs one operation on the draft.
func (d *SchemaDraft) Apply(op SchemaOp) *wire.Error {
	if op.Op == nil {
		return wire.BadRequest("Missing required member: op")
	}
	switch *op.Op {
	case "editTemplate":
		var data editTemplateData
		if aerr := decodeData(op.Data, &data); aerr != nil {
			return aerr
		}
		if data.TemplateKey != nil {
			return wire.BadRequest("templateKey cannot be changed: a template keeps the key it was created with")
		}
		if data.DisplayName != nil {
			if aerr := CheckDisplayName(*data.DisplayName, "displayName"); aerr != nil {
				return aerr
			}
			d.DisplayName = *data.DisplayName
		}
		if data.Hidden != nil {
			d.hidden = *data.Hidden
		}
		if data.CopyInstanceOnItemCopy != nil {
			d.copyOnCopy = *data.CopyInstanceOnItemCopy
		}
	case "addField":
		var data FieldBody
		if aerr := decodeData(op.Data, &data); aerr != nil {
			return aerr
		}
		f, aerr := NewField(data)
		if aerr != nil {
			return aerr
		}
		for _, g := range d.Fields {
			if g.Key == f.Key {
				return wire.BadRequest("Duplicate field key %q", f.Key)
			}
		}
		d.Fields = append(d.Fields, f)
	case "reorderFields":
		out, aerr := permute(d.Fields, op.FieldKeys, func(f *state.MDField) string { return f.Key }, "fieldKeys")
		if aerr != nil {
			return aerr
		}
		d.Fields = out
	case "editField":
		return d.editField(op)
	case "removeField":
		f, aerr := d.Field(op.FieldKey)
		if aerr != nil {
			return aerr
		}
		d.Fields = wire.RemoveFrom(d.Fields, f)
		d.effects = append(d.effects, state.SchemaEffect{Kind: "removeField", Field: f.Key})
	case "addEnumOption", "addMultiSelectOption":
		return d.addOption(op)
	case "reorderEnumOptions", "reorderMultiSelectOptions":
		typ, keys, what := state.FieldEnum, op.EnumOptionKeys, "enumOptionKeys"
		if *op.Op == "reorderMultiSelectOptions" {
			typ, keys, what = state.FieldMultiSelect, op.MultiSelectOptionKeys, "multiSelectOptionKeys"
		}
		f, aerr := d.optionField(op.FieldKey, typ)
		if aerr != nil {
			return aerr
		}
		out, aerr := permute(f.Options, keys, func(o *state.MDOption) string { return o.Key }, what)
		if aerr != nil {
			return aerr
		}
		f.Options = out
	case "editEnumOption", "editMultiSelectOption", "removeEnumOption", "removeMultiSelectOption":
		return d.changeOption(op)
	default:
		return wire.BadRequest("Invalid operation %q", *op.Op)
	}
	return nil
}

func (d *SchemaDraft) editField(op SchemaOp) *wire.Error {
	f, aerr := d.Field(op.FieldKey)
	if aerr != nil {
		return aerr
	}
	var data editFieldData
	if aerr := decodeData(op.Data, &data); aerr != nil {
		return aerr
	}
	if data.DisplayName != nil {
		if aerr := CheckDisplayName(*data.DisplayName, "field displayName"); aerr != nil {
			return aerr
		}
		f.DisplayName = *data.DisplayName
	}
	if data.Description != nil {
		if len(*data.Description) > state.MaxDisplayNameLen {
			return wire.BadRequest("Field description is longer than %d characters", state.MaxDisplayNameLen)
		}
		f.Description = *data.Description
	}
	if data.Hidden != nil {
		f.Hidden = *data.Hidden
	}
	if data.Key != nil && *data.Key != f.Key {
		if aerr := checkFieldKey(*data.Key); aerr != nil {
			return aerr
		}
		for _, g := range d.Fields {
			if g.Key == *data.Key {
				return wire.BadRequest("Duplicate field key %q", *data.Key)
			}
		}
		d.effects = append(d.effects, state.SchemaEffect{Kind: "renameField", From: f.Key, To: *data.Key})
		f.Key = *data.Key
	}
	return nil
}

func (d *SchemaDraft) addOption(op SchemaOp) *wire.Error {
	typ := state.FieldEnum
	if *op.Op == "addMultiSelectOption" {
		typ = state.FieldMultiSelect
	}
	f, aerr := d.optionField(op.FieldKey, typ)
	if aerr != nil {
		return aerr
	}
	var data optionBody
	if aerr := decodeData(op.Data, &data); aerr != nil {
		return aerr
	}
	if data.Key == nil {
		return wire.BadRequest("Missing required member: data.key")
	}
	return addOption(f, data)
}

// changeOption runs editEnumOption, editMultiSelectOption,
// removeEnumOption and removeMultiSelectOption.
func (d *SchemaDraft) changeOption(op SchemaOp) *wire.Error {
	typ, key, member := state.FieldEnum, op.EnumOptionKey, "enumOptionKey"
	if *op.Op == "editMultiSelectOption" || *op.Op == "removeMultiSelectOption" {
		typ, key, member = state.FieldMultiSelect, op.MultiSelectOptionKey, "multiSelectOptionKey"
	}
	f, aerr := d.optionField(op.FieldKey, typ)
	if aerr != nil {
		return aerr
	}
	if key == nil {
		return wire.BadRequest("Missing required member: %s", member)
	}
	i, o := f.Option(*key)
	if o == nil {
		return wire.BadRequest("Could not find option %q on field %q", *key, f.Key)
	}
	multi := typ == state.FieldMultiSelect
	if *op.Op == "removeEnumOption" || *op.Op == "removeMultiSelectOption" {
		f.Options = append(f.Options[:i], f.Options[i+1:]...)
		d.effects = append(d.effects, state.SchemaEffect{Kind: "removeOption", Field: f.Key, From: o.Key, Multi: multi})
		return nil
	}
	var data optionBody
	if aerr := decodeData(op.Data, &data); aerr != nil {
		return aerr
	}
	if data.Key == nil {
		return wire.BadRequest("Missing required member: data.key")
	}
	cfg, aerr := data.staticConfig()
	if aerr != nil {
		return aerr
	}
	if cfg != nil {
		o.StaticConfig = cfg
	}
	if *data.Key == o.Key {
		return nil
	}
	if aerr := state.CheckOptionKey(*data.Key); aerr != nil {
		return aerr
	}
	if _, dup := f.Option(*data.Key); dup != nil {
		return wire.BadRequest("Option %q already exists on field %q", *data.Key, f.Key)
	}
	d.effects = append(d.effects, state.SchemaEffect{Kind: "renameOption", Field: f.Key, From: o.Key, To: *data.Key, Multi: multi})
	o.Key = *data.Key
	return nil
}

// UpdateTemplate serves PUT
// /metadata_templates/{scope}/{template_key}/schema (refserver's
// updateTemplate): the operations apply to a draft, all or none (400 on
// the first that fails); then the template takes the draft, its instances'
// values follow renames and removals, and its sort indexes are dropped.
// Global templates are 403.
func UpdateTemplate(s *state.Tx, scope string, templateKey string, ops []SchemaOp) (state.Reply, *wire.Error) {
	t, aerr := TemplateOf(s, scope, templateKey)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	if t.Scope == state.ScopeGlobal {
		return state.Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Global templates cannot be changed")
	}
	d := &SchemaDraft{DisplayName: t.DisplayName, hidden: t.Hidden, copyOnCopy: t.CopyOnCopy, Fields: CloneFields(t.Fields)}
	for _, op := range ops {
		if aerr := d.Apply(op); aerr != nil {
			return state.Reply{}, aerr
		}
	}
	s.Metadata.ByID.Update(t.ID, func(t *state.MDTemplate) {
		t.DisplayName, t.Hidden, t.CopyOnCopy, t.Fields = d.DisplayName, d.hidden, d.copyOnCopy, d.Fields
		t.Version++
	})
	for _, in := range t.BySeq {
		// An instance's record names its template's field keys: every one
		// is written again.
		s.Metadata.ByInstID.Update(in.ID, func(in *state.MDInstance) {
			changed := false
			for _, e := range d.effects {
				changed = in.ApplyEffect(e) || changed
			}
			if changed {
				in.Version++
			}
		})
	}
	s.ResetIndexes(t) // values or field keys may have changed (the indexes are a cache, not in the record)
	return state.Reply{Status: wire.StatusOK, Body: t.Record()}, nil
}
