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
		assert.Equal(t, MetadataFieldTypeInteger, tpl.Field("legacyCount").Type, "integer fields decode")
		assert.Equal(t, MetadataFieldTypeTaxonomy, tpl.Field("location").Type, "taxonomy fields decode")
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
			inst, err := p.Entries[i].Metadata(MetadataScopeEnterprise, "contract")
			require.NoError(t, err)
			got, err := inst.Float64("amount")
			require.NoError(t, err)
			assert.Equal(t, want, got)
		}
		inst, err := p.Entries[0].Metadata(EnterpriseScope("27335"), "contract")
		require.NoError(t, err)
		assert.Equal(t, int64(3), inst.Version)
		_, err = p.Entries[0].Metadata(MetadataScopeGlobal, "properties")
		assert.ErrorIs(t, err, ErrInvalidArgument)

		// The same reader serves a File fetched with metadata fields.
		var f File
		require.NoError(t, json.Unmarshal([]byte(`{"type":"file","id":"1","metadata":{"global":{"properties":{"$parent":"file_1","k":"v","n":42}}}}`), &f))
		inst, err = ItemMetadata(f.Metadata, MetadataScopeGlobal, "properties")
		require.NoError(t, err)
		n, err := inst.Int64("n")
		require.NoError(t, err)
		assert.Equal(t, int64(42), n)
		_, err = inst.Int64("k")
		assert.Error(t, err)
		_, err = ItemMetadata(nil, MetadataScopeGlobal, "properties")
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
	assert.Equal(t, "", MetadataScopeEnterprise.EnterpriseID())
	assert.True(t, MetadataScopeGlobal.IsFull())
	assert.True(t, EnterpriseScope("1").IsFull())
	assert.False(t, MetadataScopeEnterprise.IsFull())

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

	s, resp, err := e.client.Metadata.ResolveScope(ctx, MetadataScopeGlobal)
	require.NoError(t, err)
	assert.Nil(t, resp, "no call for a full scope")
	assert.Equal(t, MetadataScopeGlobal, s)
	s, _, err = e.client.Metadata.ResolveScope(ctx, MetadataScopeEnterprise)
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
	_, _, err = e.client.Metadata.ResolveScope(ctx, MetadataScopeEnterprise)
	assert.ErrorIs(t, err, ErrNoEnterprise)
	assert.Len(t, e.requests(), 4, "each resolution is one GET /users/me")
}
