package refserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// elementFields is the fields list Box UI Elements' Content Explorer asks
// for a folder and its items.
const elementFields = "id,name,type,size,parent,extension,permissions,path_collection,modified_at,created_at," +
	"modified_by,has_collaborations,is_externally_owned,item_collection,authenticated_download_url," +
	"is_download_available,representations,url,file_version,sha1,shared_link,watermark_info," +
	"allowed_shared_link_access_levels"

func TestFolderItemCollectionHonoursFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	dir := e.createFolder(tok, "0", "Docs")["id"].(string)
	e.createFolder(tok, dir, "Sub")
	f := e.uploadFile(tok, dir, "a.txt", []byte("hello"))

	for _, path := range []string{"/folders/" + dir, "/folders/" + dir + "/items"} {
		resp, m := e.doJSON("GET", e.api(path+"?fields="+elementFields), tok, nil, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		page := m
		if ic, ok := m["item_collection"].(map[string]any); ok {
			page = ic
		}
		entries := page["entries"].([]any)
		require.Len(t, entries, 2, path)
		sub, file := entries[0].(map[string]any), entries[1].(map[string]any)
		for _, ent := range entries {
			rec := ent.(map[string]any)
			for _, k := range []string{"size", "modified_at", "created_at", "modified_by", "path_collection", "permissions", "has_collaborations", "is_externally_owned", "watermark_info", "allowed_shared_link_access_levels"} {
				assert.Contains(t, rec, k, "%s: %s entry", path, rec["type"])
			}
			assert.Equal(t, true, rec["permissions"].(map[string]any)["can_rename"], path)
			assert.Equal(t, []any{"open", "company", "collaborators"}, rec["allowed_shared_link_access_levels"], path)
		}
		assert.NotContains(t, sub, "authenticated_download_url", path)
		assert.Equal(t, "txt", file["extension"], path)
		assert.EqualValues(t, 5, file["size"], path)
		assert.Equal(t, true, file["is_download_available"], path)
		assert.Equal(t, e.api("/files/"+f["id"].(string)+"/content"), file["authenticated_download_url"], path)
	}

	// Without fields, item_collection entries stay mini records.
	_, m := e.doJSON("GET", e.api("/folders/"+dir), tok, nil, nil)
	ent := m["item_collection"].(map[string]any)["entries"].([]any)[0].(map[string]any)
	assert.NotContains(t, ent, "modified_at")
}

func TestRootFolderFullFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	e.createFolder(tok, "0", "Docs")
	resp, m := e.doJSON("GET", e.api("/folders/0?fields="+elementFields), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	perms := m["permissions"].(map[string]any)
	assert.Equal(t, true, perms["can_upload"])
	assert.Equal(t, false, perms["can_delete"])
	assert.Equal(t, false, perms["can_rename"])
	assert.Equal(t, false, m["has_collaborations"])
	assert.Equal(t, false, m["is_externally_owned"])
	assert.Equal(t, false, m["watermark_info"].(map[string]any)["is_watermarked"])
	assert.Equal(t, map[string]any{"total_count": float64(0), "entries": []any{}}, m["path_collection"])
	ent := m["item_collection"].(map[string]any)["entries"].([]any)[0].(map[string]any)
	assert.Contains(t, ent, "permissions")
	assert.Contains(t, ent, "modified_at")
}

func TestDownloadAndShareFieldsAreTheCallers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	dir := e.createFolder(admin, "0", "Shared")["id"].(string)
	f := e.uploadFile(admin, dir, "r.txt", []byte("x"))["id"].(string)
	resp, _ := e.collaborate(admin, "folder", dir, collabUser(e.s.UserID()), "previewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode)

	resp, m := e.doJSON("GET", e.api("/files/"+f+"?fields=permissions,is_download_available,allowed_shared_link_access_levels"), user, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	perms := m["permissions"].(map[string]any)
	assert.Equal(t, true, perms["can_preview"])
	assert.Equal(t, false, perms["can_download"])
	assert.Equal(t, false, perms["can_rename"])
	assert.Equal(t, false, perms["can_delete"])
	assert.Equal(t, false, perms["can_share"])
	assert.Equal(t, false, m["is_download_available"])
	assert.Equal(t, []any{}, m["allowed_shared_link_access_levels"])

	// The owner may do everything.
	_, m = e.doJSON("GET", e.api("/files/"+f+"?fields=permissions,is_download_available"), admin, nil, nil)
	assert.Equal(t, true, m["permissions"].(map[string]any)["can_download"])
	assert.Equal(t, true, m["is_download_available"])
}

func TestSearchResultsCarryDownloadFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "quarterly.txt", []byte("x"))["id"].(string)
	resp, m := e.doJSON("GET", e.api("/search?query=quarterly&fields=authenticated_download_url,is_download_available,allowed_shared_link_access_levels"), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	entries := m["entries"].([]any)
	require.Len(t, entries, 1)
	rec := entries[0].(map[string]any)
	assert.Equal(t, e.api("/files/"+f+"/content"), rec["authenticated_download_url"])
	assert.Equal(t, true, rec["is_download_available"])
	assert.Equal(t, []any{"open", "company", "collaborators"}, rec["allowed_shared_link_access_levels"])
}
