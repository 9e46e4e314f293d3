package refserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStartURLsAndPrincipals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AdminToken: "adm", UserToken: "usr", AppToken: "app"})
	api, err := url.Parse(e.s.BaseURL())
	require.NoError(t, err)
	dl, err := url.Parse(e.s.DownloadURL())
	require.NoError(t, err)
	up, err := url.Parse(e.s.UploadURL())
	require.NoError(t, err)
	assert.Equal(t, "/2.0", api.Path)
	assert.Equal(t, "/api/2.0", up.Path)
	assert.Equal(t, "127.0.0.1", api.Hostname())
	assert.Equal(t, "localhost", dl.Hostname())
	assert.NotEqual(t, api.Host, up.Host)
	assert.Equal(t, "adm", e.s.AdminToken())
	assert.Equal(t, "usr", e.s.UserToken())
	assert.Equal(t, "app", e.s.AppToken())
	assert.NotEmpty(t, e.s.EnterpriseID())
	assert.NotEqual(t, e.s.AdminUserID(), e.s.UserID())

	s2, err := New(Options{})
	require.NoError(t, err)
	assert.Len(t, s2.AdminToken(), 40)
	assert.NotEqual(t, s2.AdminToken(), s2.UserToken())
	assert.Equal(t, "http://api.cms.test/2.0", s2.BaseURL())
	assert.Equal(t, "http://upload.cms.test/api/2.0", s2.UploadURL())
	assert.Equal(t, "http://dl.cms.test", s2.DownloadURL())
}

func TestRoutingErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.AdminToken()
	cases := []struct {
		name, method, url string
		status            int
		code              string
	}{
		{"unknown route", "GET", e.api("/nope"), 404, "not_found"},
		{"api root not mounted at /", "GET", strings.TrimSuffix(e.s.BaseURL(), "/2.0") + "/folders/0", 404, "not_found"},
		{"wrong method", "PATCH", e.api("/folders/0"), 405, "method_not_allowed"},
		{"malformed folder id", "GET", e.api("/folders/abc"), 405, "method_not_allowed"},
		{"malformed folder id items", "GET", e.api("/folders/abc/items"), 405, "method_not_allowed"},
		{"malformed file id", "GET", e.api("/files/abc"), 405, "method_not_allowed"},
		{"malformed file id delete", "DELETE", e.api("/files/x1"), 405, "method_not_allowed"},
		{"malformed file id download", "GET", e.api("/files/x1/content"), 404, "not_found"},
		{"missing file", "GET", e.api("/files/123"), 404, "not_found"},
		{"upload root unknown", "GET", e.upload("/files/1/nothing"), 404, "not_found"},
		{"content host unknown", "GET", e.s.DownloadURL() + "/x", 404, "not_found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON(c.method, c.url, tok, nil, nil)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
}

func TestRequestIDsAreUnique(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	seen := map[string]bool{}
	for range 20 {
		resp, _ := e.doJSON("GET", e.api("/folders/0"), e.s.UserToken(), nil, nil)
		id := resp.Header.Get("box-request-id")
		require.NotEmpty(t, id)
		require.False(t, seen[id])
		seen[id] = true
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AdminToken: "secret-admin-token"})
	resp, m := e.doJSON("GET", e.api("/folders/0"), "", nil, nil)
	requireAPIError(t, resp, m, 401, "unauthorized")
	assert.Equal(t, `Bearer realm="Service"`, resp.Header.Get("WWW-Authenticate"))

	resp, b := e.do("GET", e.api("/folders/0"), "not-a-token", nil, nil)
	m = decodeMap(t, b)
	requireAPIError(t, resp, m, 401, "unauthorized")
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
	assert.NotContains(t, string(b), "not-a-token")

	resp, m = e.doJSON("GET", e.api("/folders/0"), "secret-admin-token", nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "0", m["id"])

	// Requests() redacts the token but records that it was there.
	var found bool
	for _, rec := range e.s.Requests() {
		for _, v := range rec.Header.Values("Authorization") {
			assert.Equal(t, "[redacted]", v)
			found = true
		}
		if rec.HasAuthorization {
			assert.Equal(t, "api", rec.Role)
			assert.Equal(t, "/2.0/folders/0", rec.Path)
		}
	}
	assert.True(t, found)
	e.s.ResetRequests()
	assert.Empty(t, e.s.Requests())
}

func TestAppTokenScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	app := e.s.AppToken()
	folder := e.createFolder(e.s.AdminToken(), "0", "shared")
	before := snapshot(e.s)
	denied := []struct{ method, url, body string }{
		{"POST", e.api("/folders"), `{"name":"x","parent":{"id":"0"}}`},
		{"GET", e.api("/folders/0"), ""},
		{"GET", e.api("/folders/0/items"), ""},
		{"DELETE", e.api("/folders/" + folder["id"].(string)), ""},
		{"OPTIONS", e.api("/files/content"), `{"name":"x","parent":{"id":"0"}}`},
		{"POST", e.upload("/files/upload_sessions"), `{"folder_id":"0","file_size":10,"file_name":"x"}`},
	}
	for _, d := range denied {
		var body any
		if d.body != "" {
			body = d.body
		}
		resp, m := e.doJSON(d.method, d.url, app, body, nil)
		requireAPIError(t, resp, m, 403, "insufficient_scope")
		assert.Contains(t, resp.Header.Get("WWW-Authenticate"), "insufficient_scope")
	}
	assert.Equal(t, before, snapshot(e.s))

	// The four app operations work.
	f := e.uploadFile(app, folder["id"].(string), "a.txt", []byte("hello"))
	id := f["id"].(string)
	resp, m := e.doJSON("GET", e.api("/files/"+id+"?fields=expiring_embed_link"), app, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.NotNil(t, m["expiring_embed_link"])
	resp, _ = e.do("GET", e.api("/files/"+id+"/content"), app, nil, nil)
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	resp, _ = e.do("DELETE", e.api("/files/"+id), app, nil, nil)
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
}

func TestInProcessHandler(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	require.NoError(t, err)
	h := s.Handler()
	req := httptest.NewRequest("GET", s.BaseURL()+"/folders/0", nil)
	req.Header.Set("Authorization", "Bearer "+s.UserToken())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, 200, rec.Code, rec.Body.String())

	req = httptest.NewRequest("GET", s.DownloadURL()+"/d/x.y", nil)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, 403, rec.Code)

	req = httptest.NewRequest("GET", "http://other.test/2.0/folders/0", nil)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, 404, rec.Code)
	b, _ := io.ReadAll(rec.Body)
	assert.Contains(t, string(b), `"not_found"`)
	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "api", reqs[0].Role)
	assert.Equal(t, "content", reqs[1].Role)
}
