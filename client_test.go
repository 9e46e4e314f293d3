package cms

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewClientOptionsValidate(t *testing.T) {
	t.Parallel()
	bad := map[string][]Option{
		"no credentials":    nil,
		"empty token":       {WithToken(" ")},
		"nil token source":  {WithToken("t"), WithTokenSource(nil)},
		"relative base":     {WithToken("t"), WithBaseURL("/2.0")},
		"ftp upload":        {WithToken("t"), WithUploadURL("ftp://x/api")},
		"base with query":   {WithToken("t"), WithBaseURL("https://x/2.0?a=b")},
		"nil http client":   {WithToken("t"), WithHTTPClient(nil)},
		"negative backoff":  {WithToken("t"), WithRetryPolicy(RetryPolicy{MinBackoff: -1})},
		"retry on 200":      {WithToken("t"), WithRetryPolicy(RetryPolicy{RetryStatuses: []int{200}})},
		"backoff inverted":  {WithToken("t"), WithRetryPolicy(RetryPolicy{MinBackoff: 2, MaxBackoff: 1})},
		"header newline":    {WithToken("t"), WithHeader("X-A", "b\r\nc")},
		"authorization hdr": {WithToken("t"), WithHeader("authorization", "Bearer x")},
		"as-user traversal": {WithToken("t"), WithAsUser("../1")},
		"nil logger":        {WithToken("t"), WithLogger(nil)},
		"multi-line UA":     {WithToken("t"), WithUserAgent("a\nb")},
	}
	for name, opts := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := NewClient(opts...)
			assert.Error(t, err)
		})
	}
	c, err := NewClient(WithToken("t"), WithBaseURL("http://127.0.0.1:1/2.0/"), WithUploadURL("http://127.0.0.1:2/api/2.0"))
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:1/2.0", c.BaseURL())
	assert.Equal(t, "http://127.0.0.1:2/api/2.0", c.UploadURL())
	d, err := NewClient(WithToken("t"))
	require.NoError(t, err)
	assert.Equal(t, DefaultBaseURL, d.BaseURL())
	assert.Equal(t, DefaultUploadURL, d.UploadURL())
}

func TestRequestHeadersAndPaths(t *testing.T) {
	t.Parallel()
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"1","type":"file"}`))
	}))
	defer srv.Close()
	c, err := NewClient(WithToken("tok"), WithBaseURL(srv.URL+"/base/2.0"), WithAsUser("77"), WithHeader("X-Extra", "v"), WithUserAgent("myapp/1"))
	require.NoError(t, err)
	r, err := c.newRequest("GET", c.cfg.baseURL, &FieldsOptions{Fields: []string{"id", "name"}}, "files", "a b")
	require.NoError(t, err)
	var f File
	_, err = c.do(context.Background(), r, &f)
	require.NoError(t, err)
	assert.Equal(t, "/base/2.0/files/a%20b", got.URL.EscapedPath(), "mounted under a non-root path, segments escaped")
	assert.Equal(t, "id,name", got.URL.Query().Get("fields"))
	assert.Equal(t, "Bearer tok", got.Header.Get("Authorization"))
	assert.Equal(t, "77", got.Header.Get("As-User"))
	assert.Equal(t, "v", got.Header.Get("X-Extra"))
	assert.Contains(t, got.Header.Get("User-Agent"), "myapp/1 cms-go/")

	_, err = c.newRequest("GET", c.cfg.baseURL, nil, "files", "..")
	assert.ErrorIs(t, err, ErrInvalidID)

	// Clone derives without changing the original.
	c2, err := c.Clone(WithAsUser("88"))
	require.NoError(t, err)
	assert.Equal(t, "88", c2.cfg.asUser)
	assert.Equal(t, "77", c.cfg.asUser)
}

func TestNoRedirectFollowingAndNoTokenInLogs(t *testing.T) {
	t.Parallel()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("API client followed a redirect to another host (Authorization %q)", r.Header.Get("Authorization"))
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/x?access_token=LEAK", http.StatusFound)
	}))
	defer api.Close()
	var logs bytes.Buffer
	c, err := NewClient(WithToken("SECRET-TOKEN"), WithBaseURL(api.URL+"/2.0"), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	require.NoError(t, err)
	r, err := c.newRequest("GET", c.cfg.baseURL, nil, "files", "1", "content")
	require.NoError(t, err)
	_, err = c.send(context.Background(), r)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusFound, ae.StatusCode)
	r.acceptRedirect = true
	resp, err := c.send(context.Background(), r)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	assert.NotContains(t, logs.String(), "SECRET-TOKEN")
	assert.Contains(t, logs.String(), "cms request")
}

func TestRetryPolicyZeroMeansDefault(t *testing.T) {
	t.Parallel()
	c, err := NewClient(WithToken("t"), WithRetryPolicy(RetryPolicy{MaxRetries: 2}))
	require.NoError(t, err)
	d := DefaultRetryPolicy()
	assert.Equal(t, d.MaxRetryAfter, c.cfg.retry.MaxRetryAfter)
	assert.Equal(t, d.MinBackoff, c.cfg.retry.MinBackoff, "zero backoff means the default, not none")
	assert.Equal(t, d.MaxBackoff, c.cfg.retry.MaxBackoff)
	assert.Equal(t, []int{429, 500, 502, 503, 504}, c.cfg.retry.RetryStatuses)
	assert.Equal(t, 2, c.cfg.retry.MaxRetries)

	n, err := NewClient(WithToken("t"), WithoutRetries())
	require.NoError(t, err)
	assert.Negative(t, n.cfg.retry.MaxRetries)
	m, err := NewClient(WithToken("t"), WithRetryPolicy(RetryPolicy{MaxRetries: -1}))
	require.NoError(t, err)
	assert.Negative(t, m.cfg.retry.MaxRetries, "negative means no retries")
}

func TestCallRetryPolicyValidated(t *testing.T) {
	t.Parallel()
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls++ }))
	defer srv.Close()
	c, err := NewClient(WithToken("t"), WithBaseURL(srv.URL))
	require.NoError(t, err)
	ctx := WithCallRetryPolicy(context.Background(), RetryPolicy{MaxBackoff: -time.Second})
	_, _, err = c.Files.Get(ctx, "1", nil)
	var ae *ArgError
	require.ErrorAs(t, err, &ae)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Zero(t, calls, "nothing was sent")

	//lint:ignore SA1012 the nil context is the point of the test
	_, _, err = c.Files.Get(nil, "1", nil) //nolint:staticcheck
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "ctx", ae.Arg)
}
