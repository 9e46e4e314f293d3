package cms

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sha1Hex(b []byte) string {
	s := sha1.Sum(b)
	return hex.EncodeToString(s[:])
}

// downloadEnv serves two files: "1" (current version "v2", older "v1") and
// "corrupt" whose listed SHA-1 does not match its content. Downloads
// redirect to the content host, which refuses any Authorization header.
type downloadEnv struct {
	*filesEnv
	contents map[string][]byte // "<file>/<version>" → bytes
	notReady atomic.Int32      // answer 202 this many times first
	// retryAfter is the Retry-After of those 202s ("0" unless stored).
	retryAfter atomic.Value
}

func newDownloadEnv(t *testing.T, opts ...Option) *downloadEnv {
	t.Helper()
	e := &downloadEnv{filesEnv: newFilesEnv(t, opts...), contents: map[string][]byte{
		"1/v1":       []byte("first version"),
		"1/v2":       []byte("0123456789 second version"),
		"corrupt/v9": []byte("bytes that rotted"),
	}}
	e.retryAfter.Store("0")
	current := map[string]string{"1": "v2", "corrupt": "v9"}
	e.api.HandleFunc("GET /files/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		v, ok := current[id]
		if !ok {
			writeError(w, http.StatusNotFound, "not_found")
			return
		}
		sum := sha1Hex(e.contents[id+"/"+v])
		if id == "corrupt" {
			sum = sha1Hex([]byte("the original bytes"))
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "type": "file", "sha1": sum,
			"file_version": map[string]any{"id": v, "type": "file_version", "sha1": sum}})
	})
	e.api.HandleFunc("GET /files/{id}/versions/{v}", func(w http.ResponseWriter, r *http.Request) {
		c, ok := e.contents[r.PathValue("id")+"/"+r.PathValue("v")]
		if !ok {
			writeError(w, http.StatusNotFound, "not_found")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": r.PathValue("v"), "type": "file_version", "sha1": sha1Hex(c)})
	})
	e.api.HandleFunc("GET /files/{id}/content", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		v := r.URL.Query().Get("version")
		if v == "" {
			v = current[id]
		}
		if _, ok := e.contents[id+"/"+v]; !ok {
			writeError(w, http.StatusNotFound, "not_found")
			return
		}
		if e.notReady.Add(-1) >= 0 {
			w.Header().Set("Retry-After", e.retryAfter.Load().(string))
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Location", e.contentSrv.URL+"/d/signed-"+id+"-"+v)
		w.WriteHeader(http.StatusFound)
	})
	e.content.HandleFunc("GET /d/{token}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			writeError(w, http.StatusForbidden, "authorization_not_allowed")
			return
		}
		key := strings.Replace(strings.TrimPrefix(r.PathValue("token"), "signed-"), "-", "/", 1)
		c, ok := e.contents[key]
		if !ok {
			writeError(w, http.StatusForbidden, "link_expired")
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(c))
	})
	return e
}

func TestFilesDownloadRedirectCarriesNoAuthorization(t *testing.T) {
	t.Parallel()
	e := newDownloadEnv(t)
	ctx := context.Background()
	tests := []struct {
		name     string
		opts     *DownloadOptions
		want     string
		status   int
		rangeHdr string
	}{
		{"current version", nil, "0123456789 second version", http.StatusOK, ""},
		{"older version", &DownloadOptions{Version: "v1"}, "first version", http.StatusOK, ""},
		{"range", &DownloadOptions{Range: &ByteRange{Start: 2, Length: 4}}, "2345", http.StatusPartialContent, "bytes=2-5"},
		{"open range", &DownloadOptions{Range: RangeFrom(18)}, "version", http.StatusPartialContent, "bytes=18-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, resp, err := e.client.Files.Download(ctx, "1", tt.opts)
			require.NoError(t, err)
			defer body.Close()
			got, err := io.ReadAll(body)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, tt.status, resp.StatusCode)
		})
	}
	var api, content int
	for _, r := range e.requests() {
		switch r.Host {
		case "api":
			api++
			assert.Equal(t, "Bearer "+testToken, r.Header.Get("Authorization"))
		case "content":
			content++
			assert.Empty(t, r.Header.Get("Authorization"), "the token must never reach the download host")
			assert.Empty(t, r.Header.Get("Boxapi"))
		}
		if strings.Contains(r.Query, "version=v1") {
			assert.Equal(t, "/2.0/files/1/content", r.Path)
		}
	}
	assert.Equal(t, len(tests), api)
	assert.Equal(t, len(tests), content)
	for _, r := range e.requests() {
		if r.Host == "content" && r.Header.Get("Range") != "" {
			assert.Contains(t, []string{"bytes=2-5", "bytes=18-"}, r.Header.Get("Range"))
		}
	}
}

