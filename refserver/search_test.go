package refserver

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// search runs GET /search with the query parameters of v and returns the
// names of the entries, in order, and the page.
func (e *env) search(token string, v url.Values) ([]string, map[string]any) {
	e.t.Helper()
	resp, m := e.doJSON("GET", e.api("/search?"+v.Encode()), token, nil, nil)
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "%v", m)
	var names []string
	for _, x := range m["entries"].([]any) {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	return names, m
}

func q(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func sorted(xs []string) []string { xs = slices.Clone(xs); slices.Sort(xs); return xs }

func TestSearchQueryLanguage(t *testing.T) {
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	e.uploadFile(tok, "0", "marketing plan.txt", []byte("Our BoxWorks booth: the Blue-Box stand."))
	e.uploadFile(tok, "0", "budget.txt", []byte("marketing spend for the year"))
	e.uploadFile(tok, "0", "boxworks notes.md", []byte("keynote schedule"))
	e.uploadFile(tok, "0", "photo.jpg", []byte("marketing")) // content of a non-text file is not indexed
	e.createFolder(tok, "0", "Marketing")

	cases := []struct {
		query string
		want  []string
	}{
		{"marketing", []string{"Marketing", "budget.txt", "marketing plan.txt"}},
		{"MARKETING", []string{"Marketing", "budget.txt", "marketing plan.txt"}},
		{"marketing boxworks", []string{"Marketing", "boxworks notes.md", "budget.txt", "marketing plan.txt"}}, // implicit OR
		{"marketing OR boxworks", []string{"Marketing", "boxworks notes.md", "budget.txt", "marketing plan.txt"}},
		{"marketing AND boxworks", []string{"marketing plan.txt"}},
		{"marketing AND NOT boxworks", []string{"Marketing", "budget.txt"}},
		{"NOT marketing AND keynote", []string{"boxworks notes.md"}},
		{`"blue box"`, []string{"marketing plan.txt"}},
		{`"Blue-Box"`, []string{"marketing plan.txt"}},
		{"blue.box", []string{"marketing plan.txt"}}, // a word of several words is a phrase
		{`"box blue"`, nil}, // words in that order only
		{`"booth the"`, []string{"marketing plan.txt"}},
		{"marketing and boxworks", []string{"Marketing", "boxworks notes.md", "budget.txt", "marketing plan.txt"}}, // lower-case "and" is a word
		{"AND", nil},
		{"--", nil},
	}
	for _, c := range cases {
		names, page := e.search(tok, q("query", c.query))
		require.Equal(t, sorted(c.want), sorted(names), "query %q", c.query)
		require.EqualValues(t, len(c.want), page["total_count"], "query %q", c.query)
		require.Equal(t, "search_results_items", page["type"])
	}

	// The name outweighs the content: the folder named Marketing and the
	// plan (name and content) come before the budget (content only).
	names, _ := e.search(tok, q("query", "marketing"))
	require.Equal(t, "budget.txt", names[2])

	// content_types limits the parts matched.
	names, _ = e.search(tok, q("query", "marketing", "content_types", "name"))
	require.Equal(t, []string{"Marketing", "marketing plan.txt"}, sorted(names))
	names, _ = e.search(tok, q("query", "marketing", "content_types", "file_content"))
	require.Equal(t, []string{"budget.txt"}, names)
	names, _ = e.search(tok, q("query", "boxworks", "content_types", "file_content,description"))
	require.Equal(t, []string{"marketing plan.txt"}, names)
}

func TestSearchFollowsChanges(t *testing.T) {
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "notes.txt", []byte("alpha"))
	id := f["id"].(string)
	names, _ := e.search(tok, q("query", "alpha"))
	require.Equal(t, []string{"notes.txt"}, names)

	// Tags and renames (PUT /files/{id}) reach the index.
	resp, _ := e.doJSON("PUT", e.api("/files/"+id), tok, map[string]any{"tags": []string{"quarterly-review"}, "name": "memo.txt"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	names, _ = e.search(tok, q("query", `"quarterly review"`, "content_types", "tags"))
	require.Equal(t, []string{"memo.txt"}, names)
	names, _ = e.search(tok, q("query", "notes", "content_types", "name"))
	require.Empty(t, names)

	e.newVersion(tok, id, []byte("omega"))
	names, _ = e.search(tok, q("query", "alpha"))
	require.Empty(t, names, "the old version's words are gone")
	names, _ = e.search(tok, q("query", "omega"))
	require.Equal(t, []string{"memo.txt"}, names)

	e.deleteOK(tok, "/files/"+id)
	names, _ = e.search(tok, q("query", "omega"))
	require.Empty(t, names, "trashed items are left out by default")
	names, _ = e.search(tok, q("query", "omega", "trash_content", "trashed_only"))
	require.Equal(t, []string{"memo.txt"}, names)
	names, _ = e.search(tok, q("query", "omega", "trash_content", "all_items"))
	require.Equal(t, []string{"memo.txt"}, names)

	resp, _ = e.do("DELETE", e.api("/files/"+id+"/trash"), tok, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	names, _ = e.search(tok, q("query", "omega", "trash_content", "all_items"))
	require.Empty(t, names, "a purged item is gone from the index")
}

func TestSearchOnlyWhatTheCallerSees(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	e.uploadFile(user, "0", "shared words user.txt", []byte("x"))
	e.uploadFile(admin, "0", "shared words admin.txt", []byte("x"))
	names, _ := e.search(user, q("query", "shared words"))
	require.Equal(t, []string{"shared words user.txt"}, names)
	names, _ = e.search(admin, q("query", "shared words"))
	require.Equal(t, []string{"shared words admin.txt", "shared words user.txt"}, sorted(names))

	resp, m := e.doJSON("GET", e.api("/search?query=shared&scope=enterprise_content"), user, nil, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	names, _ = e.search(admin, q("query", "shared", "scope", "enterprise_content"))
	require.Len(t, names, 2)
}

func TestSearchFilters(t *testing.T) {
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	dir := e.createFolder(tok, "0", "report folder")["id"].(string)
	sub := e.createFolder(tok, dir, "report sub")["id"].(string)
	e.uploadFile(tok, dir, "report a.txt", []byte("12345"))
	e.clock.Advance(time.Hour)
	e.uploadFile(tok, sub, "report b.pdf", []byte("1234567890"))
	e.uploadFile(tok, "0", "report c.txt", []byte("1"))
	resp, wl := e.doJSON("POST", e.api("/web_links"), tok, map[string]any{"url": "https://example.com", "name": "report link", "parent": map[string]any{"id": "0"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", wl)

	check := func(want []string, kv ...string) {
		t.Helper()
		names, _ := e.search(tok, q(append([]string{"query", "report"}, kv...)...))
		require.Equal(t, sorted(want), sorted(names), "%v", kv)
	}
	check([]string{"report a.txt", "report b.pdf", "report c.txt"}, "type", "file")
	check([]string{"report folder", "report sub"}, "type", "folder")
	check([]string{"report link"}, "type", "web_link")
	check([]string{"report a.txt", "report c.txt"}, "file_extensions", "txt")
	check([]string{"report a.txt", "report b.pdf", "report c.txt"}, "file_extensions", "txt,pdf")
	check([]string{"report sub", "report a.txt", "report b.pdf"}, "ancestor_folder_ids", dir)
	check([]string{"report b.pdf"}, "ancestor_folder_ids", sub)
	check([]string{"report a.txt", "report b.pdf", "report folder", "report sub"}, "size_range", "5,")
	check([]string{"report a.txt", "report c.txt"}, "size_range", ",5", "type", "file")
	check([]string{"report a.txt"}, "size_range", "5,5")
	start := e.clock.Now().Add(-30 * time.Minute).UTC().Format(time.RFC3339)
	check([]string{"report b.pdf", "report c.txt", "report link"}, "created_at_range", start+",")
	check([]string{"report folder", "report a.txt"}, "updated_at_range", ","+start) // report sub changed when b.pdf came in
	var me *state.User
	e.s.st.View(func(tx *state.ReadTx) { me = tx.Users.ByLogin[e.s.st.User.Login] })
	check([]string{"report a.txt", "report b.pdf", "report c.txt", "report folder", "report sub", "report link"}, "owner_user_ids", me.ID)
	check(nil, "owner_user_ids", "12345")
	check([]string{"report a.txt", "report b.pdf", "report c.txt", "report folder", "report sub", "report link"}, "recent_updater_user_ids", me.ID)
	check(nil, "deleted_at_range", start+",")

	// modified_at order, both ways, and paging with total_count.
	names, _ := e.search(tok, q("query", "report", "type", "file", "sort", "modified_at", "direction", "ASC"))
	require.Equal(t, "report a.txt", names[0])
	names, _ = e.search(tok, q("query", "report", "type", "file", "sort", "modified_at"))
	require.Equal(t, "report a.txt", names[2])
	var all []string
	for off := 0; off < 6; off += 4 {
		names, page := e.search(tok, q("query", "report", "sort", "modified_at", "limit", "4", "offset", fmt.Sprint(off)))
		require.EqualValues(t, 6, page["total_count"])
		require.EqualValues(t, 4, page["limit"])
		all = append(all, names...)
	}
	require.Len(t, all, 6)
	require.Len(t, slices.Compact(sorted(all)), 6, "every item once over the pages")

	// fields, and the shared-link form of the results.
	_, page := e.search(tok, q("query", "report c", "fields", "name,size", "type", "file", "file_extensions", "txt", "content_types", "name"))
	rec := page["entries"].([]any)[0].(map[string]any)
	require.EqualValues(t, 1, rec["size"])
	require.NotContains(t, rec, "created_at")
	resp, m := e.doJSON("GET", e.api("/search?query=report+c.txt&include_recent_shared_links=true&type=file"), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "search_results_with_shared_links", m["type"])
	first := m["entries"].([]any)[0].(map[string]any)
	require.Equal(t, "search_result", first["type"])
	require.Contains(t, first, "accessible_via_shared_link")
	require.Equal(t, "file", first["item"].(map[string]any)["type"])
}

func TestSearchRefusesBadParameters(t *testing.T) {
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	admin := e.s.AdminToken()
	hidden := e.createFolder(admin, "0", "admin only")["id"].(string)
	before := snapshot(e.s)
	for _, c := range []struct {
		query  string
		status int
		code   string
	}{
		{"", http.StatusBadRequest, codeMissingParameter},
		{"query=%20%20", http.StatusBadRequest, codeMissingParameter},
		{"query=a&type=document", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&scope=everything", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&trash_content=yes", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&sort=name", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&direction=up", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&content_types=body", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&created_at_range=yesterday", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&updated_at_range=2025-01-01,", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&size_range=big,", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&size_range=-1,5", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&owner_user_ids=me", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&include_recent_shared_links=maybe", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&deleted_user_ids=1&trash_content=trashed_only", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"mdfilters=nope", http.StatusBadRequest, wire.CodeInvalidParameter},
		{"mdfilters=" + url.QueryEscape(`[{"scope":"enterprise","templateKey":"none","filters":{}}]`), http.StatusBadRequest, wire.CodeInvalidParameter},
		{"query=a&offset=10001", http.StatusBadRequest, wire.CodeBadRequest},
		{"query=a&limit=0", http.StatusBadRequest, wire.CodeBadRequest},
		{"query=a&ancestor_folder_ids=" + hidden, http.StatusNotFound, wire.CodeNotFound},
		{"query=a&ancestor_folder_ids=abc", http.StatusNotFound, wire.CodeNotFound},
	} {
		resp, m := e.doJSON("GET", e.api("/search?"+c.query), tok, nil, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	require.Equal(t, before, snapshot(e.s))

	// A limit above 200 is lowered to 200.
	_, page := e.search(tok, q("query", "a", "limit", "5000"))
	require.EqualValues(t, 200, page["limit"])
}

func TestSearchMetadataFilters(t *testing.T) {
	e := newMDEnv(t)
	e.createTemplate("contract", contractFields())
	ids := map[string]string{}
	for i, name := range []string{"acme.txt", "globex.txt", "initech.txt"} {
		f := e.uploadFile(e.user, "0", name, []byte("contract text"))
		ids[name] = f["id"].(string)
		e.createInstance("file", ids[name], "enterprise", "contract", map[string]any{
			"customer": name[:len(name)-4], "amount": 100 * (i + 1), "signed": fmt.Sprintf("2025-0%d-15T00:00:00Z", i+1),
			"status": []string{"draft", "active", "closed"}[i], "regions": [][]string{{"emea"}, {"apac", "amer"}, {"emea", "amer"}}[i],
		})
	}
	e.uploadFile(e.user, "0", "no metadata.txt", []byte("contract text"))
	md := func(filters string) url.Values {
		return q("mdfilters", `[{"scope":"`+e.scope+`","templateKey":"contract","filters":`+filters+`}]`)
	}
	check := func(want []string, v url.Values) {
		t.Helper()
		names, _ := e.search(e.user, v)
		require.Equal(t, sorted(want), sorted(names), "%v", v)
	}
	check([]string{"acme.txt"}, md(`{"customer":"acme"}`))
	check([]string{"globex.txt", "initech.txt"}, md(`{"amount":{"gt":150}}`))
	check([]string{"acme.txt", "globex.txt"}, md(`{"amount":{"gt":100,"lt":200}}`))
	check([]string{"globex.txt"}, md(`{"signed":{"gt":"2025-02-01T00:00:00Z","lt":"2025-02-28T00:00:00Z"}}`))
	check([]string{"initech.txt"}, md(`{"status":"closed"}`))
	check([]string{"acme.txt", "initech.txt"}, md(`{"regions":"emea"}`))
	check([]string{"initech.txt"}, md(`{"regions":"emea","amount":{"gt":250}}`))
	v := md(`{"status":"active"}`)
	v.Set("query", "contract")
	check([]string{"globex.txt"}, v)
	// global scope's free-form properties template and a bad field or value.
	for _, bad := range []string{`{"nope":"x"}`, `{"amount":"many"}`, `{"status":"unknown"}`, `{"customer":{"gt":"a"}}`, `{"amount":{"ge":1}}`} {
		resp, m := e.doJSON("GET", e.api("/search?"+md(bad).Encode()), e.user, nil, nil)
		requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeInvalidParameter)
	}
}

// TestSearchMatchesWordPrefixes: a bare word also finds the words it
// begins, as Box's search guide shows ("cal" finds California), in names,
// descriptions and content; an item with the whole word ranks above one
// with a longer word; a quoted word and a phrase match whole words only.
func TestSearchMatchesWordPrefixes(t *testing.T) {
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	e.uploadFile(tok, "0", "California trip.txt", []byte("beaches"))
	e.uploadFile(tok, "0", "cal.txt", []byte("calendar of the year"))
	e.uploadFile(tok, "0", "local notes.txt", []byte("nothing here"))
	e.createFolder(tok, "0", "Calgary")

	cases := []struct {
		query string
		want  []string
	}{
		{"cal", []string{"California trip.txt", "cal.txt", "Calgary"}},
		{"CALIF", []string{"California trip.txt"}},
		{"calendar", []string{"cal.txt"}},
		{"cale", []string{"cal.txt"}}, // content words too
		{`"cal"`, []string{"cal.txt"}},
		{`"cal trip"`, nil},
		{"california tr", []string{"California trip.txt"}},
		{"cal AND NOT calgary", []string{"California trip.txt", "cal.txt"}},
		{"ocal", nil}, // a prefix, not a substring
	}
	for _, c := range cases {
		names, _ := e.search(tok, q("query", c.query))
		require.Equal(t, sorted(c.want), sorted(names), "query %q", c.query)
	}
	names, _ := e.search(tok, q("query", "cal", "content_types", "name"))
	require.Equal(t, "cal.txt", names[0], "the whole word ranks first")
}

func TestSearchQueryParser(t *testing.T) {
	render := func(n *state.SearchNode) string {
		var f func(*state.SearchNode) string
		f = func(n *state.SearchNode) string {
			if n == nil {
				return "<nil>"
			}
			switch n.Op {
			case state.OpWords:
				return fmt.Sprint(n.Words)
			case state.OpNot:
				return "NOT(" + f(n.Kids[0]) + ")"
			}
			s := map[state.SearchOp]string{state.OpAnd: "AND(", state.OpOr: "OR("}[n.Op]
			for i, k := range n.Kids {
				if i > 0 {
					s += " "
				}
				s += f(k)
			}
			return s + ")"
		}
		return f(n)
	}
	for in, want := range map[string]string{
		"a":                 "[a]",
		"a b":               "OR([a] [b])",
		"a AND b OR c":      "OR(AND([a] [b]) [c])",
		"a AND NOT b":       "AND([a] NOT([b]))",
		`"x y" z`:           "OR([x y] [z])",
		`"unclosed phrase`:  "[unclosed phrase]",
		"AND a":             "[a]",
		"a AND":             "[a]",
		"NOT":               "<nil>",
		"a-b":               "[a b]",
		"Not and or":        "OR([not] [and] [or])",
		"NOT NOT a":         "NOT(NOT([a]))",
		"a OR OR b":         "OR([a] [b])",
		`""`:                "<nil>",
		"résumé Größe":      "OR([résumé] [größe])",
		"a\tAND\nb":         "AND([a] [b])",
		"a AND b AND NOT c": "AND([a] [b] NOT([c]))",
	} {
		require.Equal(t, want, render(parseSearchQuery(in)), "query %q", in)
	}
}

// FuzzSearchQuery: any query parses without panicking, within the term
// bound, and evaluates against an index.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range []string{"a", `"a b" AND NOT c`, "NOT", `"`, "a OR OR AND b", "x-y.z"} {
		f.Add(s)
	}
	x := state.NewSearchIndex()
	it := &state.Item{ID: "1", Name: "a b c"}
	x.PutName(it, it.Name)
	f.Fuzz(func(t *testing.T, s string) {
		n := parseSearchQuery(s)
		if n == nil {
			return
		}
		count := 0
		var walk func(*state.SearchNode)
		walk = func(n *state.SearchNode) {
			if n.Op == state.OpWords {
				count++
				if len(n.Words) == 0 {
					t.Fatalf("empty words in %q", s)
				}
			}
			for _, k := range n.Kids {
				walk(k)
			}
		}
		walk(n)
		if count > maxQueryTerms*2 {
			t.Fatalf("%d terms from %q", count, s)
		}
		_ = x.Eval(n, state.AllSearchFields)
	})
}

// TestSearchIndexDelay: with Options.SearchIndexDelay a new item is not
// found until the delay has passed on the server's clock, and a renamed
// one is found under its old name until then, as the service indexes
// asynchronously; a restarted server finds what it had at once.
func TestSearchIndexDelay(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{SearchIndexDelay: 30 * time.Second, DataDir: dir})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "delayed.txt", []byte("x"))["id"].(string)
	names, _ := e.search(tok, q("query", "delayed"))
	require.Empty(t, names, "a new item is not indexed yet")
	e.clock.Advance(29 * time.Second)
	names, _ = e.search(tok, q("query", "delayed"))
	require.Empty(t, names)
	e.clock.Advance(time.Second)
	names, _ = e.search(tok, q("query", "delayed"))
	require.Equal(t, []string{"delayed.txt"}, names, "indexed once the delay passed")

	resp, m := e.put(tok, "/files/"+f, map[string]any{"name": "renamed.txt"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	names, _ = e.search(tok, q("query", "renamed"))
	require.Empty(t, names, "the new name is not indexed yet")
	names, _ = e.search(tok, q("query", "delayed"))
	require.Equal(t, []string{"renamed.txt"}, names, "the old name still finds it")
	e.clock.Advance(30 * time.Second)
	names, _ = e.search(tok, q("query", "renamed"))
	require.Equal(t, []string{"renamed.txt"}, names)
	names, _ = e.search(tok, q("query", "delayed"))
	require.Empty(t, names)

	e.uploadFile(tok, "0", "late.txt", []byte("x"))
	require.NoError(t, e.s.Close())
	s2, err := Start(Options{SearchIndexDelay: 30 * time.Second, DataDir: dir, Now: e.clock.Now, PartSize: 4, ChunkedMinSize: 5})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s2.Close() })
	e.s = s2
	names, _ = e.search(tok, q("query", "late"))
	require.Equal(t, []string{"late.txt"}, names, "a restored item is not delayed")
}
