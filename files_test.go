package cms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testToken is the token the test clients send.
const testToken = "test-token-s3cr3t"

// filesEnv is a fake service: the API (under /2.0) and upload root (under
// /api/2.0) on one host, and a content host on another port (so another
// origin). Handlers are added to the muxes; every request is recorded.
type filesEnv struct {
	client     *Client
	api        *http.ServeMux // paths relative to /2.0
	upload     *http.ServeMux // paths relative to /api/2.0
	content    *http.ServeMux
	apiSrv     *httptest.Server
	contentSrv *httptest.Server

	mu   sync.Mutex
	reqs []recorded
}

// recorded is one request seen by the fake service.
type recorded struct {
	Host   string // "api" or "content"
	Method string
	Path   string
	Query  string
	Header http.Header
}

func newFilesEnv(t *testing.T, opts ...Option) *filesEnv {
	t.Helper()
	e := &filesEnv{api: http.NewServeMux(), upload: http.NewServeMux(), content: http.NewServeMux()}
	root := http.NewServeMux()
	root.Handle("/2.0/", http.StripPrefix("/2.0", e.api))
	root.Handle("/api/2.0/", http.StripPrefix("/api/2.0", e.upload))
	e.apiSrv = httptest.NewServer(e.record("api", root))
	t.Cleanup(e.apiSrv.Close)
	e.contentSrv = httptest.NewServer(e.record("content", e.content))
	t.Cleanup(e.contentSrv.Close)
	fast := RetryPolicy{MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond, MaxRetryAfter: time.Minute}
	all := append([]Option{
		WithToken(testToken),
		WithBaseURL(e.apiSrv.URL + "/2.0"),
		WithUploadURL(e.apiSrv.URL + "/api/2.0"),
		WithRetryPolicy(fast),
	}, opts...)
	c, err := NewClient(all...)
	require.NoError(t, err)
	e.client = c
	return e
}

func (e *filesEnv) record(host string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.reqs = append(e.reqs, recorded{Host: host, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone()})
		e.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// requests returns the requests seen so far.
func (e *filesEnv) requests() []recorded {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]recorded(nil), e.reqs...)
}

// writeJSON answers with status and v (a []byte is sent as is).
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if b, ok := v.([]byte); ok {
		_, _ = w.Write(b)
		return
	}
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with a ClientError body.
func writeError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]any{"type": "error", "status": status, "code": code, "message": code, "request_id": "req-" + code})
}

// golden reads testdata/name.
func golden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// testJSONMarshal checks that the golden JSON decodes into v and encodes
// back to the same JSON (go-github's testJSONMarshal).
func testJSONMarshal[T any](t *testing.T, goldenFile string) *T {
	t.Helper()
	want := golden(t, goldenFile)
	v := new(T)
	dec := json.NewDecoder(bytes.NewReader(want))
	require.NoError(t, dec.Decode(v))
	got, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
	return v
}

func TestFileRecordsJSONRoundTrip(t *testing.T) {
	t.Parallel()
	t.Run("File", func(t *testing.T) {
		t.Parallel()
		f := testJSONMarshal[File](t, "file_get.json")
		assert.Equal(t, "12346", f.FileVersion.ID)
		assert.Equal(t, int64(629644), f.Size)
		assert.Equal(t, "https://cloud.app.box.com/preview/expiring_embed/gvoct6FE", f.ExpiringEmbedLink.URL)
	})
	t.Run("Files", func(t *testing.T) {
		t.Parallel()
		fs := testJSONMarshal[Collection[*File]](t, "files_upload.json")
		require.Len(t, fs.Entries, 1)
		assert.Equal(t, "hello.txt", fs.Entries[0].Name)
	})
	t.Run("UploadURL", func(t *testing.T) {
		t.Parallel()
		u := testJSONMarshal[UploadURL](t, "upload_url.json")
		assert.Equal(t, "Pc3FIOG9vbmRpbmcgdXBsb2Fk", u.UploadToken)
	})
	t.Run("ExpiringEmbedLink", func(t *testing.T) {
		t.Parallel()
		var f File
		require.NoError(t, json.Unmarshal(golden(t, "file_get.json"), &f))
		b, err := json.Marshal(f.ExpiringEmbedLink)
		require.NoError(t, err)
		var back ExpiringEmbedLink
		require.NoError(t, json.Unmarshal(b, &back))
		again, err := json.Marshal(back)
		require.NoError(t, err)
		assert.JSONEq(t, string(b), string(again))
		assert.Equal(t, "item_download", back.RestrictedTo[0].Scope)
	})
}