func TestFilesDownloadSameHostRedirectKeepsAuth(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("GET /files/{id}/content", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "/2.0/internal/blob/"+r.PathValue("id"))
		w.WriteHeader(http.StatusFound)
	})
	e.api.HandleFunc("GET /internal/blob/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			writeError(w, http.StatusUnauthorized, "unauthorized")
			return
		}
		assert.Equal(t, "bytes=0-1", r.Header.Get("Range"))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = io.WriteString(w, "ok")
	})
	body, resp, err := e.client.Files.Download(context.Background(), "5", &DownloadOptions{Range: &ByteRange{Start: 0, Length: 2}})
	require.NoError(t, err)
	defer body.Close()
	b, _ := io.ReadAll(body)
	assert.Equal(t, "ok", string(b))
	assert.Equal(t, http.StatusPartialContent, resp.StatusCode)
}

func TestFilesDownloadURL(t *testing.T) {
	t.Parallel()
	e := newDownloadEnv(t)
	u, resp, err := e.client.Files.DownloadURL(context.Background(), "1", &DownloadOptions{Version: "v1"})
	require.NoError(t, err)
	assert.Equal(t, e.contentSrv.URL+"/d/signed-1-v1", u)
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	for _, r := range e.requests() {
		assert.Equal(t, "api", r.Host, "DownloadURL must not fetch the content")
	}
}

func TestFilesDownloadErrors(t *testing.T) {
	t.Parallel()
	e := newDownloadEnv(t)
	ctx := context.Background()

	t.Run("file not found", func(t *testing.T) {
		_, _, err := e.client.Files.Download(ctx, "404", nil)
		assert.ErrorIs(t, err, ErrNotFound)
	})
	t.Run("content host error is an APIError without the signed URL", func(t *testing.T) {
		e2 := newFilesEnv(t)
		e2.api.HandleFunc("GET /files/{id}/content", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", e2.contentSrv.URL+"/d/secret-signature?sig=abc")
			w.WriteHeader(http.StatusFound)
		})
		e2.content.HandleFunc("GET /d/{token}", func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusForbidden, "link_expired")
		})
		_, _, err := e2.client.Files.Download(ctx, "1", &DownloadOptions{SharedLink: "https://s/x", SharedLinkPassword: "pa55word"})
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		assert.ErrorIs(t, err, ErrForbidden)
		assert.Equal(t, "link_expired", apiErr.Code)
		assert.NotContains(t, err.Error(), "secret-signature")
		assert.NotContains(t, err.Error(), "sig=abc")
		assert.NotContains(t, err.Error(), "pa55word")
	})
	t.Run("redirect without location", func(t *testing.T) {
		e2 := newFilesEnv(t)
		e2.api.HandleFunc("GET /files/{id}/content", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusFound)
		})
		_, _, err := e2.client.Files.Download(ctx, "1", nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Location")
	})
	t.Run("range not satisfiable", func(t *testing.T) {
		_, _, err := e.client.Files.Download(ctx, "1", &DownloadOptions{Range: RangeFrom(1000)})
		assert.ErrorIs(t, err, ErrRangeNotSatisfied)
	})
}

