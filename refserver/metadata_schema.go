package refserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// schemaOp is one operation of PUT /metadata_templates/{scope}/{key}/schema.
type schemaOp struct {
	Op                    *string         `json:"op"`
	Data                  json.RawMessage `json:"data"`
	FieldKey              *string         `json:"fieldKey"`
	FieldKeys             []string        `json:"fieldKeys"`
	EnumOptionKey         *string         `json:"enumOptionKey"`
	EnumOptionKeys        []string        `json:"enumOptionKeys"`
	MultiSelectOptionKey  *string         `json:"multiSelectOptionKey"`
	MultiSelectOptionKeys []string        `json:"multiSelectOptionKeys"`
}

// schemaEffect is what a schema operation does to the values of the
// template's instances, applied only once every operation succeeded.
type schemaEffect struct {
	kind     string // renameField, removeField, renameOption, removeOption
	field    string // field key (after any rename earlier in the patch)
	from, to string
	multi    bool // the field is a multiSelect
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

// decodeSchemaOps decodes a schema update body: a non-empty JSON array of
// operation objects (unknown members are 400 bad_request).
func decodeSchemaOps(r io.Reader) ([]schemaOp, *wire.Error) {
	var ops []schemaOp
	if aerr := wire.DecodeJSON(r, &ops); aerr != nil {
		return nil, aerr
	}
	if len(ops) == 0 {
		return nil, wire.BadRequest("The body must be a non-empty array of operations")
	}
	return ops, nil
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

// cloneFields deep-copies fields and options (ids kept).
func cloneFields(fields []*mdField) []*mdField {
	out := make([]*mdField, len(fields))
	for i, f := range fields {
		c := *f
		c.options = make([]*mdOption, len(f.options))
		for j, o := range f.options {
			oc := *o
			c.options[j] = &oc
		}
		out[i] = &c
	}
	return out
}

// schemaDraft is a template being changed by a schema update.
type schemaDraft struct {
	displayName        string
	hidden, copyOnCopy bool
	fields             []*mdField
	effects            []schemaEffect
}

func (d *schemaDraft) field(key *string) (*mdField, *wire.Error) {
	if key == nil {
		return nil, wire.BadRequest("Missing required member: fieldKey")
	}
	for _, f := range d.fields {
		if f.key == *key {
			return f, nil
		}
	}
	return nil, wire.BadRequest("Could not find field: %s", *key)
}

// optionField returns the field of an option operation and checks its type.
func (d *schemaDraft) optionField(key *string, typ string) (*mdField, *wire.Error) {
	f, aerr := d.field(key)
	if aerr != nil {
		return nil, aerr
	}
	if f.typ != typ {
		return nil, wire.BadRequest("Field %q is of type %s, not %s", f.key, f.typ, typ)
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

// apply runs one operation on the draft.
func (d *schemaDraft) apply(op schemaOp) *wire.Error {
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
			if aerr := checkDisplayName(*data.DisplayName, "displayName"); aerr != nil {
				return aerr
			}
			d.displayName = *data.DisplayName
		}
		if data.Hidden != nil {
			d.hidden = *data.Hidden
		}
		if data.CopyInstanceOnItemCopy != nil {
			d.copyOnCopy = *data.CopyInstanceOnItemCopy
		}
	case "addField":
		var data fieldBody
		if aerr := decodeData(op.Data, &data); aerr != nil {
			return aerr
		}
		f, aerr := newField(data)
		if aerr != nil {
			return aerr
		}
		for _, g := range d.fields {
			if g.key == f.key {
				return wire.BadRequest("Duplicate field key %q", f.key)
			}
		}
		d.fields = append(d.fields, f)
	case "reorderFields":
		out, aerr := permute(d.fields, op.FieldKeys, func(f *mdField) string { return f.key }, "fieldKeys")
		if aerr != nil {
			return aerr
		}
		d.fields = out
	case "editField":
		return d.editField(op)
	case "removeField":
		f, aerr := d.field(op.FieldKey)
		if aerr != nil {
			return aerr
		}
		d.fields = wire.RemoveFrom(d.fields, f)
		d.effects = append(d.effects, schemaEffect{kind: "removeField", field: f.key})
	case "addEnumOption", "addMultiSelectOption":
		return d.addOption(op)
	case "reorderEnumOptions", "reorderMultiSelectOptions":
		typ, keys, what := fieldEnum, op.EnumOptionKeys, "enumOptionKeys"
		if *op.Op == "reorderMultiSelectOptions" {
			typ, keys, what = fieldMultiSelect, op.MultiSelectOptionKeys, "multiSelectOptionKeys"
		}
		f, aerr := d.optionField(op.FieldKey, typ)
		if aerr != nil {
			return aerr
		}
		out, aerr := permute(f.options, keys, func(o *mdOption) string { return o.key }, what)
		if aerr != nil {
			return aerr
		}
		f.options = out
	case "editEnumOption", "editMultiSelectOption", "removeEnumOption", "removeMultiSelectOption":
		return d.changeOption(op)
	default:
		return wire.BadRequest("Invalid operation %q", *op.Op)
	}
	return nil
}

func (d *schemaDraft) editField(op schemaOp) *wire.Error {
	f, aerr := d.field(op.FieldKey)
	if aerr != nil {
		return aerr
	}
	var data editFieldData
	if aerr := decodeData(op.Data, &data); aerr != nil {
		return aerr
	}
	if data.DisplayName != nil {
		if aerr := checkDisplayName(*data.DisplayName, "field displayName"); aerr != nil {
			return aerr
		}
		f.displayName = *data.DisplayName
	}
	if data.Description != nil {
		if len(*data.Description) > maxDisplayNameLen {
			return wire.BadRequest("Field description is longer than %d characters", maxDisplayNameLen)
		}
		f.description = *data.Description
	}
	if data.Hidden != nil {
		f.hidden = *data.Hidden
	}
	if data.Key != nil && *data.Key != f.key {
		if aerr := checkFieldKey(*data.Key); aerr != nil {
			return aerr
		}
		for _, g := range d.fields {
			if g.key == *data.Key {
				return wire.BadRequest("Duplicate field key %q", *data.Key)
			}
		}
		d.effects = append(d.effects, schemaEffect{kind: "renameField", from: f.key, to: *data.Key})
		f.key = *data.Key
	}
	return nil
}

func (d *schemaDraft) addOption(op schemaOp) *wire.Error {
	typ := fieldEnum
	if *op.Op == "addMultiSelectOption" {
		typ = fieldMultiSelect
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
	return f.addOption(*data.Key)
}

// changeOption runs editEnumOption, editMultiSelectOption,
// removeEnumOption and removeMultiSelectOption.
func (d *schemaDraft) changeOption(op schemaOp) *wire.Error {
	typ, key, member := fieldEnum, op.EnumOptionKey, "enumOptionKey"
	if *op.Op == "editMultiSelectOption" || *op.Op == "removeMultiSelectOption" {
		typ, key, member = fieldMultiSelect, op.MultiSelectOptionKey, "multiSelectOptionKey"
	}
	f, aerr := d.optionField(op.FieldKey, typ)
	if aerr != nil {
		return aerr
	}
	if key == nil {
		return wire.BadRequest("Missing required member: %s", member)
	}
	i, o := f.option(*key)
	if o == nil {
		return wire.BadRequest("Could not find option %q on field %q", *key, f.key)
	}
	multi := typ == fieldMultiSelect
	if *op.Op == "removeEnumOption" || *op.Op == "removeMultiSelectOption" {
		f.options = append(f.options[:i], f.options[i+1:]...)
		d.effects = append(d.effects, schemaEffect{kind: "removeOption", field: f.key, from: o.key, multi: multi})
		return nil
	}
	var data optionBody
	if aerr := decodeData(op.Data, &data); aerr != nil {
		return aerr
	}
	if data.Key == nil {
		return wire.BadRequest("Missing required member: data.key")
	}
	if *data.Key == o.key {
		return nil
	}
	if aerr := checkOptionKey(*data.Key); aerr != nil {
		return aerr
	}
	if _, dup := f.option(*data.Key); dup != nil {
		return wire.BadRequest("Option %q already exists on field %q", *data.Key, f.key)
	}
	d.effects = append(d.effects, schemaEffect{kind: "renameOption", field: f.key, from: o.key, to: *data.Key, multi: multi})
	o.key = *data.Key
	return nil
}

// updateTemplate serves PUT /metadata_templates/{scope}/{template_key}/schema:
// the operations are applied atomically (all or none) and then their side
// effects on instances: removeField drops the values, removeEnumOption
// resets them to null (the key disappears), removeMultiSelectOption takes
// the option out of value lists, editField's key rename and the option
// renames carry the values over. 200 MetadataTemplate. The body may be
// declared application/json-patch+json (spec) or application/json (the
// classic box-node-sdk sends that).
func (s *Server) updateTemplate(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := requireContentType(r, true, contentTypeJSONPatch, "application/json"); aerr != nil {
		return aerr
	}
	ops, aerr := decodeSchemaOps(r.Body)
	if aerr != nil {
		return aerr
	}
	scope, aerr := s.pathScope(r)
	if aerr != nil {
		return aerr
	}
	templateKey := r.PathValue("template_key")
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateTemplateTx(scope, templateKey, ops)
	})
}

// updateTemplateTx is the transaction of PUT
// /metadata_templates/{scope}/{template_key}/schema (updateTemplate): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) updateTemplateTx(scope string, templateKey string, ops []schemaOp) (reply, *wire.Error) {
	t, aerr := s.templateOf(scope, templateKey)
	if aerr != nil {
		return reply{}, aerr
	}
	if t.scope == scopeGlobal {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Global templates cannot be changed")
	}
	d := &schemaDraft{displayName: t.displayName, hidden: t.hidden, copyOnCopy: t.copyOnCopy, fields: cloneFields(t.fields)}
	for _, op := range ops {
		if aerr := d.apply(op); aerr != nil {
			return reply{}, aerr
		}
	}
	t.displayName, t.hidden, t.copyOnCopy, t.fields = d.displayName, d.hidden, d.copyOnCopy, d.fields
	t.version++
	for _, in := range t.bySeq {
		changed := false
		for _, e := range d.effects {
			changed = in.applyEffect(e) || changed
		}
		if changed {
			in.version++
		}
		s.dirty(kInstances, in.id)
	}
	s.dirty(kTemplates, t.id)
	t.sorted = nil // values or field keys may have changed: rebuilt on demand
	return reply{http.StatusOK, t.record()}, nil
}
