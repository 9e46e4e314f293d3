package cms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seenRequest is what the fake service of the escape hatch's wire test saw.
type seenRequest struct {
	Method, RawPath, Query, Body string
	Header                       http.Header
	ContentLength                int64
}

// escapeEnv is a fake API root and upload root that record every request
// and answer with the handler the test gives.
type escapeEnv struct {
	mu     sync.Mutex
	seen   []seenRequest
	answer func(w http.ResponseWriter, r *http.Request, attempt int)
	client *cms.Client
}

func newEscapeEnv(t *testing.T, opts ...cms.Option) *escapeEnv {
	e := &escapeEnv{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.seen = append(e.seen, seenRequest{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b), r.Header.Clone(), r.ContentLength})
		n := len(e.seen)
		e.mu.Unlock()
		e.answer(w, r, n)
	}))
	t.Cleanup(srv.Close)
	noSleep := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	all := append([]cms.Option{cms.WithURLs(srv.URL+"/2.0", srv.URL+"/api/2.0"), cms.WithToken("tok"), cms.WithSleep(noSleep)}, opts...)
	c, err := cms.NewClient(all...)
	require.NoError(t, err)
	e.client = c
	return e
}

func (e *escapeEnv) requests() []seenRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]seenRequest(nil), e.seen...)
}

// TestEscapeHatchWire pins what NewRequest, NewUploadRequest and Do put on
// the wire: the roots, escaped path, query, JSON body, the client's headers
// (token, As-User, User-Agent), and how the answer is read: decoded into
// the caller's type, streamed into a writer, or an *APIError.
func TestEscapeHatchWire(t *testing.T) {
	t.Parallel()
	e := newEscapeEnv(t, cms.WithAsUser("77"), cms.WithHeader("X-Trace", "t1"))
	e.answer = func(w http.ResponseWriter, r *http.Request, _ int) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/missing"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"type":"error","status":404,"code":"not_found","message":"Not Found","request_id":"rq1"}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"type":"file","id":"12","name":"a b.txt","size":3}`)
		}
	}
	ctx := context.Background()

	// A JSON body and a query on the API root, decoded into the caller's type.
	req, err := e.client.NewRequest(http.MethodPost, "files/12/copy?fields=name,size", map[string]any{"parent": map[string]string{"id": "0"}, "name": nil})
	require.NoError(t, err)
	var mine struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	_, err = e.client.Do(ctx, req, &mine)
	require.NoError(t, err)
	assert.Equal(t, "a b.txt", mine.Name)

	// A path segment holding an escaped slash stays one segment; the
	// answer decodes into the SDK's own types too.
	req, err = e.client.NewRequest(http.MethodGet, "/folders/0/x%2Fy%20z", nil)
	require.NoError(t, err)
	req.SetQuery(url.Values{"limit": {"5"}})
	req.Header().Set("If-None-Match", "e1")
	var f cms.File
	_, err = e.client.Do(ctx, req, &f)
	require.NoError(t, err)
	assert.Equal(t, int64(3), f.Size)

	// A raw streamed body on the upload root, the answer streamed into a writer.
	req, err = e.client.NewUploadRequest(http.MethodPut, "files/upload_sessions/S1", nil)
	require.NoError(t, err)
	require.NoError(t, req.SetBody("application/octet-stream", io.MultiReader(strings.NewReader("part")), 4))
	req.Header().Set("Content-Range", "bytes 0-3/4")
	var out bytes.Buffer
	_, err = e.client.Do(ctx, req, &out)
	require.NoError(t, err)
	assert.Contains(t, out.String(), `"id":"12"`)

	// An error status is an *APIError matching the sentinels.
	req, err = e.client.NewRequest(http.MethodDelete, "webhooks/missing", nil)
	require.NoError(t, err)
	_, err = e.client.Do(ctx, req, nil)
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.True(t, errors.Is(err, cms.ErrNotFound))
	assert.Equal(t, "not_found", apiErr.Code)

	got := e.requests()
	require.Len(t, got, 4)
	assert.Equal(t, "POST", got[0].Method)
	assert.Equal(t, "/2.0/files/12/copy", got[0].RawPath)
	assert.Equal(t, "fields=name%2Csize", got[0].Query)
	assert.JSONEq(t, `{"parent":{"id":"0"},"name":null}`, got[0].Body)
	assert.Equal(t, "application/json", got[0].Header.Get("Content-Type"))
	assert.Equal(t, "/2.0/folders/0/x%2Fy%20z", got[1].RawPath)
	assert.Equal(t, "limit=5", got[1].Query)
	assert.Equal(t, "e1", got[1].Header.Get("If-None-Match"))
	assert.Equal(t, "PUT", got[2].Method)
	assert.Equal(t, "/api/2.0/files/upload_sessions/S1", got[2].RawPath)
	assert.Equal(t, "part", got[2].Body)
	assert.Equal(t, int64(4), got[2].ContentLength)
	assert.Equal(t, "application/octet-stream", got[2].Header.Get("Content-Type"))
	assert.Equal(t, "bytes 0-3/4", got[2].Header.Get("Content-Range"))
	for _, r := range got {
		assert.Equal(t, "Bearer tok", r.Header.Get("Authorization"))
		assert.Equal(t, "77", r.Header.Get("As-User"))
		assert.Equal(t, "t1", r.Header.Get("X-Trace"))
		assert.Contains(t, r.Header.Get("User-Agent"), "cms-go/")
	}
}

