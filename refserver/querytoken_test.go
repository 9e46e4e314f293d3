package refserver

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestQueryAccessToken(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	e := newEnv(t, Options{
		UserToken: "user-secret-token",
		Logger:    slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "a.txt", []byte("hello"))
	id := f["id"].(string)
	q := "?access_token=" + url.QueryEscape(tok)

	// A download with the token in the query, as the elements' download
	// link and Box's authenticated_download_url are used.
	resp, _ := e.do("GET", e.api("/files/"+id+"/content")+q+"&version="+f["file_version"].(map[string]any)["id"].(string), "", nil, nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc := resp.Header.Get("Location")
	assert.NotContains(t, loc, tok, "the redirect does not carry the token")
	resp, body := e.do("GET", loc, "", nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "hello", string(body))

	// A wrong token, an empty one or one given twice is refused.
	for _, bad := range []string{"?access_token=nope", "?access_token=", q + "&access_token=" + tok} {
		resp, m := e.doJSON("GET", e.api("/files/"+id+"/content")+bad, "", nil, nil)
		requireAPIError(t, resp, m, http.StatusUnauthorized, "unauthorized")
	}
	// An Authorization header is used instead of the parameter.
	resp, m := e.doJSON("GET", e.api("/files/"+id+"/content")+q, "nope", nil, nil)
	requireAPIError(t, resp, m, http.StatusUnauthorized, "unauthorized")
	resp, _ = e.do("GET", e.api("/files/"+id+"/content")+"?access_token=nope", tok, nil, nil)
	assert.Equal(t, http.StatusFound, resp.StatusCode)

	// Elsewhere the parameter is no token.
	for _, c := range []struct{ method, path string }{
		{"GET", "/files/" + id},
		{"GET", "/folders/0/items"},
		{"DELETE", "/files/" + id},
		{"GET", "/users/me"},
	} {
		resp, m := e.doJSON(c.method, e.api(c.path)+q, "", nil, nil)
		requireAPIError(t, resp, m, http.StatusUnauthorized, "unauthorized")
	}
	resp, _ = e.do("GET", e.s.UploadURL()+"/files/"+id+"/content"+q, "", nil, nil)
	assert.NotEqual(t, http.StatusFound, resp.StatusCode)

	// The token never reaches the request log or the logger.
	var seen int
	for _, rec := range e.s.Requests() {
		assert.NotContains(t, rec.RawQuery, tok)
		if strings.Contains(rec.RawQuery, "access_token=") {
			seen++
			assert.Contains(t, rec.RawQuery, "access_token=[redacted]")
		}
	}
	assert.Positive(t, seen)
	assert.NotContains(t, logs.String(), tok)
	assert.Contains(t, logs.String(), "/files/"+id+"/content")
}

func TestQueryTokenEndpoints(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		method, target string
		ok             bool
	}{
		{"GET", "/2.0/files/12/content?access_token=t", true},
		{"HEAD", "/2.0/files/12/content?access_token=t", true},
		{"GET", "/2.0/files/12/thumbnail.png?access_token=t&min_width=32", true},
		{"GET", "/2.0/files/12/thumbnail.jpg?access_token=t", true},
		{"GET", "/2.0/users/7/avatar?access_token=t&pic_type=large", true},
		{"POST", "/2.0/files/12/content?access_token=t", false},
		{"GET", "/2.0/files/12?access_token=t", false},
		{"GET", "/2.0/files//content?access_token=t", false},
		{"GET", "/2.0/files/12/content/x?access_token=t", false},
		{"GET", "/2.0/files/12/thumbnail.gif?access_token=t", false},
		{"GET", "/2.0/folders/0/items?access_token=t", false},
		{"GET", "/api/2.0/files/12/content?access_token=t", false},
		{"GET", "/2.0/files/12/content", false},
	} {
		r, err := http.NewRequest(c.method, "http://api.cms.test"+c.target, nil)
		require.NoError(t, err)
		tok, ok := queryToken(r)
		assert.Equal(t, c.ok, ok, "%s %s", c.method, c.target)
		if ok {
			assert.Equal(t, "t", tok)
		}
	}
}

func TestRedactQueryToken(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                  "",
		"fields=name":                       "fields=name",
		"access_token=abc":                  "access_token=[redacted]",
		"a=1&access_token=abc&b=2":          "a=1&access_token=[redacted]&b=2",
		"access%5Ftoken=abc&access_token=d": "access%5Ftoken=[redacted]&access_token=[redacted]",
		"access_token":                      "access_token=[redacted]",
		"x_access_token=abc":                "x_access_token=abc",
	} {
		assert.Equal(t, want, redactQueryToken(in), "%q", in)
	}
}

// FuzzRedactQueryToken: whatever the query, no access_token value survives
// redaction as the server's own query parser reads it.
func FuzzRedactQueryToken(f *testing.F) {
	for _, s := range []string{"access_token=abc", "a=1&access_token=x&access_token=y", "access%5Ftoken=z", "access_token", "%zz&access_token=q", "a;access_token=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out := redactQueryToken(raw)
		vals, _ := url.ParseQuery(out)
		for _, v := range vals[queryTokenParam] {
			if v != "[redacted]" {
				t.Fatalf("redactQueryToken(%q) = %q keeps %q", raw, out, v)
			}
		}
	})
}
