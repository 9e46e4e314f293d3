package refserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
