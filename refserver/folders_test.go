package refserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateFolderRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	existing := e.createFolder(tok, "0", "Reports")
	assert.Equal(t, "folder", existing["type"])
	assert.Equal(t, "Reports", existing["name"])
	assert.NotNil(t, existing["item_collection"])
	assert.Equal(t, e.s.UserID(), existing["owned_by"].(map[string]any)["id"])
	assert.Equal(t, "0", existing["parent"].(map[string]any)["id"])
	adminFolder := e.createFolder(e.s.AdminToken(), "0", "AdminOnly")

	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"empty name", `{"name":"","parent":{"id":"0"}}`, 400, "item_name_invalid"},
		{"slash", `{"name":"a/b","parent":{"id":"0"}}`, 400, "item_name_invalid"},
		{"backslash", `{"name":"a\\b","parent":{"id":"0"}}`, 400, "item_name_invalid"},
		{"control", `{"name":"a\u0001b","parent":{"id":"0"}}`, 400, "item_name_invalid"},
		{"trailing space", `{"name":"ab ","parent":{"id":"0"}}`, 400, "item_name_invalid"},
		{"dot", `{"name":".","parent":{"id":"0"}}`, 400, "item_name_invalid"},
		{"dotdot", `{"name":"..","parent":{"id":"0"}}`, 400, "item_name_invalid"},
		{"too long", fmt.Sprintf(`{"name":%q,"parent":{"id":"0"}}`, strings.Repeat("x", 256)), 400, "item_name_too_long"},
		{"missing name", `{"parent":{"id":"0"}}`, 400, "bad_request"},
		{"missing parent", `{"name":"x"}`, 400, "bad_request"},
		{"unknown field", `{"name":"x","parent":{"id":"0"},"color":"red"}`, 400, "bad_request"},
		{"wrong type", `{"name":5,"parent":{"id":"0"}}`, 400, "bad_request"},
		{"not json", `{"name":`, 400, "bad_request"},
		{"trailing data", `{"name":"x","parent":{"id":"0"}} {}`, 400, "bad_request"},
		{"bad sync_state", `{"name":"x","parent":{"id":"0"},"sync_state":"maybe"}`, 400, "bad_request"},
		{"missing parent folder", `{"name":"x","parent":{"id":"999999"}}`, 404, "not_found"},
		{"other user's folder", fmt.Sprintf(`{"name":"x","parent":{"id":%q}}`, adminFolder["id"]), 404, "not_found"},
		{"name in use, other case", `{"name":"reports","parent":{"id":"0"}}`, 409, "item_name_in_use"},
	}
	before := snapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("POST", e.api("/folders"), tok, c.body, nil)
			requireAPIError(t, resp, m, c.status, c.code)
			if c.code == "item_name_in_use" {
				conflicts := m["context_info"].(map[string]any)["conflicts"].([]any)
				require.Len(t, conflicts, 1)
				assert.Equal(t, existing["id"], conflicts[0].(map[string]any)["id"])
			}
		})
	}
	assert.Equal(t, before, snapshot(e.s), "rejected requests changed state")

	// 255 characters is fine; the same name is fine in another user's root.
	e.createFolder(tok, "0", strings.Repeat("y", 255))
	e.createFolder(e.s.AdminToken(), "0", "Reports")
	// A file name clashes with a folder name too.
	e.uploadFile(tok, existing["id"].(string), "Data.csv", []byte("1"))
	resp, m := e.doJSON("POST", e.api("/folders"), tok, map[string]any{"name": "DATA.CSV", "parent": map[string]any{"id": existing["id"]}}, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
}

