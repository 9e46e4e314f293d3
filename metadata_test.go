package cms

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMetadataRecordsJSONRoundTrip(t *testing.T) {
	t.Parallel()
	t.Run("instance", func(t *testing.T) {
		t.Parallel()
		m := testJSONMarshal[MetadataInstance](t, "metadata_instance.json")
		assert.Equal(t, "file_12345", m.Parent)
		assert.Equal(t, EnterpriseScope("27335"), m.Scope)
		assert.Equal(t, "contract", m.Template)
		assert.Equal(t, int64(2), m.TypeVersion)
		assert.True(t, m.CanEdit)
		assert.Len(t, m.Values, 6, "custom keys are kept, system keys are not among them")
		// The exact text of a number survives a round trip.
		b, err := json.Marshal(m)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"amount":12345678901234567.25`)
		assert.Contains(t, string(b), `"$version":0`, "a zero the record had is written back")
		assert.Contains(t, string(b), `"$futureKey":{"nested":[1,2]}`, "unknown system keys are kept")
	})
	t.Run("template", func(t *testing.T) {
		t.Parallel()
		tpl := testJSONMarshal[MetadataTemplate](t, "metadata_template.json")
		assert.Equal(t, MetadataFieldInteger, tpl.Field("legacyCount").Type, "integer fields decode")
		assert.Equal(t, MetadataFieldTaxonomy, tpl.Field("location").Type, "taxonomy fields decode")
		assert.Equal(t, []int{1, 2}, tpl.Field("location").OptionsRules.SelectableLevels)
		assert.Equal(t, "signed", tpl.Field("status").Options[1].Key)
		assert.Nil(t, tpl.Field("nope"))
	})
	t.Run("query results", func(t *testing.T) {
		t.Parallel()
		p := testJSONMarshal[MarkerPage[*MetadataQueryEntry]](t, "metadata_query_results.json")
		require.Len(t, p.Entries, 2)
		assert.Equal(t, "bWFya2VyOjI=", p.NextMarker)
		require.NotNil(t, p.Entries[0].File)
		require.NotNil(t, p.Entries[1].Folder)
		for i, want := range []float64{100.5, 7} {
			inst, err := p.Entries[i].Metadata(ScopeEnterprise, "contract")
			require.NoError(t, err)
			got, err := inst.Float64("amount")
			require.NoError(t, err)
			assert.Equal(t, want, got)
		}
		inst, err := p.Entries[0].Metadata(EnterpriseScope("27335"), "contract")
		require.NoError(t, err)
		assert.Equal(t, int64(3), inst.Version)
		_, err = p.Entries[0].Metadata(ScopeGlobal, "properties")
		assert.ErrorIs(t, err, ErrInvalidArgument)

		// The same reader serves a File fetched with metadata fields.
		var f File
		require.NoError(t, json.Unmarshal([]byte(`{"type":"file","id":"1","metadata":{"global":{"properties":{"$parent":"file_1","k":"v","n":42}}}}`), &f))
		inst, err = ItemMetadata(f.Metadata, ScopeGlobal, "properties")
		require.NoError(t, err)
		n, err := inst.Int64("n")
		require.NoError(t, err)
		assert.Equal(t, int64(42), n)
		_, err = inst.Int64("k")
		assert.Error(t, err)
		_, err = ItemMetadata(nil, ScopeGlobal, "properties")
		assert.ErrorIs(t, err, ErrInvalidArgument)
	})
}

func TestMetadataInstanceGetters(t *testing.T) {
	t.Parallel()
	m := new(MetadataInstance)
	require.NoError(t, json.Unmarshal(golden(t, "metadata_instance.json"), m))

	s, err := m.String("customer")
	require.NoError(t, err)
	assert.Equal(t, "Acme / Sons ~ Co", s)

	n, err := m.Number("amount")
	require.NoError(t, err)
	assert.Equal(t, "12345678901234567.25", n.String(), "the exact text")
	f, err := m.Float64("amount")
	require.NoError(t, err)
	assert.Equal(t, 12345678901234567.25, f)
	f, err = m.Float64("tiny")
	require.NoError(t, err)
	assert.Equal(t, 1e-300, f, "no float32 step loses it")

	tm, err := m.Time("expires")
	require.NoError(t, err)
	assert.True(t, tm.Equal(time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)))

	ss, err := m.Strings("regions")
	require.NoError(t, err)
	assert.Equal(t, []string{"emea", "apac"}, ss)

	for _, key := range []string{"status", "missing"} {
		_, err = m.String(key)
		assert.ErrorIs(t, err, ErrMetadataValueNotSet, key)
	}
	_, err = m.Float64("customer")
	assert.Error(t, err, "a string is not a number")
	_, err = m.Time("customer")
	assert.Error(t, err)
	_, err = m.Strings("amount")
	assert.Error(t, err)
	raw, ok := m.Raw("regions")
	assert.True(t, ok)
	assert.JSONEq(t, `["emea","apac"]`, string(raw))

	type contract struct {
		Version  int64     `json:"$version"`
		Amount   float64   `json:"amount"`
		Customer string    `json:"customer"`
		Expires  time.Time `json:"expires"`
		Regions  []string  `json:"regions"`
		Status   *string   `json:"status"`
	}
	var c contract
	require.NoError(t, m.Decode(&c))
	assert.Equal(t, contract{Amount: 12345678901234567.25, Customer: "Acme / Sons ~ Co", Expires: tm, Regions: []string{"emea", "apac"}}, c)

	require.NoError(t, m.Set("customer", "Globex"))
	require.NoError(t, m.Set("expires", time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)))
	assert.JSONEq(t, `"2027-01-02T00:00:00.000Z"`, string(m.Values["expires"]), "dates in the service's form")
	assert.ErrorIs(t, m.Set("$version", 3), ErrInvalidArgument)
	assert.ErrorIs(t, m.Set("x", make(chan int)), ErrInvalidArgument)

	assert.Error(t, json.Unmarshal([]byte(`null`), new(MetadataInstance)))
	assert.Error(t, json.Unmarshal([]byte(`{"$version":"x"}`), new(MetadataInstance)))
	var lenient MetadataInstance
	require.NoError(t, json.Unmarshal([]byte(`{"$version":"4","$id":null}`), &lenient))
	assert.Equal(t, int64(4), lenient.Version)
}

func TestMetadataValues(t *testing.T) {
	t.Parallel()
	type contract struct {
		Version int64    `json:"$version,omitempty"`
		Amount  float64  `json:"amount"`
		Regions []string `json:"regions,omitempty"`
	}
	v, err := MetadataValues(contract{Version: 3, Amount: 1.5})
	require.NoError(t, err)
	assert.Equal(t, map[string]json.RawMessage{"amount": json.RawMessage("1.5")}, v, "system keys are left out")
	v, err = MetadataValues(map[string]any{"a": "b"})
	require.NoError(t, err)
	assert.JSONEq(t, `"b"`, string(v["a"]))
	v, err = MetadataValues(nil)
	require.NoError(t, err)
	assert.Empty(t, v)
	inst := &MetadataInstance{Values: map[string]json.RawMessage{"k": json.RawMessage(`1`)}}
	v, err = MetadataValues(inst)
	require.NoError(t, err)
	v["k"] = json.RawMessage(`2`)
	assert.JSONEq(t, `1`, string(inst.Values["k"]), "a copy")
	for _, bad := range []any{[]string{"a"}, "text", 4, make(chan int)} {
		_, err = MetadataValues(bad)
		assert.ErrorIs(t, err, ErrInvalidArgument, bad)
	}
	_, err = MetadataValue(json.RawMessage(`{`))
	assert.ErrorIs(t, err, ErrInvalidArgument)
}

func TestMetadataScope(t *testing.T) {
	t.Parallel()
	for _, good := range []string{"global", "enterprise", "enterprise_27335", "enterprise_abc1"} {
		s, err := ParseMetadataScope(good)
		require.NoError(t, err, good)
		assert.Equal(t, MetadataScope(good), s)
	}
	for _, bad := range []string{"", "Global", "enterprise_", "enterprise_1/2", "enterprise_1.x", "user_1", "enterprise 1"} {
		_, err := ParseMetadataScope(bad)
		assert.ErrorIs(t, err, ErrInvalidArgument, bad)
	}
	assert.Equal(t, "27335", EnterpriseScope("27335").EnterpriseID())
	assert.Equal(t, "", ScopeEnterprise.EnterpriseID())
	assert.True(t, ScopeGlobal.IsFull())
	assert.True(t, EnterpriseScope("1").IsFull())
	assert.False(t, ScopeEnterprise.IsFull())

	for key, ok := range map[string]bool{"contract": true, "_a-b9": true, "": false, "9a": false, "-a": false, "a.b": false, "a/b": false, strings.Repeat("a", 65): false, strings.Repeat("a", 64): true} {
		assert.Equal(t, ok, checkTemplateKey(key) == nil, key)
	}
}

func TestMetadataEnterpriseScope(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	answer := `{"type":"user","id":"7","enterprise":{"type":"enterprise","id":"27335","name":"Acme"}}`
	e.api.HandleFunc("GET /users/me", func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "enterprise", r.URL.Query().Get("fields"))
		_, _ = io.WriteString(w, answer)
	})
	ctx := context.Background()
	s, _, err := e.client.Metadata.EnterpriseScope(ctx)
	require.NoError(t, err)
	assert.Equal(t, EnterpriseScope("27335"), s)

	s, resp, err := e.client.Metadata.ResolveScope(ctx, ScopeGlobal)
	require.NoError(t, err)
	assert.Nil(t, resp, "no call for a full scope")
	assert.Equal(t, ScopeGlobal, s)
	s, _, err = e.client.Metadata.ResolveScope(ctx, ScopeEnterprise)
	require.NoError(t, err)
	assert.Equal(t, EnterpriseScope("27335"), s)
	_, _, err = e.client.Metadata.ResolveScope(ctx, "bogus")
	assert.ErrorIs(t, err, ErrInvalidArgument)

	answer = `{"type":"user","id":"7","enterprise":null}`
	_, resp, err = e.client.Metadata.EnterpriseScope(ctx)
	assert.ErrorIs(t, err, ErrNoEnterprise, "a user outside any enterprise")
	var ae *ArgError
	assert.False(t, errors.As(err, &ae), "the service was asked: not an *ArgError")
	assert.NotNil(t, resp)
	_, _, err = e.client.Metadata.ResolveScope(ctx, ScopeEnterprise)
	assert.ErrorIs(t, err, ErrNoEnterprise)
	assert.Len(t, e.requests(), 4, "each resolution is one GET /users/me")
}

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
		"raw path":        NewMetadataPatch().Op(PatchOperation{Op: PatchRemove, Path: "a"}),
		"raw from":        NewMetadataPatch().Op(PatchOperation{Op: PatchMove, Path: "/a", From: "b"}),
		"raw value":       NewMetadataPatch().Op(PatchOperation{Op: PatchAdd, Path: "/a", Value: json.RawMessage(`{`)}),
	} {
		assert.ErrorIs(t, bad.Err(), ErrInvalidArgument, name)
		_, err := json.Marshal(bad)
		assert.Error(t, err, name)
		// The first error stays; later calls add nothing.
		n := len(bad.Operations())
		bad.Add("ok", 1)
		assert.Len(t, bad.Operations(), n, name)
	}
	raw := NewMetadataPatch().Op(PatchOperation{Op: PatchAdd, Path: "/tags/-", Value: json.RawMessage(`"c"`)})
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
		AddFieldOp(MetadataField{Type: MetadataFieldEnum, Key: "stage", DisplayName: "Stage", Options: []*MetadataOption{{Key: "lead"}}}),
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
		"editTemplate nil data":         {Op: OpEditTemplate, Data: (*TemplateChanges)(nil)},
		"addField no type":              AddFieldOp(MetadataField{Key: "k", DisplayName: "K"}),
		"addField integer":              AddFieldOp(MetadataField{Type: MetadataFieldInteger, Key: "k", DisplayName: "K"}),
		"addField no key":               AddFieldOp(MetadataField{Type: MetadataFieldString, DisplayName: "K"}),
		"addField no name":              AddFieldOp(MetadataField{Type: MetadataFieldString, Key: "k"}),
		"addField empty option":         AddFieldOp(MetadataField{Type: MetadataFieldEnum, Key: "k", DisplayName: "K", Options: []*MetadataOption{{}}}),
		"addField repeated option":      AddFieldOp(MetadataField{Type: MetadataFieldEnum, Key: "k", DisplayName: "K", Options: []*MetadataOption{{Key: "a"}, {Key: "a"}}}),
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
		"literal addField without data": {Op: OpAddField},
	} {
		assert.ErrorIs(t, bad.validate(), ErrInvalidArgument, name)
	}
	// A literal operation with data of the caller's own shape only needs the data.
	lit := TemplateOp{Op: OpAddEnumOption, FieldKey: "f", Data: map[string]string{"key": "x"}}
	assert.NoError(t, lit.validate())
}

func TestMetadataQueryBuilder(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)
	q := NewMetadataQuery(EnterpriseScope("27335"), "contract", "0").
		Where(QueryField("amount").Ge(1000)).
		Where(QueryOr(QueryField("status").Eq("signed"), QueryNot(QueryField("customer").ILike(LikeEscape("50%_off\\")+"%")))).
		Where(QueryField("regions").HasAny("emea", "apac")).
		Where(QueryField("due").Lt(due)).
		Where(QueryField("stage").NotIn("lost", "dead")).
		Where(QueryField("note").IsNull()).
		Where(QueryField("item.name").Like("Q1%")).
		OrderBy(QueryDesc, "amount").OrderBy("desc", "due").
		Limit(50).
		Fields("name").
		WithMetadata("amount", "status").
		Marker("m1")
	body, err := q.Request()
	require.NoError(t, err)
	b, err := json.Marshal(body)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"from":"enterprise_27335.contract",
		"ancestor_folder_id":"0",
		"query":"amount >= :p1 AND (status = :p2 OR NOT (customer ILIKE :p3)) AND regions HASANY (:p4, :p5) AND due < :p6 AND stage NOT IN (:p7, :p8) AND note IS NULL AND item.name LIKE :p9",
		"query_params":{"p1":1000,"p2":"signed","p3":"50\\%\\_off\\\\%","p4":"emea","p5":"apac","p6":"2026-01-31T00:00:00.000Z","p7":"lost","p8":"dead","p9":"Q1%"},
		"order_by":[{"field_key":"amount","direction":"DESC"},{"field_key":"due","direction":"DESC"}],
		"limit":50,
		"marker":"m1",
		"fields":["name","metadata.enterprise_27335.contract.amount","metadata.enterprise_27335.contract.status"]}`, string(b))

	// Building twice gives the identical body.
	again, err := q.Request()
	require.NoError(t, err)
	b2, _ := json.Marshal(again)
	assert.Equal(t, string(b), string(b2))

	minimal, err := NewMetadataQuery(EnterpriseScope("1"), "c", "12").WithMetadata().Request()
	require.NoError(t, err)
	b, _ = json.Marshal(minimal)
	assert.JSONEq(t, `{"from":"enterprise_1.c","ancestor_folder_id":"12","fields":["metadata.enterprise_1.c"]}`, string(b))

	raw, err := NewMetadataQuery(EnterpriseScope("1"), "c", "0").
		WhereRaw("amount >= :min AND region = :region", map[string]any{"min": 10.5, "region": "emea"}).Request()
	require.NoError(t, err)
	assert.JSONEq(t, `{"min":10.5,"region":"emea"}`, mustJSON(t, raw.QueryParams))

	good := func() *MetadataQuery { return NewMetadataQuery(EnterpriseScope("1"), "c", "0") }
	for name, bad := range map[string]*MetadataQuery{
		"shorthand scope":       NewMetadataQuery(ScopeEnterprise, "c", "0"),
		"global scope":          NewMetadataQuery(ScopeGlobal, "properties", "0"),
		"bad scope":             NewMetadataQuery("user_1", "c", "0"),
		"bad template key":      NewMetadataQuery(EnterpriseScope("1"), "a.b", "0"),
		"no ancestor":           NewMetadataQuery(EnterpriseScope("1"), "c", ""),
		"limit 0":               good().Limit(0),
		"limit 101":             good().Limit(101),
		"two directions":        good().OrderBy(QueryAsc, "a").OrderBy(QueryDesc, "b"),
		"bad direction":         good().OrderBy("up", "a"),
		"no order keys":         good().OrderBy(QueryAsc),
		"bad order key":         good().OrderBy(QueryAsc, "a b"),
		"empty field":           good().Fields(""),
		"bool value":            good().Where(QueryField("a").Eq(true)),
		"struct value":          good().Where(QueryField("a").Eq(struct{}{})),
		"bad json.Number":       good().Where(QueryField("a").Eq(json.Number("x"))),
		"bad field":             good().Where(QueryField("a = 1 OR b").Eq(1)),
		"empty IN":              good().Where(QueryField("a").In()),
		"empty OR":              good().Where(QueryOr()),
		"zero cond":             good().Where(QueryCond{}),
		"mixed":                 good().Where(QueryField("a").Eq(1)).WhereRaw("a = :a", map[string]any{"a": 1}),
		"mixed raw first":       good().WhereRaw("a = :a", map[string]any{"a": 1}).Where(QueryField("a").Eq(1)),
		"raw missing param":     good().WhereRaw("a = :a AND b = :b", map[string]any{"a": 1}),
		"raw unused param":      good().WhereRaw("a = :a", map[string]any{"a": 1, "b": 2}),
		"raw string literal":    good().WhereRaw("a = 'x'", nil),
		"raw number literal":    good().WhereRaw("a >= 10", nil),
		"raw empty":             good().WhereRaw("  ", nil),
		"raw typed param":       good().WhereRaw("a = :a", map[string]any{"a": []string{"x"}}),
		"nested error in NOT":   good().Where(QueryNot(QueryField("a").Eq(false))),
		"nested error in chain": good().Where(QueryAnd(QueryField("a").Eq(1), QueryField("").Eq(2))),
	} {
		_, err := bad.Request()
		var ae *ArgError
		assert.ErrorAs(t, err, &ae, name)
	}
	var nilQuery *MetadataQuery
	_, err = nilQuery.Request()
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, `a\\b\%c\_d`, LikeEscape(`a\b%c_d`))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestMetadataArgumentsRejectedBeforeSending(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	ctx := context.Background()
	md, tpl := e.client.Metadata, e.client.MetadataTemplates
	file, scope := OnFile("1"), ScopeEnterprise
	patch := NewMetadataPatch().Add("a", 1)
	okField := &MetadataField{Type: MetadataFieldString, Key: "a", DisplayName: "A"}
	errs := map[string]error{}
	call := func(name string, err error) { errs[name] = err }
	_, _, err := md.Get(ctx, OnFolder("0"), scope, "c")
	call("root folder", err)
	_, _, err = md.Get(ctx, OnFile(""), scope, "c")
	call("empty file id", err)
	_, _, err = md.Get(ctx, OnFile("../x"), scope, "c")
	call("bad file id", err)
	_, _, err = md.Get(ctx, MetadataItem{}, scope, "c")
	call("zero item", err)
	_, _, err = md.Get(ctx, file, "nope", "c")
	call("bad scope", err)
	_, _, err = md.Get(ctx, file, scope, "")
	call("empty key", err)
	_, _, err = md.List(ctx, OnFolder(""))
	call("list empty id", err)
	_, _, err = md.Create(ctx, file, scope, "c", []int{1})
	call("create non-object", err)
	_, _, err = md.Upsert(ctx, file, scope, "c", "x")
	call("upsert non-object", err)
	_, _, err = md.Update(ctx, file, scope, "c", nil)
	call("nil patch", err)
	_, _, err = md.Update(ctx, file, scope, "c", NewMetadataPatch())
	call("empty patch", err)
	_, _, err = md.Update(ctx, file, scope, "c", NewMetadataPatch().Add("", 1))
	call("bad patch", err)
	_, _, err = md.Update(ctx, file, scope, "c/d", patch)
	call("update bad key", err)
	_, err = md.Delete(ctx, OnFolder("0"), scope, "c")
	call("delete root", err)
	_, _, err = md.Query(ctx, NewMetadataQuery(scope, "c", "0"))
	call("query shorthand scope", err)
	_, _, err = md.Query(ctx, nil)
	call("nil query", err)
	_, err = md.NewQueryPaginator(NewMetadataQuery(EnterpriseScope("1"), "c", "0").Limit(500))
	call("paginator limit", err)
	for _, err := range md.QueryIter(ctx, NewMetadataQuery(EnterpriseScope("1"), "c", "0").Limit(500)) {
		call("iter limit", err)
	}
	_, _, err = tpl.Create(ctx, nil)
	call("nil create", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{Scope: ScopeGlobal, DisplayName: "x"})
	call("create global", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: ""})
	call("create no name", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: "x", TemplateKey: "a b"})
	call("create bad key", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: "x", Fields: []*MetadataField{okField, okField}})
	call("create repeated field", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: "x", Fields: []*MetadataField{nil}})
	call("create nil field", err)
	_, _, err = tpl.Get(ctx, "", "c")
	call("template empty scope", err)
	_, _, err = tpl.GetByID(ctx, "")
	call("template empty id", err)
	_, err = tpl.Delete(ctx, scope, "")
	call("delete empty key", err)
	_, _, err = tpl.UpdateSchema(ctx, scope, "c")
	call("no ops", err)
	_, _, err = tpl.UpdateSchema(ctx, scope, "c", AddFieldOp(*okField), RemoveFieldOp(""))
	call("one bad op", err)
	_, _, err = tpl.ListEnterprise(ctx, &ListMetadataTemplatesOptions{Limit: -1})
	call("negative limit", err)
	_, _, err = tpl.ListByInstance(ctx, "", nil)
	call("no instance id", err)
	for _, err := range tpl.ListByInstanceIter(ctx, "a/b", nil) {
		call("iter bad instance id", err)
	}
	for name, err := range errs {
		var ae *ArgError
		assert.ErrorAs(t, err, &ae, name)
	}
	assert.Empty(t, e.reqs, "nothing was sent")
}

