package refserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testOrigin = "http://127.0.0.1:5173"

// preflight sends a browser's CORS preflight for method and headers to url.
func (e *env) preflight(url, origin, method, headers string) *http.Response {
	e.t.Helper()
	h := hdr{"Origin": origin, "Access-Control-Request-Method": method}
	if headers != "" {
		h["Access-Control-Request-Headers"] = headers
	}
	resp, _ := e.do(http.MethodOptions, url, "", nil, h)
	return resp
}

// headerList splits a comma-separated header value into lower-case names.
func headerList(v string) []string {
	var out []string
	for f := range strings.SplitSeq(v, ",") {
		if f = strings.ToLower(strings.TrimSpace(f)); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func TestCORSPreflightEveryListener(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "a.txt", []byte("hello"))
	resp, _ := e.do("GET", e.api("/files/"+f["id"].(string)+"/content"), tok, nil, nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	contentURL := resp.Header.Get("Location")

	for _, tc := range []struct {
		name, url, method, headers string
	}{
		{"api get", e.api("/folders/0/items"), "GET", "authorization,accept,x-box-client-name,x-box-client-version"},
		{"api put", e.api("/files/" + f["id"].(string)), "PUT", "authorization,content-type,if-match"},
		{"api upload pre-check", e.api("/files/content"), "OPTIONS", "authorization,content-type"},
		{"api thumbnail", e.api("/files/1/thumbnail.png"), "GET", "authorization,x-rep-hints"},
		{"upload plain", e.upload("/files/content"), "POST", "authorization,content-md5"},
		{"upload part", e.upload("/files/upload_sessions/ABC"), "PUT", "authorization,content-type,digest,content-range,x-box-client-event-info"},
		{"content host", contentURL, "GET", "range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.preflight(tc.url, testOrigin, tc.method, tc.headers)
			require.Equal(t, http.StatusNoContent, resp.StatusCode)
			assert.Equal(t, testOrigin, resp.Header.Get("Access-Control-Allow-Origin"))
			assert.Contains(t, headerList(resp.Header.Get("Access-Control-Allow-Methods")), strings.ToLower(tc.method))
			allowed := headerList(resp.Header.Get("Access-Control-Allow-Headers"))
			assert.NotContains(t, allowed, "*")
			for _, h := range headerList(tc.headers) {
				assert.Contains(t, allowed, h)
			}
			assert.NotEmpty(t, resp.Header.Get("Access-Control-Max-Age"))
			assert.Contains(t, resp.Header.Values("Vary"), "Origin")
			assert.NotEmpty(t, resp.Header.Get("box-request-id"))
		})
	}
	// Everything an element sends is allowed.
	allowed := headerList(e.preflight(e.api("/folders/0"), testOrigin, "GET", "").Header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"authorization", "content-type", "digest", "content-range", "content-md5", "if-match",
		"if-none-match", "boxapi", "range", "x-rep-hints", "as-user", "accept-language"} {
		assert.Contains(t, allowed, h)
	}
	// The preflight is recorded, answered without a token.
	var preflights int
	for _, rec := range e.s.Requests() {
		if rec.Method == http.MethodOptions && rec.Header.Get("Access-Control-Request-Method") != "" {
			preflights++
			assert.Equal(t, http.StatusNoContent, rec.Status)
		}
	}
	assert.Equal(t, 8, preflights)
}

func TestCORSSimpleAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	origin := hdr{"Origin": testOrigin}

	resp, _ := e.do("GET", e.api("/folders/0/items"), tok, nil, origin)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, testOrigin, resp.Header.Get("Access-Control-Allow-Origin"))
	exposed := headerList(resp.Header.Get("Access-Control-Expose-Headers"))
	for _, h := range []string{"etag", "location", "retry-after", "content-range", "box-request-id"} {
		assert.Contains(t, exposed, h)
	}
	// Errors are readable by the page too.
	resp, _ = e.do("GET", e.api("/folders/0/items"), "", nil, origin)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, testOrigin, resp.Header.Get("Access-Control-Allow-Origin"))
	// Without Origin (not a browser page): no CORS headers.
	resp, _ = e.do("GET", e.api("/folders/0/items"), tok, nil, nil)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Empty(t, resp.Header.Get("Access-Control-Expose-Headers"))
}

// The upload pre-check (a plain OPTIONS, no Access-Control-Request-Method)
// keeps working beside the preflight, from a browser page too.
func TestCORSUploadPreCheckBesidePreflight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	resp := e.preflight(e.api("/files/content"), testOrigin, "OPTIONS", "authorization,content-type")
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	resp, m := e.doJSON("OPTIONS", e.api("/files/content"), tok, `{"name":"q.txt","size":10,"parent":{"id":"0"}}`, hdr{"Origin": testOrigin})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	assert.True(t, strings.HasPrefix(m["upload_url"].(string), e.s.UploadURL()))
	assert.Equal(t, testOrigin, resp.Header.Get("Access-Control-Allow-Origin"))
	// Without a token the pre-check is still refused: only the preflight
	// is answered without one.
	resp, m = e.doJSON("OPTIONS", e.api("/files/content"), "", `{"name":"q.txt","size":10,"parent":{"id":"0"}}`, hdr{"Origin": testOrigin})
	requireAPIError(t, resp, m, http.StatusUnauthorized, "unauthorized")
}

func TestCORSConfiguredOrigins(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{CORSOrigins: []string{"HTTP://App.Example:8080/", "https://other.example:443"}})
	tok := e.s.UserToken()

	for _, o := range []string{"http://app.example:8080", "https://other.example"} {
		resp := e.preflight(e.api("/folders/0"), o, "GET", "authorization")
		require.Equal(t, http.StatusNoContent, resp.StatusCode, o)
		assert.Equal(t, o, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	resp := e.preflight(e.api("/folders/0"), "http://evil.example", "GET", "authorization")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Headers"))
	resp, _ = e.do("GET", e.api("/folders/0"), tok, nil, hdr{"Origin": "http://evil.example"})
	assert.Equal(t, http.StatusOK, resp.StatusCode) // the browser withholds it from the page
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
	resp, _ = e.do("GET", e.api("/folders/0"), tok, nil, hdr{"Origin": "http://app.example:8080"})
	assert.Equal(t, "http://app.example:8080", resp.Header.Get("Access-Control-Allow-Origin"))
}

func TestCORSOriginsValidated(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"app.example", "http://app.example/path", "http://app.example?x=1", "http://u@app.example", "", "://x"} {
		_, err := New(Options{CORSOrigins: []string{bad}})
		require.Error(t, err, "%q", bad)
		assert.Contains(t, err.Error(), "CORSOrigins")
	}
	s, err := New(Options{CORSOrigins: []string{"*"}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	assert.True(t, s.cors.allows("http://anything.example:1234"))
	s, err = New(Options{CORSOrigins: []string{"http://[::1]:3000"}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	assert.True(t, s.cors.allows("http://[::1]:3000"))
	assert.False(t, s.cors.allows("http://[::1]:3001"))
	assert.False(t, s.cors.allows("null"))
}