func TestFilesDownloadWaitsForContent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("waited out", func(t *testing.T) {
		t.Parallel()
		e := newDownloadEnv(t)
		e.notReady.Store(2)
		body, _, err := e.client.Files.Download(ctx, "1", nil)
		require.NoError(t, err)
		defer body.Close()
		b, _ := io.ReadAll(body)
		assert.Equal(t, "0123456789 second version", string(b))
		assert.Len(t, e.requests(), 4, "two 202s, the 302, the content")
	})
	t.Run("too many waits", func(t *testing.T) {
		t.Parallel()
		e := newDownloadEnv(t)
		e.notReady.Store(5)
		_, resp, err := e.client.Files.Download(ctx, "1", &DownloadOptions{MaxWaits: 2})
		var acc *AcceptedError
		require.ErrorAs(t, err, &acc)
		assert.Equal(t, http.StatusAccepted, resp.StatusCode)
		assert.Len(t, e.requests(), 3)
	})
	t.Run("never wait", func(t *testing.T) {
		t.Parallel()
		e := newDownloadEnv(t)
		e.notReady.Store(1)
		_, _, err := e.client.Files.DownloadURL(ctx, "1", &DownloadOptions{MaxWaits: -1})
		var acc *AcceptedError
		require.ErrorAs(t, err, &acc)
	})
	t.Run("wait past the deadline is not started", func(t *testing.T) {
		t.Parallel()
		e := newDownloadEnv(t)
		e.notReady.Store(1)
		e.retryAfter.Store("30")
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		start := time.Now()
		_, _, err := e.client.Files.Download(dctx, "1", nil)
		var acc *AcceptedError
		require.ErrorAs(t, err, &acc)
		assert.Equal(t, 30*time.Second, acc.RetryAfter)
		assert.Less(t, time.Since(start), 2*time.Second)
	})
	t.Run("wait beyond MaxRetryAfter is not started", func(t *testing.T) {
		t.Parallel()
		e := newDownloadEnv(t)
		e.notReady.Store(1)
		e.retryAfter.Store("3600")
		_, _, err := e.client.Files.Download(ctx, "1", nil)
		var acc *AcceptedError
		require.ErrorAs(t, err, &acc)
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		t.Parallel()
		e := newDownloadEnv(t)
		e.notReady.Store(1)
		e.retryAfter.Store("30")
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(20*time.Millisecond, cancel)
		_, _, err := e.client.Files.Download(cctx, "1", nil)
		assert.ErrorIs(t, err, context.Canceled)
	})
}

func TestFilesDownloadTo(t *testing.T) {
	t.Parallel()
	e := newDownloadEnv(t)
	ctx := context.Background()
	tests := []struct {
		name    string
		id      string
		opts    *DownloadOptions
		want    string
		wantErr error
	}{
		{"current version verified", "1", nil, "0123456789 second version", nil},
		{"older version verified", "1", &DownloadOptions{Version: "v1"}, "first version", nil},
		{"current version named", "1", &DownloadOptions{Version: "v2"}, "0123456789 second version", nil},
		{"partial range not verified", "corrupt", &DownloadOptions{Range: &ByteRange{Start: 0, Length: 5}}, "bytes", nil},
		{"mismatch", "corrupt", nil, "bytes that rotted", ErrChecksumMismatch},
		{"missing file", "404", nil, "", ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			n, _, err := e.client.Files.DownloadTo(ctx, tt.id, &buf, tt.opts)
			assert.Equal(t, tt.want, buf.String())
			assert.Equal(t, int64(len(tt.want)), n)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr == ErrChecksumMismatch {
				var ce *ChecksumError
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, sha1Hex([]byte("bytes that rotted")), ce.Got)
				assert.Equal(t, sha1Hex([]byte("the original bytes")), ce.Want)
			}
		})
	}
}