func TestGetFolder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.createFolder(tok, "0", "F")
	id := f["id"].(string)
	sub := e.createFolder(tok, id, "Sub")
	e.uploadFile(tok, id, "x.txt", []byte("abc"))

	resp, m := e.doJSON("GET", e.api("/folders/"+id), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	etag := m["etag"].(string)
	ic := m["item_collection"].(map[string]any)
	assert.EqualValues(t, 2, ic["total_count"])
	entries := ic["entries"].([]any)
	assert.Equal(t, "folder", entries[0].(map[string]any)["type"])
	assert.Equal(t, "file", entries[1].(map[string]any)["type"])
	assert.EqualValues(t, 3, m["size"])
	pc := sub["path_collection"].(map[string]any)
	assert.EqualValues(t, 2, pc["total_count"])

	resp, b := e.do("GET", e.api("/folders/"+id), tok, nil, hdr{"If-None-Match": etag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	assert.Empty(t, b)
	resp, _ = e.do("GET", e.api("/folders/"+id), tok, nil, hdr{"If-None-Match": "nope"})
	assert.Equal(t, 200, resp.StatusCode)

	resp, m = e.doJSON("GET", e.api("/folders/"+id+"?fields=name,created_at"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, m, "created_at")
	assert.Contains(t, m, "etag")
	assert.NotContains(t, m, "item_collection")
	assert.NotContains(t, m, "owned_by")

	resp, m = e.doJSON("GET", e.api("/folders/0"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "All Files", m["name"])
	assert.Nil(t, m["parent"])

	// The managed user cannot see the admin's folder; the admin sees all.
	af := e.createFolder(e.s.AdminToken(), "0", "A")
	resp, m = e.doJSON("GET", e.api("/folders/"+af["id"].(string)), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, _ = e.doJSON("GET", e.api("/folders/"+id), e.s.AdminToken(), nil, nil)
	assert.Equal(t, 200, resp.StatusCode)
}

func TestListFolderItemsPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.createFolder(tok, "0", "P")
	id := f["id"].(string)
	for i := range 5 {
		e.uploadFile(tok, id, fmt.Sprintf("file%d", i), []byte(strings.Repeat("x", 5-i)))
	}
	for i := range 3 {
		e.createFolder(tok, id, fmt.Sprintf("dir%d", 2-i))
	}
	names := func(m map[string]any) []string {
		var out []string
		for _, e := range m["entries"].([]any) {
			out = append(out, e.(map[string]any)["name"].(string))
		}
		return out
	}
	base := e.api("/folders/" + id + "/items")
	_, m := e.doJSON("GET", base, tok, nil, nil)
	assert.Equal(t, []string{"dir0", "dir1", "dir2", "file0", "file1", "file2", "file3", "file4"}, names(m))
	assert.EqualValues(t, 8, m["total_count"])
	assert.EqualValues(t, 100, m["limit"])
	assert.EqualValues(t, 0, m["offset"])

	_, m = e.doJSON("GET", base+"?offset=2&limit=3", tok, nil, nil)
	assert.Equal(t, []string{"dir2", "file0", "file1"}, names(m))
	assert.EqualValues(t, 3, m["limit"])

	_, m = e.doJSON("GET", base+"?limit=5000", tok, nil, nil)
	assert.EqualValues(t, 1000, m["limit"])

	_, m = e.doJSON("GET", base+"?sort=name&direction=DESC", tok, nil, nil)
	assert.Equal(t, []string{"dir2", "dir1", "dir0", "file4", "file3", "file2", "file1", "file0"}, names(m))
	_, m = e.doJSON("GET", base+"?sort=size", tok, nil, nil)
	assert.Equal(t, []string{"file4", "file3", "file2", "file1", "file0"}, names(m)[3:])

	// Marker paging walks everything once.
	var all []string
	url := base + "?usemarker=true&limit=3"
	for range 10 {
		resp, m := e.doJSON("GET", url, tok, nil, nil)
		require.Equal(t, 200, resp.StatusCode)
		assert.NotContains(t, m, "total_count")
		all = append(all, names(m)...)
		next, _ := m["next_marker"].(string)
		if next == "" {
			break
		}
		url = base + "?usemarker=true&limit=3&marker=" + next
	}
	assert.Len(t, all, 8)

	// fields on entries.
	_, m = e.doJSON("GET", base+"?fields=size", tok, nil, nil)
	first := m["entries"].([]any)[3].(map[string]any)
	assert.Contains(t, first, "size")
	assert.Contains(t, first, "sha1")
	assert.NotContains(t, first, "created_at")

	for _, q := range []string{"?limit=0", "?limit=-1", "?offset=x", "?sort=color", "?direction=UP", "?usemarker=true&marker=garbage", "?usemarker=maybe"} {
		resp, m := e.doJSON("GET", base+q, tok, nil, nil)
		requireAPIError(t, resp, m, 400, "bad_request")
	}
}

func TestDeleteFolder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.createFolder(tok, "0", "D")
	id := f["id"].(string)
	e.uploadFile(tok, id, "x", []byte("x"))
	_, fresh := e.doJSON("GET", e.api("/folders/"+id), tok, nil, nil)
	before := snapshot(e.s)
	blobs := blobCount(t, e.s)

	resp, m := e.doJSON("DELETE", e.api("/folders/"+id), tok, nil, nil)
	requireAPIError(t, resp, m, 400, "folder_not_empty")
	resp, m = e.doJSON("DELETE", e.api("/folders/"+id+"?recursive=true"), tok, nil, hdr{"If-Match": "stale"})
	requireAPIError(t, resp, m, 412, "precondition_failed")
	resp, m = e.doJSON("DELETE", e.api("/folders/0?recursive=true"), tok, nil, nil)
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
	resp, m = e.doJSON("DELETE", e.api("/folders/"+id), e.s.AppToken(), nil, nil)
	requireAPIError(t, resp, m, 403, "insufficient_scope")
	assert.Equal(t, before, snapshot(e.s))

	resp, _ = e.do("DELETE", e.api("/folders/"+id+"?recursive=true"), tok, nil, hdr{"If-Match": fresh["etag"].(string)})
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, blobs, blobCount(t, e.s), "a trashed folder keeps its content")
	resp, m = e.doJSON("GET", e.api("/folders/"+id), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, _ = e.do("DELETE", e.api("/folders/"+id+"/trash"), tok, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, blobs-1, blobCount(t, e.s), "a purged folder frees its content")

	empty := e.createFolder(tok, "0", "E")
	resp, _ = e.do("DELETE", e.api("/folders/"+empty["id"].(string)), tok, nil, nil)
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
}

// TestListingHiddenItemsAndOffsetCap: items hidden from the managed user
// keep their place in offset and marker pages (short and empty pages while
// more follow, total_count counts them); offsets past 300,000 are 400.
func TestListingHiddenItemsAndOffsetCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	parent := e.createFolder(tok, "0", "Mixed")["id"].(string)
	var ids []string
	for i := range 7 {
		ids = append(ids, e.createFolder(tok, parent, fmt.Sprintf("f%d", i))["id"].(string))
	}
	require.NoError(t, e.s.HideFromUsers(ids[3], ids[4], ids[5]))
	require.Error(t, e.s.HideFromUsers("999999"))

	names := func(m map[string]any) []string {
		var out []string
		for _, x := range m["entries"].([]any) {
			out = append(out, x.(map[string]any)["name"].(string))
		}
		return out
	}
	pages := []struct { // f3, f4, f5 hidden
		offset int
		want   []string
	}{{0, []string{"f0", "f1", "f2"}}, {3, nil}, {6, []string{"f6"}}}
	for _, pg := range pages {
		resp, m := e.doJSON("GET", e.api(fmt.Sprintf("/folders/%s/items?limit=3&offset=%d", parent, pg.offset)), tok, nil, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, pg.want, names(m), "offset %d", pg.offset)
		assert.EqualValues(t, 7, m["total_count"], "hidden items are counted")
		assert.EqualValues(t, 3, m["limit"])
	}
	resp, m := e.doJSON("GET", e.api(fmt.Sprintf("/folders/%s/items?limit=3&usemarker=true", parent)), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	marker := m["next_marker"].(string)
	_, m = e.doJSON("GET", e.api(fmt.Sprintf("/folders/%s/items?limit=3&usemarker=true&marker=%s", parent, marker)), tok, nil, nil)
	assert.Empty(t, names(m), "an empty marker page")
	assert.NotEmpty(t, m["next_marker"], "while more follow")

	// The admin sees everything; the user gets 404 for a hidden item.
	_, m = e.doJSON("GET", e.api(fmt.Sprintf("/folders/%s/items?limit=10", parent)), e.s.AdminToken(), nil, nil)
	assert.Len(t, m["entries"], 7)
	resp, m = e.doJSON("GET", e.api("/folders/"+ids[3]), tok, nil, nil)
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")

	// Offset cap: 300000 is the last offset accepted; the state is unchanged.
	before := snapshot(e.s)
	resp, _ = e.doJSON("GET", e.api(fmt.Sprintf("/folders/%s/items?offset=300000", parent)), tok, nil, nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, m = e.doJSON("GET", e.api(fmt.Sprintf("/folders/%s/items?offset=300001", parent)), tok, nil, nil)
	requireAPIError(t, resp, m, http.StatusBadRequest, "bad_request")
	resp, _ = e.doJSON("GET", e.api(fmt.Sprintf("/folders/%s/items?offset=300001&usemarker=true", parent)), tok, nil, nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "marker paging ignores offset")
	assert.Equal(t, before, snapshot(e.s))
}
