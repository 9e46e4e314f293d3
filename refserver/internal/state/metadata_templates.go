package state

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// MDTemplate is a metadata template. Its fields are read and changed only in a transaction.
type MDTemplate struct {
	ID, Scope, Key, DisplayName string
	Hidden, CopyOnCopy          bool
	Fields                      []*MDField
	TypeID                      string // $type of its instances: <templateKey>-<uuid>
	Version                     int    // $typeVersion: grows with each schema update

	Instances map[string]*MDInstance // by item reference (ItemTable.Ref)
	BySeq     []*MDInstance          // creation order (the default query order)
	Sorted    map[string]*SortIndex  // query sort indexes by field key, built on demand
}

// MDField is a field of a template.
type MDField struct {
	ID, Typ, Key, DisplayName, Description string
	Hidden                                 bool
	Options                                []*MDOption // enum and multiSelect
}

// MDOption is an option of an enum or multiSelect field.
type MDOption struct {
	ID, Key string
	// StaticConfig is the option's staticConfig object as sent (the
	// classification's definition and colour), nil for none.
	StaticConfig json.RawMessage
}

// Field types. integer (deprecated) and taxonomy are decoded and validated
// but cannot be created (spec: "integer ... cannot be used in the POST
// request"; taxonomies need the taxonomy API, which this server lacks).
const (
	FieldString      = "string"
	FieldFloat       = "float"
	FieldDate        = "date"
	FieldEnum        = "enum"
	FieldMultiSelect = "multiSelect"
	FieldInteger     = "integer"
	FieldTaxonomy    = "taxonomy"
)

// kindOfValue is the kind of value (MDVal.Kind) the field holds.
func (f *MDField) kindOfValue() byte {
	switch f.Typ {
	case FieldFloat, FieldInteger:
		return ValNumber
	case FieldDate:
		return ValDate
	case FieldMultiSelect, FieldTaxonomy:
		return ValList
	}
	return ValString
}

// HasOptions reports whether the field has options (enum, multiSelect).
func (f *MDField) HasOptions() bool { return f.Typ == FieldEnum || f.Typ == FieldMultiSelect }

// Option finds the option with key and its position; -1 and nil when the
// field has none.
func (f *MDField) Option(key string) (int, *MDOption) {
	for i, o := range f.Options {
		if o.Key == key {
			return i, o
		}
	}
	return -1, nil
}

// Field finds the field with key and its position; -1 and nil when the
// template has none.
func (t *MDTemplate) Field(key string) (int, *MDField) {
	for i, f := range t.Fields {
		if f.Key == key {
			return i, f
		}
	}
	return -1, nil
}

// FreeForm reports whether the template takes any key (global.properties).
func (t *MDTemplate) FreeForm() bool { return t.Scope == ScopeGlobal && t.Key == GlobalPropertiesKey }

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
				om := map[string]any{"id": o.ID, "key": o.Key}
				if o.StaticConfig != nil {
					om["staticConfig"] = o.StaticConfig
				}
				opts = append(opts, om)
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

// AddTemplate registers a new template (ids are assigned here).
func (s *Tx) AddTemplate(t *MDTemplate) {
	t.ID = NewUUID()
	t.TypeID = t.Key + "-" + NewUUID()
	t.Instances = make(map[string]*MDInstance)
	s.Metadata.Templates[t.Scope+"."+t.Key] = t
	s.Metadata.ByID.Put(t.ID, t)
	s.SetTemplateOrder(append(s.Metadata.Order, t))
	if s.mdx.isOn() {
		t.registerIndexes(false) // empty and complete: instances are filed as they come
	}
}

// nextMetadataSeq takes the next number of the creation counter of
// templates and instances (the metadata state's own record).
func (s *Tx) nextMetadataSeq() int64 {
	s.Metadata.Seq++
	s.metadataRecordChanged()
	return s.Metadata.Seq
}

// SetTemplateOrder sets the listing order of the templates (the metadata
// state's own record).
func (s *Tx) SetTemplateOrder(order []*MDTemplate) {
	s.Metadata.Order = order
	s.metadataRecordChanged()
}

// metadataRecordChanged marks the metadata state's own record (KMetadata:
// the counter and the template order). Hand mark: a single record with no
// table; its two setters above call it.
func (s *Tx) metadataRecordChanged() { s.Dirty(KMetadata, MetadataKey) }

// AddOption appends a new option (a fresh id) to an enum or multiSelect
// field: 400 for a bad or existing key.
func (f *MDField) AddOption(key string) *wire.Error {
	if aerr := CheckOptionKey(key); aerr != nil {
		return aerr
	}
	if _, o := f.Option(key); o != nil {
		return wire.BadRequest("Option %q already exists on field %q", key, f.Key)
	}
	f.Options = append(f.Options, &MDOption{ID: NewUUID(), Key: key})
	return nil
}

// CheckOptionKey checks an option key: valid UTF-8, not blank (400).
func CheckOptionKey(key string) *wire.Error {
	if strings.TrimSpace(key) == "" || !utf8.ValidString(key) {
		return wire.BadRequest("Invalid option key %q", key)
	}
	return nil
}
