package refserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

func TestGetFileVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "v.txt", []byte("one"))
	id := f["id"].(string)
	v1 := f["file_version"].(map[string]any)["id"].(string)
	resp, body := e.uploadRaw(tok, e.upload("/files/"+id+"/content"), `{"name":"v.txt"}`, []byte("two"), nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", body)

	resp, got := e.doJSON(http.MethodGet, e.api("/files/"+id+"/versions/"+v1), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "file_version", got["type"])
	assert.Equal(t, v1, got["id"])
	assert.Equal(t, sha1Hex([]byte("one")), got["sha1"], "the old version keeps its own SHA-1")
	assert.EqualValues(t, 3, got["size"])

	resp, got = e.doJSON(http.MethodGet, e.api("/files/"+id+"/versions/"+v1+"?fields=sha1"), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.ElementsMatch(t, []string{"type", "id", "sha1"}, keys(got), "fields keeps only what was asked plus type and id")

	resp, got = e.doJSON(http.MethodGet, e.api("/files/"+id+"/versions/999"), tok, nil, nil)
	requireAPIError(t, resp, got, http.StatusNotFound, "not_found")
	resp, got = e.doJSON(http.MethodGet, e.api("/files/"+id+"/versions/"+v1), e.s.AdminToken()+"x", nil, nil)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	resp, got = e.doJSON(http.MethodGet, e.api("/files/"+id+"/versions/"+v1), e.s.AppToken(), nil, nil)
	requireAPIError(t, resp, got, http.StatusForbidden, "insufficient_scope")
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestPromoteVersionRestoresName: promoting an earlier version restores
// the name the file had with it, as Box documents ("the same hash digest,
// etag, and name as the original"), and lists that name on the version;
// a name taken meanwhile by another item refuses the promotion (409
// item_name_in_use) and changes nothing.
func TestPromoteVersionRestoresName(t *testing.T) {
	e := newEnv(t, Options{})
	user := e.s.UserToken()
	dir := e.createFolder(user, "0", "d")["id"].(string)
	f := e.uploadFile(user, dir, "a.txt", []byte("one"))["id"].(string)
	resp, m := e.uploadRaw(user, e.upload("/files/"+f+"/content"), `{"name":"b.txt"}`, []byte("two"), nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	versions := e.getJSON(user, "/files/"+f+"/versions?fields=name")["entries"].([]any)
	v1 := versions[0].(map[string]any)
	require.Equal(t, "a.txt", v1["name"], "an earlier version keeps its name")

	resp, nv := e.post(user, "/files/"+f+"/versions/current?fields=name", map[string]any{"type": "file_version", "id": v1["id"]})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", nv)
	require.Equal(t, "a.txt", nv["name"])
	require.Equal(t, "a.txt", e.getJSON(user, "/files/"+f)["name"], "the file takes the version's name back")
	require.Equal(t, []byte("one"), e.download(user, "/files/"+f+"/content"))
	versions = e.getJSON(user, "/files/"+f+"/versions?fields=name")["entries"].([]any)
	v2 := versions[0].(map[string]any)
	require.Equal(t, "b.txt", v2["name"], "the replaced version keeps the name it had")

	e.uploadFile(user, dir, "b.txt", []byte("squatter"))
	before := snapshot(e.s)
	resp, m = e.post(user, "/files/"+f+"/versions/current", map[string]any{"type": "file_version", "id": v2["id"]})
	requireAPIError(t, resp, m, http.StatusConflict, wire.CodeItemNameInUse)
	require.Equal(t, before, snapshot(e.s))
}
