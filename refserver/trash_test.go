package refserver

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collabSnapshot extends snapshot with the state of the trash, web links,
// tasks and watermarks, to check that rejected requests change nothing.
func collabSnapshot(s *Server) string {
	base := snapshot(s)
	tx, end := beginTx(s.st)
	defer end()
	var lines []string
	for _, it := range tx.Items.All() {
		l := fmt.Sprintf("%s trashed=%s with=%s url=%q desc=%q", it.ID, it.TrashedAt().Format(time.RFC3339), it.TrashedWith(), it.URL(), it.Description())
		if it.Link() != nil {
			l += fmt.Sprintf(" link=%+v", *it.Link())
		}
		lines = append(lines, l)
	}
	lines = append(lines, collabStateLines(tx)...)
	sort.Strings(lines)
	return base + "\n" + strings.Join(lines, "\n")
}

func (e *env) getStatus(token, path string) int {
	e.t.Helper()
	resp, _ := e.do("GET", e.api(path), token, nil, nil)
	return resp.StatusCode
}

func (e *env) deleteOK(token, path string) {
	e.t.Helper()
	resp, b := e.do("DELETE", e.api(path), token, nil, nil)
	require.Equal(e.t, http.StatusNoContent, resp.StatusCode, "%s", b)
}

func TestTrashFileLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	dir := e.createFolder(tok, "0", "Dir")
	dirID := dir["id"].(string)
	f := e.uploadFile(tok, dirID, "a.txt", []byte("abc"))
	id := f["id"].(string)
	blobs := blobCount(t, e.s)

	e.deleteOK(tok, "/files/"+id)
	assert.Equal(t, 404, e.getStatus(tok, "/files/"+id), "a trashed file is not found")
	assert.Equal(t, 404, e.getStatus(tok, "/files/"+id+"/content"))
	assert.Equal(t, blobs, blobCount(t, e.s), "the trash keeps the content")
	_, list := e.doJSON("GET", e.api("/folders/"+dirID+"/items"), tok, nil, nil)
	assert.EqualValues(t, 0, list["total_count"], "gone from listings")

	e.clock.Advance(time.Hour)
	resp, m := e.doJSON("GET", e.api("/files/"+id+"/trash"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "trashed", m["item_status"])
	trashedAt, err := time.Parse(time.RFC3339, m["trashed_at"].(string))
	require.NoError(t, err)
	purgedAt, err := time.Parse(time.RFC3339, m["purged_at"].(string))
	require.NoError(t, err)
	assert.Equal(t, 30*24*time.Hour, purgedAt.Sub(trashedAt))
	assert.Equal(t, dirID, m["parent"].(map[string]any)["id"])
	pc := m["path_collection"].(map[string]any)["entries"].([]any)
	assert.Equal(t, "Trash", pc[0].(map[string]any)["name"])

	// A file with the same name takes its place; the restore then clashes.
	clash := e.uploadFile(tok, dirID, "A.TXT", []byte("new"))
	before := collabSnapshot(e.s)
	resp, m = e.doJSON("POST", e.api("/files/"+id), tok, map[string]any{}, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	assert.Equal(t, clash["id"], m["context_info"].(map[string]any)["conflicts"].([]any)[0].(map[string]any)["id"])
	resp, m = e.doJSON("POST", e.api("/files/"+id), tok, `{"name":"a/b"}`, nil)
	requireAPIError(t, resp, m, 400, "item_name_invalid")
	resp, m = e.doJSON("POST", e.api("/files/"+id), tok, `{"colour":"red"}`, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.doJSON("POST", e.api("/files/"+id), e.s.AppToken(), nil, nil)
	requireAPIError(t, resp, m, 403, "insufficient_scope")
	resp, m = e.doJSON("POST", e.api("/files/"+clash["id"].(string)), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	assert.Equal(t, before, collabSnapshot(e.s), "rejected restores changed state")

	resp, m = e.doJSON("POST", e.api("/files/"+id), tok, map[string]any{"name": "a (restored).txt"}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, "active", m["item_status"])
	assert.Nil(t, m["trashed_at"])
	assert.Nil(t, m["purged_at"])
	assert.Equal(t, "a (restored).txt", m["name"])
	assert.Equal(t, dirID, m["parent"].(map[string]any)["id"])
	assert.Equal(t, 200, e.getStatus(tok, "/files/"+id))
	assert.Equal(t, 404, e.getStatus(tok, "/files/"+id+"/trash"), "no longer in the trash")

	// Delete for good: the content goes too.
	e.deleteOK(tok, "/files/"+id)
	e.deleteOK(tok, "/files/"+id+"/trash")
	assert.Equal(t, blobs, blobCount(t, e.s), "one blob freed, one added by the clash")
	assert.Equal(t, 404, e.getStatus(tok, "/files/"+id+"/trash"))
	resp, m = e.doJSON("DELETE", e.api("/files/"+id+"/trash"), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
}

func TestTrashFolderTakesContent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	top := e.createFolder(tok, "0", "Top")
	topID := top["id"].(string)
	sub := e.createFolder(tok, topID, "Sub")
	subID := sub["id"].(string)
	f1 := e.uploadFile(tok, subID, "one.txt", []byte("1"))
	f2 := e.uploadFile(tok, subID, "two.txt", []byte("2"))
	// two.txt is trashed on its own first: it stays in the trash when the
	// folder comes back.
	e.deleteOK(tok, "/files/"+f2["id"].(string))
	resp, _ := e.do("DELETE", e.api("/folders/"+topID+"?recursive=true"), tok, nil, nil)
	require.Equal(t, 204, resp.StatusCode)

	assert.Equal(t, 404, e.getStatus(tok, "/folders/"+subID))
	assert.Equal(t, 404, e.getStatus(tok, "/folders/"+subID+"/trash"), "content trashed with its folder is not in the trash on its own")
	assert.Equal(t, 404, e.getStatus(tok, "/files/"+f1["id"].(string)+"/trash"))
	assert.Equal(t, 200, e.getStatus(tok, "/folders/"+topID+"/trash"))
	_, list := e.doJSON("GET", e.api("/folders/trash/items"), tok, nil, nil)
	assert.EqualValues(t, 2, list["total_count"])
	var names []string
	for _, x := range list["entries"].([]any) {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"Top", "two.txt"}, names, "folders first")

	resp, m := e.doJSON("POST", e.api("/folders/"+topID), tok, nil, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, 200, e.getStatus(tok, "/folders/"+subID))
	assert.Equal(t, 200, e.getStatus(tok, "/files/"+f1["id"].(string)))
	assert.Equal(t, 404, e.getStatus(tok, "/files/"+f2["id"].(string)))
	_, items := e.doJSON("GET", e.api("/folders/"+subID+"/items"), tok, nil, nil)
	assert.EqualValues(t, 1, items["total_count"])

	// A file whose folder is gone needs a parent to go back to.
	e.deleteOK(tok, "/folders/"+topID+"?recursive=true")
	e.deleteOK(tok, "/folders/"+topID+"/trash")
	f2ID := f2["id"].(string)
	assert.Equal(t, 200, e.getStatus(tok, "/files/"+f2ID+"/trash"), "an item trashed on its own outlives its purged folder")
	before := collabSnapshot(e.s)
	resp, m = e.doJSON("POST", e.api("/files/"+f2ID), tok, nil, nil)
	requireAPIError(t, resp, m, 409, "parent_folder_unavailable")
	resp, m = e.doJSON("POST", e.api("/files/"+f2ID), tok, map[string]any{"parent": map[string]any{"id": "999999"}}, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.doJSON("POST", e.api("/files/"+f2ID), tok, map[string]any{"parent": map[string]any{}}, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.Equal(t, before, collabSnapshot(e.s))
	dest := e.createFolder(tok, "0", "Dest")
	resp, m = e.doJSON("POST", e.api("/files/"+f2ID), tok, map[string]any{"parent": map[string]any{"id": dest["id"]}}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, dest["id"], m["parent"].(map[string]any)["id"])
}

func TestTrashListPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	for i := range 5 {
		f := e.uploadFile(tok, "0", fmt.Sprintf("f%d.txt", i), []byte{byte(i)})
		e.deleteOK(tok, "/files/"+f["id"].(string))
	}
	// Another user's trash is not listed.
	af := e.uploadFile(e.s.AdminToken(), "0", "admin.txt", []byte("a"))
	e.deleteOK(e.s.AdminToken(), "/files/"+af["id"].(string))

	var got []string
	for off := 0; off < 5; off += 2 {
		resp, m := e.doJSON("GET", e.api(fmt.Sprintf("/folders/trash/items?limit=2&offset=%d", off)), tok, nil, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", m)
		assert.EqualValues(t, 5, m["total_count"])
		for _, x := range m["entries"].([]any) {
			got = append(got, x.(map[string]any)["name"].(string))
		}
	}
	assert.Equal(t, []string{"f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt"}, got)

	got = nil
	marker := ""
	for pages := 0; pages < 10; pages++ {
		u := "/folders/trash/items?usemarker=true&limit=2&fields=name,trashed_at"
		if marker != "" {
			u += "&marker=" + marker
		}
		resp, m := e.doJSON("GET", e.api(u), tok, nil, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", m)
		assert.NotContains(t, m, "total_count")
		for _, x := range m["entries"].([]any) {
			got = append(got, x.(map[string]any)["name"].(string))
			assert.NotNil(t, x.(map[string]any)["trashed_at"])
		}
		if m["next_marker"] == nil {
			break
		}
		marker = m["next_marker"].(string)
	}
	assert.Len(t, got, 5)

	resp, m := e.doJSON("GET", e.api("/folders/trash/items?sort=name&direction=DESC&limit=1"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "f4.txt", m["entries"].([]any)[0].(map[string]any)["name"])
	_, m = e.doJSON("GET", e.api("/folders/trash/items"), e.s.AdminToken(), nil, nil)
	assert.EqualValues(t, 6, m["total_count"], "the admin sees every trashed item")

	// The spec caps offset at 10000 for this list, as for users and groups.
	resp, m = e.doJSON("GET", e.api("/folders/trash/items?offset=10000"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Empty(t, m["entries"])
	assert.EqualValues(t, 10000, m["offset"])

	before := collabSnapshot(e.s)
	for _, c := range []struct{ q, code string }{
		{"offset=10001", "bad_request"},
		{"offset=20000&limit=5", "bad_request"},
		{"usemarker=true&sort=name", "invalid_parameter"},
		{"usemarker=true&direction=ASC", "invalid_parameter"},
		{"usemarker=true&offset=2", "invalid_parameter"},
		{"marker=abc", "invalid_parameter"},
		{"usemarker=true&marker=@@", "invalid_parameter"},
		{"sort=id", "invalid_parameter"},
		{"direction=up", "invalid_parameter"},
		{"limit=0", "bad_request"},
		{"usemarker=maybe", "bad_request"},
	} {
		resp, m := e.doJSON("GET", e.api("/folders/trash/items?"+c.q), tok, nil, nil)
		requireAPIError(t, resp, m, 400, c.code)
	}
	resp, m = e.doJSON("GET", e.api("/folders/trash/items"), e.s.AppToken(), nil, nil)
	requireAPIError(t, resp, m, 403, "insufficient_scope")
	assert.Equal(t, before, collabSnapshot(e.s))
}

func TestTrashPurgeFiresHooks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	dir := e.createFolder(tok, "0", "Dir")
	f := e.uploadFile(tok, dir["id"].(string), "x", []byte("x"))
	resp, _ := e.do("DELETE", e.api("/folders/"+dir["id"].(string)+"?recursive=true"), tok, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	e.deleteOK(tok, "/folders/"+dir["id"].(string)+"/trash")
	tx, end := beginTx(e.s.st)
	_, ok := tx.Items.Get("file", f["id"].(string))
	end()
	assert.False(t, ok, "the folder's content is gone for good")
	assert.Equal(t, 404, e.getStatus(tok, "/folders/"+dir["id"].(string)+"/trash"))
	for _, p := range []string{"/files/abc/trash", "/folders/0/trash", "/web_links/x/trash"} {
		resp, m := e.doJSON("GET", e.api(p), tok, nil, nil)
		requireAPIError(t, resp, m, 404, "not_found")
	}
}

// TestRestoreIntoAnotherOwnersFolderMovesTheTree: a folder restored into
// a folder of another owner (its own parent being gone) belongs to that
// owner with all its content, as a move makes it.
func TestRestoreIntoAnotherOwnersFolderMovesTheTree(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	shared := e.createFolder(admin, "0", "shared")["id"].(string)
	resp, c := e.collaborate(admin, "folder", shared, map[string]any{"type": "user", "id": e.s.UserID()}, "editor")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	parent := e.createFolder(user, "0", "mine")["id"].(string)
	dir := e.createFolder(user, parent, "work")["id"].(string)
	file := e.uploadFile(user, dir, "notes.txt", []byte("notes"))["id"].(string)
	for _, id := range []string{dir, parent} {
		resp, _ := e.do("DELETE", e.api("/folders/"+id+"?recursive=true"), user, nil, nil)
		require.Equal(t, http.StatusNoContent, resp.StatusCode)
	}
	resp, m := e.doJSON("POST", e.api("/folders/"+dir), user, map[string]any{"parent": map[string]any{"id": shared}}, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	owner := func(path string) string {
		return e.getJSON(admin, path)["owned_by"].(map[string]any)["id"].(string)
	}
	adminID := owner("/folders/" + shared)
	assert.Equal(t, adminID, owner("/folders/"+dir), "the restored folder")
	assert.Equal(t, adminID, owner("/files/"+file), "its content")
}