// TestEscapeHatchRetries: Do retries as the services' methods do — a GET
// on 503, a POST only on 429 (or with WithIdempotent), a seekable raw body
// sent whole again, a one-shot raw body never resent.
func TestEscapeHatchRetries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	failFirst := func(status int) func(http.ResponseWriter, *http.Request, int) {
		return func(w http.ResponseWriter, _ *http.Request, attempt int) {
			if attempt == 1 {
				w.WriteHeader(status)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"1"}`)
		}
	}
	send := func(e *escapeEnv, ctx context.Context, method string, body io.Reader) error {
		req, err := e.client.NewRequest(method, "things/1", nil)
		require.NoError(t, err)
		if body != nil {
			require.NoError(t, req.SetBody("text/plain", body, -1))
		}
		_, err = e.client.Do(ctx, req, nil)
		return err
	}

	e := newEscapeEnv(t)
	e.answer = failFirst(http.StatusServiceUnavailable)
	require.NoError(t, send(e, ctx, http.MethodGet, nil))
	assert.Len(t, e.requests(), 2, "a GET is retried on 503")

	e = newEscapeEnv(t)
	e.answer = failFirst(http.StatusServiceUnavailable)
	err := send(e, ctx, http.MethodPost, strings.NewReader("once"))
	assert.True(t, errors.As(err, new(*cms.APIError)), "%v", err)
	assert.Len(t, e.requests(), 1, "a POST is not retried on 503")

	e = newEscapeEnv(t)
	e.answer = failFirst(http.StatusServiceUnavailable)
	require.NoError(t, send(e, cms.WithIdempotent(ctx), http.MethodPost, strings.NewReader("again")))
	got := e.requests()
	require.Len(t, got, 2, "an idempotent POST is retried, its seekable body sent again")
	assert.Equal(t, "again", got[1].Body)

	e = newEscapeEnv(t)
	e.answer = failFirst(http.StatusTooManyRequests)
	err = send(e, ctx, http.MethodPost, io.MultiReader(strings.NewReader("one-shot")))
	require.Error(t, err, "a body that cannot be replayed is not sent twice")
	assert.Len(t, e.requests(), 1)
}

// TestEscapeHatchRefusesBadInput: bad paths, methods, bodies and headers
// are *ArgErrors, and nothing is sent.
func TestEscapeHatchRefusesBadInput(t *testing.T) {
	t.Parallel()
	e := newEscapeEnv(t)
	e.answer = func(w http.ResponseWriter, _ *http.Request, _ int) { w.WriteHeader(http.StatusOK) }
	for _, path := range []string{"", "/", "https://evil.example/2.0/files", "//evil.example/files", "files/../users/me", "files/./1", "files//1", "files/1#frag", "files/%zz"} {
		_, err := e.client.NewRequest(http.MethodGet, path, nil)
		assert.ErrorIs(t, err, cms.ErrInvalidArgument, path)
	}
	for _, method := range []string{"", "get", "GE T", "GET\n"} {
		_, err := e.client.NewRequest(method, "files/1", nil)
		assert.ErrorIs(t, err, cms.ErrInvalidArgument, method)
	}
	_, err := e.client.NewRequest(http.MethodPost, "files/1", strings.NewReader("raw"))
	assert.ErrorIs(t, err, cms.ErrInvalidArgument, "a reader is not a JSON body")
	_, err = e.client.NewRequest(http.MethodPost, "files/1", func() {})
	assert.Error(t, err, "a value JSON cannot encode")
	req, err := e.client.NewRequest(http.MethodPost, "files/1", json.RawMessage(`{"a":1}`))
	require.NoError(t, err)
	assert.ErrorIs(t, req.SetBody("", strings.NewReader("x"), 1), cms.ErrInvalidArgument)
	assert.ErrorIs(t, req.SetBody("text/plain", nil, 1), cms.ErrInvalidArgument)
	req.Header().Set("Authorization", "Bearer other")
	_, err = e.client.Do(context.Background(), req, nil)
	assert.ErrorIs(t, err, cms.ErrInvalidArgument)
	_, err = e.client.Do(context.Background(), nil, nil)
	assert.ErrorIs(t, err, cms.ErrInvalidArgument)
	assert.Empty(t, e.requests())
}
