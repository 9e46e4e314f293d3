package refserver

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDownload(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	data := []byte("0123456789abcdef")
	f := e.uploadFile(tok, "0", "d.bin", data)
	id := f["id"].(string)

	resp, b := e.do("GET", e.api("/files/"+id+"/content"), tok, nil, hdr{"Range": "bytes=2-5"})
	require.Equal(t, http.StatusFound, resp.StatusCode, "%s", b)
	loc := resp.Header.Get("Location")
	u, err := url.Parse(loc)
	require.NoError(t, err)
	api, _ := url.Parse(e.s.BaseURL())
	assert.NotEqual(t, api.Hostname(), u.Hostname())
	assert.True(t, strings.HasPrefix(loc, e.s.DownloadURL()+"/d/"))

	resp, b = e.do("GET", loc, "", nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, data, b)
	assert.Equal(t, "application/octet-stream", resp.Header.Get("Content-Type"))
	assert.Equal(t, "bytes", resp.Header.Get("Accept-Ranges"))
	assert.Equal(t, "16", resp.Header.Get("Content-Length"))

	resp, b = e.do("GET", loc, "", nil, hdr{"Range": "bytes=2-5"})
	require.Equal(t, http.StatusPartialContent, resp.StatusCode)
	assert.Equal(t, "2345", string(b))
	assert.Equal(t, "bytes 2-5/16", resp.Header.Get("Content-Range"))

	resp, b = e.do("GET", loc, "", nil, hdr{"Range": "bytes=100-200"})
	m := decodeMap(t, b)
	requireAPIError(t, resp, m, http.StatusRequestedRangeNotSatisfiable, "requested_range_not_satisfiable")

	// The content host refuses any Authorization header, and records it.
	e.s.ResetRequests()
	resp, b = e.do("GET", loc, tok, nil, nil)
	m = decodeMap(t, b)
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.NotContains(t, string(b), tok)
	reqs := e.s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "content", reqs[0].Role)
	assert.True(t, reqs[0].HasAuthorization)
	assert.Equal(t, []string{"[redacted]"}, reqs[0].Header["Authorization"])

	// Forged and expired URLs.
	resp, b = e.do("GET", loc+"x", "", nil, nil)
	requireAPIError(t, resp, decodeMap(t, b), 403, "forbidden")
	e.clock.Advance(16 * time.Minute)
	resp, b = e.do("GET", loc, "", nil, nil)
	requireAPIError(t, resp, decodeMap(t, b), 403, "forbidden")

	// Older versions by file_version id.
	v1 := f["file_version"].(map[string]any)["id"].(string)
	resp, _ = e.uploadRaw(tok, e.upload("/files/"+id+"/content"), `{}`, []byte("second"), nil)
	require.Equal(t, 200, resp.StatusCode)
	resp, _ = e.do("GET", e.api("/files/"+id+"/content?version="+v1), tok, nil, nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	_, b = e.do("GET", resp.Header.Get("Location"), "", nil, nil)
	assert.Equal(t, data, b)
	resp, _ = e.do("GET", e.api("/files/"+id+"/content"), tok, nil, nil)
	_, b = e.do("GET", resp.Header.Get("Location"), "", nil, nil)
	assert.Equal(t, "second", string(b))
	resp, b = e.do("GET", e.api("/files/"+id+"/content?version=1"), tok, nil, nil)
	requireAPIError(t, resp, decodeMap(t, b), 404, "not_found")

	// A deleted file's URL stops working.
	resp, _ = e.do("GET", e.api("/files/"+id+"/content"), tok, nil, nil)
	loc = resp.Header.Get("Location")
	resp, _ = e.do("DELETE", e.api("/files/"+id), tok, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	resp, b = e.do("GET", loc, "", nil, nil)
	requireAPIError(t, resp, decodeMap(t, b), 404, "not_found")
}

func TestContentNotReady(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{ContentNotReady: 10 * time.Second, RetryAfter: 1500 * time.Millisecond})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "slow.bin", []byte("zz"))
	url := e.api("/files/" + f["id"].(string) + "/content")
	resp, b := e.do("GET", url, tok, nil, nil)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Equal(t, "2", resp.Header.Get("Retry-After"))
	assert.Empty(t, b)
	e.clock.Advance(9 * time.Second)
	resp, _ = e.do("GET", url, tok, nil, nil)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	e.clock.Advance(time.Second)
	resp, _ = e.do("GET", url, tok, nil, nil)
	assert.Equal(t, http.StatusFound, resp.StatusCode)
}

// TestCompanyOnlyDownloads: a file whose permissions.can_download is
// company is downloaded by the enterprise's users only (403 to a
// collaborator rolled out of it); open lets everyone download again.
func TestCompanyOnlyDownloads(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	dir := e.createFolder(admin, "0", "reports")["id"].(string)
	file := e.uploadFile(admin, dir, "q3.txt", []byte("q3"))["id"].(string)
	resp, c := e.collaborate(admin, "folder", dir, map[string]any{"type": "user", "id": e.s.UserID()}, "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	resp, m := e.put(admin, "/files/"+file, map[string]any{"permissions": map[string]any{"can_download": "company"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	download := func() (*http.Response, map[string]any) {
		return e.doJSON("GET", e.api("/files/"+file+"/content"), user, nil, nil)
	}
	resp, _ = download()
	require.Equal(t, http.StatusFound, resp.StatusCode, "a user of the enterprise downloads")

	resp, m = e.put(admin, "/users/"+e.s.UserID(), map[string]any{"enterprise": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	resp, m = download()
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)

	resp, m = e.put(admin, "/files/"+file, map[string]any{"permissions": map[string]any{"can_download": "open"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	resp, _ = download()
	assert.Equal(t, http.StatusFound, resp.StatusCode, "open: everyone who may download does")
}
