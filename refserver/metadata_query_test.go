package refserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// queryEnv holds a template "contract" with instances c1..c7:
// c1..c4 on files in folder Deals, c5 on a file in Deals/Sub, c6 on a file
// in the user's folder Other, c7 on a file of the admin.
type queryEnv struct {
	*mdEnv
	deals string
	names map[string]string // item id → instance name (c1..c7)
	from  string
}

func newQueryEnv(t *testing.T) *queryEnv {
	e := newMDEnv(t)
	e.createTemplate("contract", contractFields())
	q := &queryEnv{mdEnv: e, names: map[string]string{}, from: e.scope + ".contract"}
	q.deals = e.createFolder(e.user, "0", "Deals")["id"].(string)
	sub := e.createFolder(e.user, q.deals, "Sub")["id"].(string)
	other := e.createFolder(e.user, "0", "Other")["id"].(string)
	add := func(token, folder, name string, values map[string]any) {
		id := e.uploadFile(token, folder, "f"+name[1:]+".pdf", []byte(name))["id"].(string)
		resp, m := e.doJSON("POST", e.instanceURL("file", id, "enterprise", "contract"), token, values, nil)
		require.Equal(t, 201, resp.StatusCode, "%v", m)
		q.names[id] = name
	}
	add(e.user, q.deals, "c1", map[string]any{"customer": "Acme", "amount": 50, "status": "active", "regions": []string{"emea"}, "signed": "2025-01-10T00:00:00Z"})
	add(e.user, q.deals, "c2", map[string]any{"customer": "acme labs", "amount": 150, "status": "draft", "regions": []string{"emea", "apac"}, "signed": "2025-02-10T00:00:00Z"})
	add(e.user, q.deals, "c3", map[string]any{"customer": "Beta 20%", "amount": 250, "status": "closed", "regions": []string{"amer"}})
	add(e.user, q.deals, "c4", map[string]any{"customer": "Box_Co", "status": "active", "regions": []string{}})
	add(e.user, sub, "c5", map[string]any{"customer": "Gamma", "amount": 100, "signed": "2025-03-01T00:00:00Z"})
	add(e.user, other, "c6", map[string]any{"customer": "Acme", "amount": 999})
	add(e.admin, "0", "c7", map[string]any{"customer": "Acme", "amount": 1})
	return q
}

func (q *queryEnv) query(token string, body map[string]any) (*http.Response, map[string]any) {
	q.t.Helper()
	// Defaults for the two required members; nil leaves one out.
	for k, def := range map[string]any{"from": q.from, "ancestor_folder_id": q.deals} {
		if v, ok := body[k]; !ok {
			body[k] = def
		} else if v == nil {
			delete(body, k)
		}
	}
	return q.doJSON("POST", q.api("/metadata_queries/execute_read"), token, body, nil)
}

// run pages through a query with the given limit and returns the names in
// the order received and the number of pages.
func (q *queryEnv) run(token string, body map[string]any, limit int) ([]string, int) {
	q.t.Helper()
	body["limit"] = limit
	var names []string
	pages := 0
	for {
		resp, m := q.query(token, body)
		require.Equal(q.t, 200, resp.StatusCode, "%v", m)
		pages++
		assert.EqualValues(q.t, limit, m["limit"])
		entries := m["entries"].([]any)
		require.LessOrEqual(q.t, len(entries), limit)
		for _, en := range entries {
			names = append(names, q.names[en.(map[string]any)["id"].(string)])
		}
		nm, ok := m["next_marker"].(string)
		if !ok {
			return names, pages
		}
		require.NotEmpty(q.t, nm)
		body["marker"] = nm
	}
}

