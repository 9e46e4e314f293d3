package cms

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewClientOptionsValidate(t *testing.T) {
	t.Parallel()
	// Each bad option is refused with an error that names what is wrong.
	bad := map[string]struct {
		opts []Option
		want string
	}{
		"no credentials":    {nil, "no credentials: use WithToken or WithTokenSource"},
		"empty token":       {[]Option{WithToken(" ")}, "token is empty"},
		"nil token source":  {[]Option{WithToken("t"), WithTokenSource(nil)}, "token source is nil"},
		"relative base":     {[]Option{WithToken("t"), WithBaseURL("/2.0")}, "base URL: scheme"},
		"ftp upload":        {[]Option{WithToken("t"), WithUploadURL("ftp://x/api")}, `upload URL: scheme "ftp" is not http or https`},
		"base with query":   {[]Option{WithToken("t"), WithBaseURL("https://x/2.0?a=b")}, "base URL: must not have a query"},
		"nil http client":   {[]Option{WithToken("t"), WithHTTPClient(nil)}, "HTTP client is nil"},
		"negative backoff":  {[]Option{WithToken("t"), WithRetryPolicy(RetryPolicy{MinBackoff: -1})}, "retry policy: durations must not be negative"},
		"retry on 200":      {[]Option{WithToken("t"), WithRetryPolicy(RetryPolicy{RetryStatuses: []int{200}})}, "200"},
		"backoff inverted":  {[]Option{WithToken("t"), WithRetryPolicy(RetryPolicy{MinBackoff: 2, MaxBackoff: 1})}, "MaxBackoff"},
		"header newline":    {[]Option{WithToken("t"), WithHeader("X-A", "b\r\nc")}, `header "X-A": the name is empty, or the name or value is not one line`},
		"authorization hdr": {[]Option{WithToken("t"), WithHeader("authorization", "Bearer x")}, `header "authorization": set credentials with WithToken`},
		"as-user traversal": {[]Option{WithToken("t"), WithAsUser("../1")}, "user"},
		"nil logger":        {[]Option{WithToken("t"), WithLogger(nil)}, "logger is nil"},
		"multi-line UA":     {[]Option{WithToken("t"), WithUserAgent("a\nb")}, "user agent"},
		"custom base alone": {[]Option{WithToken("t"), WithBaseURL("https://staging.example/2.0")}, "add WithUploadURL, or set both with WithURLs"},
		"custom upload alone": {[]Option{WithToken("t"), WithUploadURL("https://staging.example/api/2.0")},
			"add WithBaseURL, or set both with WithURLs"},
		"bad root in WithURLs": {[]Option{WithToken("t"), WithURLs("https://x/2.0", "/api/2.0")}, "upload URL"},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := NewClient(c.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.True(t, strings.HasPrefix(err.Error(), "cms: "), err.Error())
			assert.NotContains(t, err.Error(), "cms: cms:")
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
	c, err := NewClient(WithToken("tok"), WithURLs(srv.URL+"/base/2.0", srv.URL+"/base/api/2.0"), WithAsUser("77"), WithHeader("X-Extra", "v"), WithUserAgent("myapp/1"))
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
	c, err := NewClient(WithToken("SECRET-TOKEN"), WithURLs(api.URL+"/2.0", api.URL+"/api/2.0"), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
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
	c, err := NewClient(WithToken("t"), WithURLs(srv.URL, srv.URL+"/api"))
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

// TestRootsBelongTogether: a custom API root needs its upload root (and the
// other way round), in NewClient and in Clone, so that no call sends a
// deployment's token to the public service; the public roots, WithURLs and
// both options together are accepted.
func TestRootsBelongTogether(t *testing.T) {
	t.Parallel()
	ok := [][]Option{
		{WithToken("t")},
		{WithToken("t"), WithBaseURL(DefaultBaseURL)},
		{WithToken("t"), WithUploadURL(DefaultUploadURL)},
		{WithToken("t"), WithURLs("https://staging.example/2.0", "https://up.staging.example/api/2.0")},
		{WithToken("t"), WithUploadURL("https://up.staging.example/api/2.0"), WithBaseURL("https://staging.example/2.0")},
	}
	for i, opts := range ok {
		_, err := NewClient(opts...)
		assert.NoError(t, err, "case %d", i)
	}
	c, err := NewClient(WithToken("t"), WithURLs("https://staging.example/2.0", "https://up.staging.example/api/2.0"))
	require.NoError(t, err)
	assert.Equal(t, "https://up.staging.example/api/2.0", c.UploadURL())
	// A clone keeps its roots unless told; moving both is fine.
	_, err = c.Clone(WithUserAgent("x/1"))
	assert.NoError(t, err)
	d, err := c.Clone(WithURLs("https://other.example/2.0", "https://up.other.example/api/2.0"))
	require.NoError(t, err)
	assert.Equal(t, "https://other.example/2.0", d.BaseURL())
	// A clone of a client of the public service that moves its API root
	// only is refused: its uploads would still go to the public service.
	pub, err := NewClient(WithToken("t"))
	require.NoError(t, err)
	_, err = pub.Clone(WithBaseURL("https://staging.example/2.0"))
	assert.ErrorContains(t, err, "https://upload.box.com/api/2.0")
}