func TestFilesGet(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("GET /files/{id}", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.PathValue("id") == "404":
			writeError(w, http.StatusNotFound, "not_found")
		case r.Header.Get("If-None-Match") == "1":
			w.WriteHeader(http.StatusNotModified)
		default:
			writeJSON(w, http.StatusOK, golden(t, "file_get.json"))
		}
	})
	ctx := context.Background()

	t.Run("fields and shared link", func(t *testing.T) {
		f, resp, err := e.client.Files.Get(ctx, "12345", &GetFileOptions{
			Fields: []string{"name", "sha1"}, SharedLink: "https://app.box.com/s/abc", SharedLinkPassword: "pw&1",
		})
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "Contract.pdf", f.Name)
		last := e.requests()[len(e.requests())-1]
		assert.Equal(t, "/2.0/files/12345", last.Path)
		assert.Equal(t, "fields=name%2Csha1", last.Query)
		assert.Equal(t, "shared_link=https://app.box.com/s/abc&shared_link_password=pw&1", last.Header.Get("Boxapi"))
		assert.Equal(t, "Bearer "+testToken, last.Header.Get("Authorization"))
	})
	t.Run("not modified", func(t *testing.T) {
		_, resp, err := e.client.Files.Get(ctx, "12345", &GetFileOptions{IfNoneMatch: "1"})
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrNotModified)
		assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	})
	t.Run("not found", func(t *testing.T) {
		_, _, err := e.client.Files.Get(ctx, "404", &GetFileOptions{SharedLink: "https://app.box.com/s/x", SharedLinkPassword: "hunter2"})
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		assert.ErrorIs(t, err, ErrNotFound)
		assert.Equal(t, "not_found", apiErr.Code)
		assert.NotContains(t, err.Error(), "hunter2")
		assert.NotContains(t, err.Error(), testToken)
	})
}

func TestFilesArgumentsRejectedBeforeSending(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"get empty id", func() error { _, _, err := e.client.Files.Get(ctx, "", nil); return err }, ErrMissingID},
		{"get traversal", func() error { _, _, err := e.client.Files.Get(ctx, "..", nil); return err }, ErrInvalidID},
		{"get slash", func() error { _, _, err := e.client.Files.Get(ctx, "1/2", nil); return err }, ErrInvalidID},
		{"password without link", func() error {
			_, _, err := e.client.Files.Get(ctx, "1", &GetFileOptions{SharedLinkPassword: "x"})
			return err
		}, ErrInvalidArgument},
		{"header injection", func() error {
			_, _, err := e.client.Files.Get(ctx, "1", &GetFileOptions{SharedLink: "https://x\r\nEvil: 1"})
			return err
		}, ErrInvalidArgument},
		{"delete empty id", func() error { _, err := e.client.Files.Delete(ctx, "", nil); return err }, ErrMissingID},
		{"embed link empty id", func() error { _, _, err := e.client.Files.GetEmbedLink(ctx, ""); return err }, ErrMissingID},
		{"download empty id", func() error { _, _, err := e.client.Files.Download(ctx, "", nil); return err }, ErrMissingID},
		{"download bad version", func() error {
			_, _, err := e.client.Files.Download(ctx, "1", &DownloadOptions{Version: "../x"})
			return err
		}, ErrInvalidID},
		{"download bad range", func() error {
			_, _, err := e.client.Files.Download(ctx, "1", &DownloadOptions{Range: &ByteRange{Start: 10, Length: -5}})
			return err
		}, ErrInvalidArgument},
		{"download url empty id", func() error { _, _, err := e.client.Files.DownloadURL(ctx, "", nil); return err }, ErrMissingID},
		{"download to nil writer", func() error { _, _, err := e.client.Files.DownloadTo(ctx, "1", nil, nil); return err }, ErrInvalidArgument},
		{"upload empty folder", func() error {
			_, _, err := e.client.Files.UploadInOneRequest(ctx, "", "a.txt", strings.NewReader("x"), 1, nil)
			return err
		}, ErrMissingID},
		{"upload empty name", func() error {
			_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "", strings.NewReader("x"), 1, nil)
			return err
		}, ErrInvalidArgument},
		{"upload bad sha1", func() error {
			_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", strings.NewReader("x"), 1, &OneRequestUploadOptions{SHA1: "xyz"})
			return err
		}, ErrInvalidArgument},
		{"upload nil reader", func() error {
			_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", nil, 1, nil)
			return err
		}, ErrInvalidArgument},
		{"version empty id", func() error {
			_, _, err := e.client.Files.UploadVersionInOneRequest(ctx, "", strings.NewReader("x"), 1, nil)
			return err
		}, ErrMissingID},
		{"preflight empty folder", func() error { _, _, err := e.client.Files.PreflightUpload(ctx, "", "a", 1); return err }, ErrMissingID},
		{"preflight empty name", func() error { _, _, err := e.client.Files.PreflightUpload(ctx, "0", "", 1); return err }, ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var argErr *ArgError
			require.ErrorAs(t, err, &argErr)
			assert.ErrorIs(t, err, tt.want)
			assert.NotContains(t, err.Error(), "https://x")
		})
	}
	assert.Empty(t, e.requests(), "nothing may be sent for a rejected argument")
}