func TestMetadataQueryOperators(t *testing.T) {
	t.Parallel()
	q := newQueryEnv(t)
	cases := []struct {
		query  string
		params map[string]any
		want   []string
	}{
		{"", nil, []string{"c1", "c2", "c3", "c4", "c5"}},
		{"customer = :c", map[string]any{"c": "Acme"}, []string{"c1"}},
		{"customer <> :c", map[string]any{"c": "Acme"}, []string{"c2", "c3", "c4", "c5"}},
		{"customer != :c", map[string]any{"c": "Acme"}, []string{"c2", "c3", "c4", "c5"}},
		{"amount > :a", map[string]any{"a": 100}, []string{"c2", "c3"}},
		{"amount >= :a", map[string]any{"a": 100.0}, []string{"c2", "c3", "c5"}},
		{"amount < :a", map[string]any{"a": 100}, []string{"c1"}},
		{"amount <= :a", map[string]any{"a": 100}, []string{"c1", "c5"}},
		{"amount = :a", map[string]any{"a": 150.0}, []string{"c2"}},
		{"NOT amount > :a", map[string]any{"a": 100}, []string{"c1", "c5"}},
		{"amount IS NULL", nil, []string{"c4"}},
		{"amount is not null", nil, []string{"c1", "c2", "c3", "c5"}},
		{"customer LIKE :p", map[string]any{"p": "Acme%"}, []string{"c1"}},
		{"customer ILIKE :p", map[string]any{"p": "ACME%"}, []string{"c1", "c2"}},
		{"customer NOT LIKE :p", map[string]any{"p": "%a%"}, []string{"c1", "c4"}},
		{"customer NOT ILIKE :p", map[string]any{"p": "%A%"}, []string{"c4"}},
		{"customer LIKE :p", map[string]any{"p": `Beta 20\%`}, []string{"c3"}},
		{"customer LIKE :p", map[string]any{"p": `%0\%`}, []string{"c3"}},
		{"customer LIKE :p", map[string]any{"p": `Box\_Co`}, []string{"c4"}},
		{"customer LIKE :p", map[string]any{"p": "Bo__Co"}, []string{"c4"}},
		{"customer LIKE :p", map[string]any{"p": "Bo_Co"}, nil},
		{"customer LIKE :p", map[string]any{"p": "_"}, nil},
		{"customer LIKE :p", map[string]any{"p": "%"}, []string{"c1", "c2", "c3", "c4", "c5"}},
		{"status IN (:a, :b)", map[string]any{"a": "active", "b": "closed"}, []string{"c1", "c3", "c4"}},
		{"status NOT IN (:a)", map[string]any{"a": "active"}, []string{"c2", "c3"}},
		{"amount IN (:a,:b)", map[string]any{"a": 50, "b": 250}, []string{"c1", "c3"}},
		{"regions HASANY (:a, :b)", map[string]any{"a": "apac", "b": "amer"}, []string{"c2", "c3"}},
		{"regions HASALL (:a, :b)", map[string]any{"a": "emea", "b": "apac"}, []string{"c2"}},
		{"status HASANY (:a)", map[string]any{"a": "draft"}, []string{"c2"}},
		{"(amount > :a OR status = :s) AND NOT customer = :c", map[string]any{"a": 200, "s": "active", "c": "Acme"}, []string{"c3", "c4"}},
		{"amount > :a or status = :s and customer = :c", map[string]any{"a": 200, "s": "active", "c": "Box_Co"}, []string{"c3", "c4"}},
		{"NOT (amount < :a) AND amount IS NOT NULL", map[string]any{"a": 150}, []string{"c2", "c3"}},
		{"signed >= :d", map[string]any{"d": "2025-02-01T00:00:00Z"}, []string{"c2", "c5"}},
		{"signed > :d", map[string]any{"d": "2025-02-10T00:00:00.001Z"}, []string{"c5"}},
		{"item.name LIKE :p", map[string]any{"p": "f1%"}, []string{"c1"}},
		{"item.type = :t AND item.extension = :x", map[string]any{"t": "file", "x": "pdf"}, []string{"c1", "c2", "c3", "c4", "c5"}},
		{"item.created_at >= :d", map[string]any{"d": "2025-03-01T00:00:00Z"}, []string{"c1", "c2", "c3", "c4", "c5"}},
		{"item.owned_by = :u", map[string]any{"u": "user_2000002"}, []string{"c1", "c2", "c3", "c4", "c5"}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			body := map[string]any{"query": c.query}
			if c.params != nil {
				body["query_params"] = c.params
			}
			got, _ := q.run(q.user, body, 100)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestMetadataQueryScopeAndFields(t *testing.T) {
	t.Parallel()
	q := newQueryEnv(t)
	got, _ := q.run(q.user, map[string]any{"ancestor_folder_id": "0"}, 100)
	assert.Equal(t, []string{"c1", "c2", "c3", "c4", "c5", "c6"}, got, "the user sees only their items")
	got, _ = q.run(q.admin, map[string]any{"ancestor_folder_id": "0"}, 100)
	assert.Equal(t, []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7"}, got)

	resp, m := q.query(q.user, map[string]any{"query": "customer = :c", "query_params": map[string]any{"c": "Gamma"}})
	require.Equal(t, 200, resp.StatusCode)
	entry := m["entries"].([]any)[0].(map[string]any)
	assert.Len(t, entry, 3, "base representation: type, id, etag")
	assert.Equal(t, "file", entry["type"])
	assert.NotEmpty(t, entry["etag"])

	resp, m = q.query(q.user, map[string]any{
		"query": "customer = :c", "query_params": map[string]any{"c": "Gamma"},
		"fields": []string{"name", "created_at", "permissions", "metadata." + q.scope + ".contract",
			"metadata." + q.scope + ".contract.amount", "metadata.enterprise.contract.customer",
			"metadata." + q.scope + ".contract.nope", "metadata." + q.scope + ".nope", "metadata.global.properties"},
	})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	entry = m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "f5.pdf", entry["name"])
	assert.NotEmpty(t, entry["created_at"])
	assert.NotNil(t, entry["permissions"])
	inst := entry["metadata"].(map[string]any)[q.scope].(map[string]any)["contract"].(map[string]any)
	assert.Equal(t, map[string]any{
		"$parent": "file_" + entry["id"].(string), "$scope": q.scope, "$template": "contract", "$version": 0.0,
		"amount": 100.0, "customer": "Gamma",
	}, inst)
	assert.NotContains(t, entry["metadata"], "global", "no properties instance on the item")
}

func TestMetadataQueryOrderAndPaging(t *testing.T) {
	t.Parallel()
	q := newQueryEnv(t)
	orders := []struct {
		name    string
		orderBy []any
		want    []string
	}{
		{"creation", nil, []string{"c1", "c2", "c3", "c4", "c5"}},
		{"float asc, null last", []any{map[string]any{"field_key": "amount", "direction": "ASC"}}, []string{"c1", "c5", "c2", "c3", "c4"}},
		{"float desc", []any{map[string]any{"field_key": "amount", "direction": "desc"}}, []string{"c4", "c3", "c2", "c5", "c1"}},
		{"string asc, byte order", []any{map[string]any{"field_key": "customer", "direction": "asc"}}, []string{"c1", "c3", "c4", "c5", "c2"}},
		{"date desc", []any{map[string]any{"field_key": "signed", "direction": "DESC"}}, []string{"c4", "c3", "c5", "c2", "c1"}},
		{"item field", []any{map[string]any{"field_key": "item.name", "direction": "DESC"}}, []string{"c5", "c4", "c3", "c2", "c1"}},
		{"two keys", []any{map[string]any{"field_key": "signed", "direction": "ASC"}, map[string]any{"field_key": "amount", "direction": "ASC"}}, []string{"c1", "c2", "c5", "c3", "c4"}},
	}
	for _, o := range orders {
		for _, limit := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("%s/%d", o.name, limit), func(t *testing.T) {
				body := map[string]any{}
				if o.orderBy != nil {
					body["order_by"] = o.orderBy
				}
				got, pages := q.run(q.user, body, limit)
				assert.Equal(t, o.want, got)
				assert.Equal(t, (len(o.want)+limit-1)/limit, pages)
			})
		}
	}

	// A filtered, sorted walk stays right while values change under it:
	// the marker is a position, not an offset.
	body := map[string]any{"query": "amount >= :a", "query_params": map[string]any{"a": 0}, "limit": 2,
		"order_by": []any{map[string]any{"field_key": "amount", "direction": "ASC"}}}
	resp, m := q.query(q.user, body)
	require.Equal(t, 200, resp.StatusCode)
	c1 := m["entries"].([]any)[0].(map[string]any)["id"].(string)
	resp, pm := q.patch(q.instanceURL("file", c1, "enterprise", "contract"), q.user,
		[]any{map[string]any{"op": "replace", "path": "/amount", "value": 500}})
	require.Equal(t, 200, resp.StatusCode, "%v", pm)
	body["marker"] = m["next_marker"]
	resp, m = q.query(q.user, body)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	var rest []string
	for _, en := range m["entries"].([]any) {
		rest = append(rest, q.names[en.(map[string]any)["id"].(string)])
	}
	assert.Equal(t, []string{"c2", "c3"}, rest)
}

func TestMetadataQueryErrors(t *testing.T) {
	t.Parallel()
	q := newQueryEnv(t)
	adminFolder := q.createFolder(q.admin, "0", "Private")["id"].(string)
	resp, first := q.query(q.user, map[string]any{"query": "amount > :a", "query_params": map[string]any{"a": 0}, "limit": 1})
	require.Equal(t, 200, resp.StatusCode)
	marker := first["next_marker"].(string)

	type tc struct {
		name   string
		token  string
		body   map[string]any
		status int
		code   string
	}
	qry := func(query string, params map[string]any) map[string]any {
		return map[string]any{"query": query, "query_params": params}
	}
	p := map[string]any{"a": 1, "s": "x", "d": "2025-01-01T00:00:00Z"}
	cases := []tc{
		{"unfinished", q.user, qry("amount >", p), 400, "invalid_query"},
		{"dangling AND", q.user, qry("amount > :a AND", p), 400, "invalid_query"},
		{"open paren", q.user, qry("(amount > :a", p), 400, "invalid_query"},
		{"extra paren", q.user, qry("amount > :a)", p), 400, "invalid_query"},
		{"double operator", q.user, qry("amount >> :a", p), 400, "invalid_query"},
		{"number literal", q.user, qry("amount > 100", p), 400, "invalid_query"},
		{"string literal", q.user, qry("customer = 'x'", p), 400, "invalid_query"},
		{"empty placeholder", q.user, qry("amount > :", p), 400, "invalid_query"},
		{"term search", q.user, qry("customer ~ :s", p), 400, "invalid_query"},
		{"hasancestor", q.user, qry("customer HASANCESTOR (:s)", p), 400, "invalid_query"},
		{"bare NOT", q.user, qry("customer NOT = :s", p), 400, "invalid_query"},
		{"IS without NULL", q.user, qry("customer IS :s", p), 400, "invalid_query"},
		{"empty IN", q.user, qry("customer IN ()", p), 400, "invalid_query"},
		{"unknown field", q.user, qry("color = :s", p), 400, "invalid_query"},
		{"quick search", q.user, qry("item.quick_search_content = :s", p), 400, "invalid_query"},
		{"LIKE on float", q.user, qry("amount LIKE :a", p), 400, "invalid_query"},
		{"LIKE on enum", q.user, qry("status LIKE :s", p), 400, "invalid_query"},
		{"comparison on multiSelect", q.user, qry("regions = :s", p), 400, "invalid_query"},
		{"HASANY on string", q.user, qry("customer HASANY (:s)", p), 400, "invalid_query"},
		{"IN on multiSelect", q.user, qry("regions IN (:s)", p), 400, "unexpected_json_type"},
		{"missing parameter", q.user, qry("amount > :b", p), 400, "unexpected_json_type"},
		{"no query_params", q.user, map[string]any{"query": "amount > :a"}, 400, "unexpected_json_type"},
		{"number as string", q.user, qry("amount > :s", map[string]any{"s": "100"}), 400, "unexpected_json_type"},
		{"string as number", q.user, qry("customer = :a", p), 400, "unexpected_json_type"},
		{"bad date", q.user, qry("signed > :s", p), 400, "unexpected_json_type"},
		{"list parameter", q.user, qry("regions HASANY (:l)", map[string]any{"l": []string{"emea"}}), 400, "unexpected_json_type"},
		{"global from", q.user, map[string]any{"from": "global.properties"}, 400, "invalid_query"},
		{"shorthand from", q.user, map[string]any{"from": "enterprise.contract"}, 400, "invalid_query"},
		{"from without key", q.user, map[string]any{"from": "contract"}, 400, "invalid_query"},
		{"other enterprise", q.user, map[string]any{"from": "enterprise_42.contract"}, 404, "instance_not_found"},
		{"unknown template", q.user, map[string]any{"from": q.scope + ".nope"}, 404, "instance_not_found"},
		{"no from", q.user, map[string]any{"from": nil}, 400, "bad_request"},
		{"no ancestor", q.user, map[string]any{"ancestor_folder_id": nil}, 400, "bad_request"},
		{"other user's folder", q.user, map[string]any{"ancestor_folder_id": adminFolder}, 404, "not_found"},
		{"malformed folder", q.user, map[string]any{"ancestor_folder_id": "abc"}, 404, "not_found"},
		{"limit too big", q.user, map[string]any{"limit": 101}, 400, "bad_request"},
		{"negative limit", q.user, map[string]any{"limit": -1}, 400, "bad_request"},
		{"unknown member", q.user, map[string]any{"use_index": "x"}, 400, "bad_request"},
		{"order by enum", q.user, map[string]any{"order_by": []any{map[string]any{"field_key": "status", "direction": "ASC"}}}, 400, "invalid_query"},
		{"order by multiSelect", q.user, map[string]any{"order_by": []any{map[string]any{"field_key": "regions", "direction": "ASC"}}}, 400, "invalid_query"},
		{"order by unknown", q.user, map[string]any{"order_by": []any{map[string]any{"field_key": "nope", "direction": "ASC"}}}, 400, "invalid_query"},
		{"order without key", q.user, map[string]any{"order_by": []any{map[string]any{"direction": "ASC"}}}, 400, "invalid_query"},
		{"bad direction", q.user, map[string]any{"order_by": []any{map[string]any{"field_key": "amount", "direction": "up"}}}, 400, "invalid_query"},
		{"mixed directions", q.user, map[string]any{"order_by": []any{
			map[string]any{"field_key": "amount", "direction": "ASC"}, map[string]any{"field_key": "customer", "direction": "desc"}}}, 400, "invalid_query"},
		{"marker of another query", q.user, map[string]any{"query": "amount > :a", "query_params": map[string]any{"a": 1}, "limit": 1, "marker": marker}, 400, "invalid_query"},
		{"marker with other limit", q.user, map[string]any{"query": "amount > :a", "query_params": map[string]any{"a": 0}, "limit": 2, "marker": marker}, 400, "invalid_query"},
		{"garbage marker", q.user, map[string]any{"marker": "not-a-marker"}, 400, "bad_request"},
		{"app token", q.app, map[string]any{}, 403, "insufficient_scope"},
	}
	before := mdSnapshot(q.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := map[string]any{}
			for k, v := range c.body {
				body[k] = v
			}
			resp, m := q.query(c.token, body)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, mdSnapshot(q.s), "rejected queries changed state")

	// The same body with only the marker changed is fine, whatever the member order.
	resp, m := q.doJSON("POST", q.api("/metadata_queries/execute_read"), q.user,
		fmt.Sprintf(`{"marker":%q,"limit":1,"query_params":{"a":0},  "query":"amount > :a","ancestor_folder_id":%q,"from":%q}`, marker, q.deals, q.from), nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
}