// failingWriter fails after accepting n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestFilesDownloadToWriterError(t *testing.T) {
	t.Parallel()
	e := newDownloadEnv(t)
	n, _, err := e.client.Files.DownloadTo(context.Background(), "1", &failingWriter{n: 3}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "disk full")
	assert.Equal(t, int64(3), n)
}

// TestFilesDownloadTransportCounts uses httpmock to count exactly how often
// each host is called: the content host is retried on 503 (GET), the API
// call is not repeated, and the content host never sees a token.
func TestFilesDownloadTransportCounts(t *testing.T) {
	t.Parallel()
	apiMock := httpmock.NewMockTransport()
	dlMock := httpmock.NewMockTransport()
	apiMock.RegisterResponder(http.MethodGet, "https://api.example.test/2.0/files/7/content",
		func(r *http.Request) (*http.Response, error) {
			resp := httpmock.NewStringResponse(http.StatusFound, "")
			resp.Header.Set("Location", "https://dl.example.test/d/xyz")
			return resp, nil
		})
	var attempts int
	dlMock.RegisterResponder(http.MethodGet, "https://dl.example.test/d/xyz",
		func(r *http.Request) (*http.Response, error) {
			attempts++
			if r.Header.Get("Authorization") != "" {
				return httpmock.NewStringResponse(http.StatusForbidden, ""), nil
			}
			if attempts == 1 {
				return httpmock.NewStringResponse(http.StatusServiceUnavailable, ""), nil
			}
			return httpmock.NewStringResponse(http.StatusOK, "content"), nil
		})
	c, err := NewClient(WithToken(testToken), WithURLs("https://api.example.test/2.0", "https://upload.example.test/api/2.0"),
		WithHTTPClient(&http.Client{Transport: apiMock}),
		WithDownloadHTTPClient(&http.Client{Transport: dlMock}),
		WithRetryPolicy(RetryPolicy{MaxRetries: 3, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond, MaxRetryAfter: time.Second}))
	require.NoError(t, err)
	body, _, err := c.Files.Download(context.Background(), "7", nil)
	require.NoError(t, err)
	defer body.Close()
	b, _ := io.ReadAll(body)
	assert.Equal(t, "content", string(b))
	assert.Equal(t, 1, apiMock.GetTotalCallCount())
	assert.Equal(t, 2, dlMock.GetTotalCallCount())
	assert.Equal(t, 1, apiMock.GetCallCountInfo()["GET https://api.example.test/2.0/files/7/content"], fmt.Sprint(apiMock.GetCallCountInfo()))
}

// TestFilesDownloadLogsNoSecrets: with debug logging on, neither the token,
// the shared link password nor the signed download URL reach the log.
func TestFilesDownloadLogsNoSecrets(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := newDownloadEnv(t, WithLogger(logger))
	ctx := context.Background()
	var out bytes.Buffer
	_, _, err := e.client.Files.DownloadTo(ctx, "1", &out, &DownloadOptions{SharedLink: "https://s/l", SharedLinkPassword: "pa55word"})
	require.NoError(t, err)
	log := buf.String()
	assert.Contains(t, log, "cms download")
	for _, secret := range []string{testToken, "pa55word", "signed-1-v2"} {
		assert.NotContains(t, log, secret)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestByteRangeZeroMeansToTheEnd(t *testing.T) {
	t.Parallel()
	for want, r := range map[string]ByteRange{
		"bytes=0-":    {},
		"bytes=100-":  {Start: 100},
		"bytes=0-0":   {Length: 1},
		"bytes=10-19": {Start: 10, Length: 10},
	} {
		assert.Equal(t, want, r.String())
		assert.NoError(t, r.check())
	}
	for _, bad := range []ByteRange{{Start: -1}, {Length: -1}, {Start: math.MaxInt64, Length: 2}} {
		assert.ErrorIs(t, bad.check(), ErrInvalidArgument)
	}
}