func TestFilesDelete(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("DELETE /files/{id}", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.PathValue("id") == "404":
			writeError(w, http.StatusNotFound, "not_found")
		case r.Header.Get("If-Match") != "" && r.Header.Get("If-Match") != "7":
			writeError(w, http.StatusPreconditionFailed, "precondition_failed")
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	tests := []struct {
		name, id, ifMatch string
		want              error
	}{
		{"deleted", "1", "", nil},
		{"etag matches", "1", "7", nil},
		{"etag changed", "1", "6", ErrPreconditionFailed},
		{"missing", "404", "", ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, err := e.client.Files.Delete(context.Background(), tt.id, &DeleteFileOptions{IfMatch: tt.ifMatch})
			if tt.want == nil {
				require.NoError(t, err)
				assert.Equal(t, http.StatusNoContent, resp.StatusCode)
				return
			}
			assert.ErrorIs(t, err, tt.want)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
		})
	}
}

func TestFilesGetEmbedLink(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("GET /files/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "415" {
			writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type")
			return
		}
		assert.Equal(t, "expiring_embed_link", r.URL.Query().Get("fields"))
		writeJSON(w, http.StatusOK, golden(t, "file_get.json"))
	})
	link, _, err := e.client.Files.GetEmbedLink(context.Background(), "12345")
	require.NoError(t, err)
	assert.Equal(t, "https://cloud.app.box.com/preview/expiring_embed/gvoct6FE", link.URL)

	_, _, err = e.client.Files.GetEmbedLink(context.Background(), "415")
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusUnsupportedMediaType, apiErr.StatusCode)
}

func TestFilesPreflightUpload(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("OPTIONS /files/content", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Name   string `json:"name"`
			Size   int64  `json:"size"`
			Parent struct {
				ID string `json:"id"`
			} `json:"parent"`
		}
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&body); err != nil {
			writeError(w, http.StatusBadRequest, "bad_request")
			return
		}
		if body.Name == "hello.txt" {
			writeJSON(w, http.StatusConflict, golden(t, "error_conflict.json"))
			return
		}
		assert.Equal(t, int64(11), body.Size)
		assert.Equal(t, "0", body.Parent.ID)
		writeJSON(w, http.StatusOK, golden(t, "upload_url.json"))
	})
	ctx := context.Background()
	u, _, err := e.client.Files.PreflightUpload(ctx, "0", "new.txt", 11)
	require.NoError(t, err)
	assert.Contains(t, u.UploadURL, "upload_session_id=1234")

	_, _, err = e.client.Files.PreflightUpload(ctx, "0", "hello.txt", 11)
	assert.ErrorIs(t, err, ErrConflict)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "item_name_in_use", apiErr.Code)
	require.Len(t, apiErr.Conflicts(), 1)
	assert.Equal(t, "12345", apiErr.Conflicts()[0].ID)
	assert.Equal(t, "hello.txt", apiErr.Conflicts()[0].Name)
}

func TestFilesUploadPicksSingleRequestOrChunked(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.upload.HandleFunc("POST /files/content", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		writeJSON(w, http.StatusCreated, golden(t, "files_upload.json"))
	})
	ctx := context.Background()
	f, _, err := e.client.Files.Upload(ctx, "0", "hello.txt", strings.NewReader("hello world"), 11, nil)
	require.NoError(t, err)
	assert.Equal(t, "12345", f.ID)
	f, _, err = e.client.Files.Upload(ctx, "0", "hello.txt", strings.NewReader("hello world"), -1, &UploadOptions{ChunkedThreshold: 5})
	require.NoError(t, err, "unknown size goes in one request")
	assert.Equal(t, "12345", f.ID)
	single := len(e.requests())
	assert.Equal(t, 2, single)

	// Above the threshold the upload is chunked: it never posts to /files/content.
	_, _, err = e.client.Files.Upload(ctx, "0", "big.bin", strings.NewReader("hello world"), 11, &UploadOptions{ChunkedThreshold: 5})
	_ = err // the chunked uploader's own tests cover its result
	for _, r := range e.requests()[single:] {
		assert.NotEqual(t, "/api/2.0/files/content", r.Path)
	}
}

// errReader fails every read.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

func TestFilesUploadSourceErrorsSurface(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.upload.HandleFunc("POST /files/content", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		writeJSON(w, http.StatusCreated, golden(t, "files_upload.json"))
	})
	boom := errors.New("disk on fire")
	_, _, err := e.client.Files.UploadInOneRequest(context.Background(), "0", "a.txt", errReader{boom}, 10, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, boom)
}
