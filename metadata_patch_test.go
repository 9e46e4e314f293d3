package cms

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMetadataPatchBuilder(t *testing.T) {
	t.Parallel()
	p := NewMetadataPatch().
		Add("a/b", "x").
		Replace("c~d", 1.5).
		Remove("gone").
		Test("n", 3).
		Move("from", "to").
		Copy("src", "dst").
		TestAndReplace("status", "draft", "signed").
		Add("due", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)).
		Add("tags", []string{"a", "b"}).
		Add("cleared", nil)
	require.NoError(t, p.Err())
	b, err := json.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"op":"add","path":"/a~1b","value":"x"},
		{"op":"replace","path":"/c~0d","value":1.5},
		{"op":"remove","path":"/gone"},
		{"op":"test","path":"/n","value":3},
		{"op":"move","path":"/to","from":"/from"},
		{"op":"copy","path":"/dst","from":"/src"},
		{"op":"test","path":"/status","value":"draft"},
		{"op":"replace","path":"/status","value":"signed"},
		{"op":"add","path":"/due","value":"2026-05-01T00:00:00.000Z"},
		{"op":"add","path":"/tags","value":["a","b"]},
		{"op":"add","path":"/cleared","value":null}]`, string(b))
	assert.Len(t, p.Operations(), 11)

	assert.Equal(t, "/a~1b/~0~01/0", JSONPointer("a/b", "~~1", "0"))
	assert.Equal(t, "", JSONPointer())

	empty, err := json.Marshal(NewMetadataPatch())
	require.NoError(t, err)
	assert.Equal(t, "[]", string(empty))

	for name, bad := range map[string]*MetadataPatch{
		"empty key":       NewMetadataPatch().Add("", 1),
		"system key":      NewMetadataPatch().Replace("$version", 1),
		"bad value":       NewMetadataPatch().Add("a", make(chan int)),
		"bad move source": NewMetadataPatch().Move("", "b"),
		"raw op kind":     NewMetadataPatch().Op(PatchOperation{Op: "merge", Path: "/a"}),
		"raw path":        NewMetadataPatch().Op(PatchOperation{Op: PatchOpKindRemove, Path: "a"}),
		"raw from":        NewMetadataPatch().Op(PatchOperation{Op: PatchOpKindMove, Path: "/a", From: "b"}),
		"raw value":       NewMetadataPatch().Op(PatchOperation{Op: PatchOpKindAdd, Path: "/a", Value: json.RawMessage(`{`)}),
	} {
		assert.ErrorIs(t, bad.Err(), ErrInvalidArgument, name)
		_, err := json.Marshal(bad)
		assert.Error(t, err, name)
		// The first error stays; later calls add nothing.
		n := len(bad.Operations())
		bad.Add("ok", 1)
		assert.Len(t, bad.Operations(), n, name)
	}
	raw := NewMetadataPatch().Op(PatchOperation{Op: PatchOpKindAdd, Path: "/tags/-", Value: json.RawMessage(`"c"`)})
	require.NoError(t, raw.Err())
	assert.Equal(t, "/tags/-", raw.Operations()[0].Path)
}

func TestDiffMetadata(t *testing.T) {
	t.Parallel()
	type contract struct {
		Version  int64    `json:"$version"`
		Amount   float64  `json:"amount"`
		Customer string   `json:"customer,omitempty"`
		Regions  []string `json:"regions,omitempty"`
		Note     string   `json:"a/note,omitempty"`
	}
	old := contract{Version: 1, Amount: 10, Customer: "Acme", Regions: []string{"emea"}}
	new := contract{Version: 9, Amount: 10.0, Regions: []string{"emea", "apac"}, Note: "n"}

	p, err := DiffMetadata(old, new)
	require.NoError(t, err)
	b, _ := json.Marshal(p)
	assert.JSONEq(t, `[
		{"op":"remove","path":"/customer"},
		{"op":"replace","path":"/regions","value":["emea","apac"]},
		{"op":"add","path":"/a~1note","value":"n"}]`, string(b), "equal values and $ keys give no operation")

	p, err = DiffMetadataTested(old, new)
	require.NoError(t, err)
	b, _ = json.Marshal(p)
	assert.JSONEq(t, `[
		{"op":"test","path":"/customer","value":"Acme"},
		{"op":"remove","path":"/customer"},
		{"op":"test","path":"/regions","value":["emea"]},
		{"op":"replace","path":"/regions","value":["emea","apac"]},
		{"op":"add","path":"/a~1note","value":"n"}]`, string(b))

	// Maps and instances diff the same way; spelling of numbers does not count.
	inst := &MetadataInstance{Version: 4, Values: map[string]json.RawMessage{"amount": json.RawMessage(`1.0`), "k": json.RawMessage(`{"b":1,"a":2}`)}}
	p, err = DiffMetadata(inst, map[string]any{"amount": 1, "k": map[string]int{"a": 2, "b": 1}})
	require.NoError(t, err)
	assert.Empty(t, p.Operations())

	_, err = DiffMetadata("not an object", old)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = DiffMetadata(old, 3)
	assert.ErrorIs(t, err, ErrInvalidArgument)
}

func TestTemplateOps(t *testing.T) {
	t.Parallel()
	hidden := Ptr(true)
	ops := []TemplateOp{
		EditTemplateOp(TemplateChanges{DisplayName: "Deals", Hidden: hidden}),
		AddFieldOp(MetadataField{Type: MetadataFieldTypeEnum, Key: "stage", DisplayName: "Stage", Options: []*MetadataOption{{Key: "lead"}}}),
		ReorderFieldsOp("stage", "amount"),
		AddEnumOptionOp("stage", "won"),
		ReorderEnumOptionsOp("stage", "won", "lead"),
		ReorderMultiSelectOptionsOp("regions", "apac", "emea"),
		AddMultiSelectOptionOp("regions", "amer"),
		EditFieldOp("amount", FieldChanges{Key: "value", Description: Ptr("")}),
		RemoveFieldOp("old"),
		EditEnumOptionOp("stage", "won", "closed"),
		RemoveEnumOptionOp("stage", "lead"),
		EditMultiSelectOptionOp("regions", "amer", "americas"),
		RemoveMultiSelectOptionOp("regions", "apac"),
	}
	for i := range ops {
		assert.NoError(t, ops[i].validate(), ops[i].Op)
	}
	b, err := json.Marshal(ops)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"op":"editTemplate","data":{"displayName":"Deals","hidden":true}},
		{"op":"addField","data":{"type":"enum","key":"stage","displayName":"Stage","options":[{"key":"lead"}]}},
		{"op":"reorderFields","fieldKeys":["stage","amount"]},
		{"op":"addEnumOption","fieldKey":"stage","data":{"key":"won"}},
		{"op":"reorderEnumOptions","fieldKey":"stage","enumOptionKeys":["won","lead"]},
		{"op":"reorderMultiSelectOptions","fieldKey":"regions","multiSelectOptionKeys":["apac","emea"]},
		{"op":"addMultiSelectOption","fieldKey":"regions","data":{"key":"amer"}},
		{"op":"editField","fieldKey":"amount","data":{"key":"value","description":""}},
		{"op":"removeField","fieldKey":"old"},
		{"op":"editEnumOption","fieldKey":"stage","enumOptionKey":"won","data":{"key":"closed"}},
		{"op":"removeEnumOption","fieldKey":"stage","enumOptionKey":"lead"},
		{"op":"editMultiSelectOption","fieldKey":"regions","multiSelectOptionKey":"amer","data":{"key":"americas"}},
		{"op":"removeMultiSelectOption","fieldKey":"regions","multiSelectOptionKey":"apac"}]`, string(b))

	for name, bad := range map[string]TemplateOp{
		"editTemplate no change":        EditTemplateOp(TemplateChanges{}),
		"editTemplate nil data":         {Op: TemplateOpKindEditTemplate, Data: (*TemplateChanges)(nil)},
		"addField no type":              AddFieldOp(MetadataField{Key: "k", DisplayName: "K"}),
		"addField integer":              AddFieldOp(MetadataField{Type: MetadataFieldTypeInteger, Key: "k", DisplayName: "K"}),
		"addField no key":               AddFieldOp(MetadataField{Type: MetadataFieldTypeString, DisplayName: "K"}),
		"addField no name":              AddFieldOp(MetadataField{Type: MetadataFieldTypeString, Key: "k"}),
		"addField empty option":         AddFieldOp(MetadataField{Type: MetadataFieldTypeEnum, Key: "k", DisplayName: "K", Options: []*MetadataOption{{}}}),
		"addField repeated option":      AddFieldOp(MetadataField{Type: MetadataFieldTypeEnum, Key: "k", DisplayName: "K", Options: []*MetadataOption{{Key: "a"}, {Key: "a"}}}),
		"reorderFields none":            ReorderFieldsOp(),
		"reorderFields repeated":        ReorderFieldsOp("a", "a"),
		"addEnumOption no field":        AddEnumOptionOp("", "x"),
		"addEnumOption no key":          AddEnumOptionOp("f", ""),
		"reorderEnumOptions none":       ReorderEnumOptionsOp("f"),
		"reorderMultiSelect no field":   ReorderMultiSelectOptionsOp("", "a"),
		"reorderMultiSelect empty key":  ReorderMultiSelectOptionsOp("f", ""),
		"addMultiSelectOption no key":   AddMultiSelectOptionOp("f", ""),
		"editField no change":           EditFieldOp("f", FieldChanges{}),
		"editField no field":            EditFieldOp("", FieldChanges{DisplayName: "x"}),
		"removeField no field":          RemoveFieldOp(""),
		"editEnumOption no option":      EditEnumOptionOp("f", "", "x"),
		"editEnumOption no new key":     EditEnumOptionOp("f", "a", ""),
		"removeEnumOption no option":    RemoveEnumOptionOp("f", ""),
		"editMultiSelect no option":     EditMultiSelectOptionOp("f", "", "x"),
		"editMultiSelect no new key":    EditMultiSelectOptionOp("f", "a", ""),
		"removeMultiSelect no option":   RemoveMultiSelectOptionOp("f", ""),
		"removeMultiSelect no field":    RemoveMultiSelectOptionOp("", "a"),
		"unknown op":                    {Op: "renameTemplate"},
		"literal addField without data": {Op: TemplateOpKindAddField},
	} {
		assert.ErrorIs(t, bad.validate(), ErrInvalidArgument, name)
	}
	// A literal operation with data of the caller's own shape only needs the data.
	lit := TemplateOp{Op: TemplateOpKindAddEnumOption, FieldKey: "f", Data: map[string]string{"key": "x"}}
	assert.NoError(t, lit.validate())
}
