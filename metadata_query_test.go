package cms

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
		OrderBy(SortDirectionDescending, "amount").OrderBy("desc", "due").
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
	assert.JSONEq(t, `{"from":"enterprise_1.c","ancestor_folder_id":"12","fields":["name","metadata.enterprise_1.c"]}`, string(b))

	// Name is asked for by default; OnlyFields replaces the set.
	plain, err := NewMetadataQuery(EnterpriseScope("1"), "c", "12").Request()
	require.NoError(t, err)
	assert.Equal(t, []string{"name"}, plain.Fields)
	only, err := NewMetadataQuery(EnterpriseScope("1"), "c", "12").OnlyFields("size").Request()
	require.NoError(t, err)
	assert.Equal(t, []string{"size"}, only.Fields)
	none, err := NewMetadataQuery(EnterpriseScope("1"), "c", "12").OnlyFields().Request()
	require.NoError(t, err)
	assert.Empty(t, none.Fields)

	raw, err := NewMetadataQuery(EnterpriseScope("1"), "c", "0").
		WhereRaw("amount >= :min AND region = :region", map[string]any{"min": 10.5, "region": "emea"}).Request()
	require.NoError(t, err)
	assert.JSONEq(t, `{"min":10.5,"region":"emea"}`, mustJSON(t, raw.QueryParams))

	good := func() *MetadataQuery { return NewMetadataQuery(EnterpriseScope("1"), "c", "0") }
	for name, bad := range map[string]*MetadataQuery{
		"shorthand scope":       NewMetadataQuery(MetadataScopeEnterprise, "c", "0"),
		"global scope":          NewMetadataQuery(MetadataScopeGlobal, "properties", "0"),
		"bad scope":             NewMetadataQuery("user_1", "c", "0"),
		"bad template key":      NewMetadataQuery(EnterpriseScope("1"), "a.b", "0"),
		"no ancestor":           NewMetadataQuery(EnterpriseScope("1"), "c", ""),
		"limit 0":               good().Limit(0),
		"limit 101":             good().Limit(101),
		"two directions":        good().OrderBy(SortDirectionAscending, "a").OrderBy(SortDirectionDescending, "b"),
		"bad direction":         good().OrderBy("up", "a"),
		"no order keys":         good().OrderBy(SortDirectionAscending),
		"bad order key":         good().OrderBy(SortDirectionAscending, "a b"),
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