func TestMetadataErrorSentinels(t *testing.T) {
	t.Parallel()
	// Metadata errors come without type and status; the status is HTTP's.
	for _, c := range []struct {
		status   int
		code     string
		sentinel error
		byStatus error
	}{
		{409, "tuple_already_exists", ErrTupleAlreadyExists, ErrConflict},
		{404, "instance_not_found", ErrInstanceNotFound, ErrNotFound},
		{404, "instance_tuple_not_found", ErrInstanceTupleNotFound, ErrNotFound},
		{400, "schema_validation_failed", ErrSchemaValidationFailed, ErrBadRequest},
		{409, "failed_json_patch_application", ErrFailedJSONPatch, ErrConflict},
		{400, "invalid_query", ErrInvalidQuery, ErrBadRequest},
		{400, "unexpected_json_type", ErrUnexpectedJSONType, ErrBadRequest},
	} {
		body := `{"message":"value differs from expectations","code":"` + c.code + `","request_id":"abc123"}`
		err := CheckResponse(errorResponse(c.status, body, nil))
		var ae *APIError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, c.status, ae.StatusCode)
		assert.Equal(t, c.code, ae.Code)
		assert.Equal(t, "value differs from expectations", ae.Message)
		assert.Equal(t, "abc123", ae.RequestID)
		assert.Equal(t, body, string(ae.Body), "the body is kept whole")
		assert.ErrorIs(t, err, c.sentinel)
		assert.ErrorIs(t, err, c.byStatus)
		if c.sentinel != ErrInvalidQuery {
			assert.NotErrorIs(t, err, ErrInvalidQuery, c.code)
		}
		assert.Contains(t, c.sentinel.Error(), c.code)
	}
	err := CheckResponse(errorResponse(404, `{"code":"instance_not_found"}`, nil))
	assert.NotErrorIs(t, err, ErrTupleAlreadyExists)

	// A field of an unexpected type loses only itself.
	err = CheckResponse(errorResponse(400, `{"code":"invalid_query","message":7,"request_id":"r9","status":"400"}`, nil))
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "invalid_query", ae.Code)
	assert.Equal(t, "r9", ae.RequestID)
	assert.Equal(t, 400, ae.StatusCode)
	// A message without a code is not overwritten by the OAuth fallback.
	err = CheckResponse(errorResponse(400, `{"message":"Could not find field: attr5"}`, nil))
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "Could not find field: attr5", ae.Message)
}
