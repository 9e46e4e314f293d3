package refserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFaultStatusThenSuccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "f.txt", []byte("x"))
	e.s.Inject(Fault{Method: "GET", Path: "/files/*", Count: 2, Status: 429, RetryAfter: 1500 * time.Millisecond})
	url := e.api("/files/" + f["id"].(string))
	for range 2 {
		resp, m := e.doJSON("GET", url, tok, nil, nil)
		requireAPIError(t, resp, m, 429, "rate_limit_exceeded")
		assert.Equal(t, "2", resp.Header.Get("Retry-After"))
	}
	resp, _ := e.doJSON("GET", url, tok, nil, nil)
	assert.Equal(t, 200, resp.StatusCode)

	// Faults match before auth; other methods and paths are not affected.
	e.s.Inject(Fault{Path: "/folders/0", Status: 503})
	resp, _ = e.doJSON("GET", url, "", nil, nil)
	assert.Equal(t, 401, resp.StatusCode)
	resp, m := e.doJSON("GET", e.api("/folders/0"), "", nil, nil)
	requireAPIError(t, resp, m, 503, "unavailable")
	resp, _ = e.doJSON("GET", e.api("/folders/0"), tok, nil, nil)
	assert.Equal(t, 200, resp.StatusCode)

	// Upload root paths are matched below /api/2.0; ClearFaults removes all.
	e.s.Inject(Fault{Method: "PUT", Path: "/files/upload_sessions/*", Count: 5, Status: 500})
	e.s.ClearFaults()
	sess := e.createSession(tok, "0", "s.bin", 5)
	e.s.Inject(Fault{Method: "PUT", Path: "/files/upload_sessions/*", Status: 502})
	resp, m = e.putPart(tok, endpoints(sess)["upload_part"], []byte("abcd"), 0, 5, nil)
	requireAPIError(t, resp, m, 502, "bad_gateway")
	resp, _ = e.putPart(tok, endpoints(sess)["upload_part"], []byte("abcd"), 0, 5, nil)
	assert.Equal(t, 200, resp.StatusCode)
}

func TestFaultReset(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.s.Inject(Fault{Path: "/folders/0", Reset: true})
	req, err := http.NewRequest("GET", e.api("/folders/0"), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+e.s.UserToken())
	_, err = e.hc.Do(req)
	require.Error(t, err)
	resp, _ := e.doJSON("GET", e.api("/folders/0"), e.s.UserToken(), nil, nil)
	assert.Equal(t, 200, resp.StatusCode)

	// In process, a reset panics with http.ErrAbortHandler.
	s, err := New(Options{})
	require.NoError(t, err)
	s.Inject(Fault{Reset: true})
	rec := httptest.NewRecorder()
	assert.PanicsWithValue(t, http.ErrAbortHandler, func() {
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", s.BaseURL()+"/folders/0", nil))
	})
}

func TestFaultDelay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.s.Inject(Fault{Path: "/folders/0", Delay: 50 * time.Millisecond})
	start := time.Now()
	resp, _ := e.doJSON("GET", e.api("/folders/0"), e.s.UserToken(), nil, nil)
	assert.Equal(t, 200, resp.StatusCode)
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond)

	// A delay is cut short by the request context.
	e.s.Inject(Fault{Path: "/folders/0", Delay: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", e.api("/folders/0"), nil)
	require.NoError(t, err)
	_, err = e.hc.Do(req)
	require.Error(t, err)
}

func TestMatchPath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"", "/anything", true},
		{"/files/*/content", "/files/12/content", true},
		{"/files/*/content", "/files/12", false},
		{"/files/upload_sessions/*", "/files/upload_sessions/AB", true},
		{"/files/upload_sessions/*", "/files/upload_sessions/AB/commit", false},
		{"/folders/0", "/folders/0", true},
		{"/folders/0", "/folders/1", false},
		{"/files/{file_id}/content", "/files/12/content", true},
		{"/files/{file_id}/content", "/files/12/versions", false},
		{"/files/{file_id}", "/files/12/", true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, matchPath(c.pattern, c.path), "%s %s", c.pattern, c.path)
	}
}

// TestFaultStatusCodes: an injected status answers with the service's
// standard error code for it.
func TestFaultStatusCodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	for status, code := range map[int]string{
		400: "bad_request", 403: "forbidden", 404: "not_found", 409: "conflict", 412: "precondition_failed",
		429: "rate_limit_exceeded", 500: "internal_server_error", 502: "bad_gateway", 503: "unavailable",
	} {
		e.s.Inject(Fault{Method: "GET", Path: "/folders/0", Status: status})
		resp, m := e.doJSON("GET", e.api("/folders/0"), tok, nil, nil)
		requireAPIError(t, resp, m, status, code)
	}
	resp, _ := e.doJSON("GET", e.api("/folders/0"), tok, nil, nil)
	assert.Equal(t, 200, resp.StatusCode, "every fault was spent")
}
