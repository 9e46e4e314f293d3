package cms

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"hash"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seenUpload is what the fake upload endpoint saw of one request.
type seenUpload struct {
	Path          string
	Query         string
	ContentMD5    string
	IfMatch       string
	ContentLength int64
	Chunked       bool
	PartNames     []string
	Attributes    map[string]any
	Filename      string
	Size          int64
	SHA1          string
}

// uploadEnv answers uploads like the service: attributes must come first,
// a content-md5 that does not match fails with 400, a name already in the
// folder with 409, if-match other than "1" with 412.
type uploadEnv struct {
	*filesEnv
	mu      sync.Mutex
	seen    []seenUpload
	fail429 atomic.Int32 // answer 429 this many times first
}

func newUploadEnv(t *testing.T) *uploadEnv {
	e := &uploadEnv{filesEnv: newFilesEnv(t)}
	handle := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			s, code := e.readUpload(r)
			e.mu.Lock()
			e.seen = append(e.seen, s)
			e.mu.Unlock()
			switch {
			case code != "":
				writeError(w, http.StatusBadRequest, code)
			case e.fail429.Add(-1) >= 0:
				w.Header().Set("Retry-After", "0")
				writeError(w, http.StatusTooManyRequests, "rate_limit_exceeded")
			case s.Attributes["name"] == "hello.txt":
				writeJSON(w, http.StatusConflict, golden(t, "error_conflict.json"))
			case s.IfMatch != "" && s.IfMatch != "1":
				writeError(w, http.StatusPreconditionFailed, "precondition_failed")
			case r.PathValue("id") == "404":
				writeError(w, http.StatusNotFound, "not_found")
			default:
				name, _ := s.Attributes["name"].(string)
				writeJSON(w, status, map[string]any{"total_count": 1, "entries": []any{map[string]any{
					"id": "900", "type": "file", "name": name, "size": s.Size, "sha1": s.SHA1}}})
			}
		}
	}
	e.upload.HandleFunc("POST /files/content", handle(http.StatusCreated))
	e.upload.HandleFunc("POST /files/{id}/content", handle(http.StatusOK))
	return e
}

// readUpload streams the multipart body, hashing the file part. code is the
// error code to answer with, if any.
func (e *uploadEnv) readUpload(r *http.Request) (s seenUpload, code string) {
	s = seenUpload{Path: strings.SplitN(r.RequestURI, "?", 2)[0], Query: r.URL.RawQuery, ContentMD5: r.Header.Get("Content-Md5"),
		IfMatch: r.Header.Get("If-Match"), ContentLength: r.ContentLength,
		Chunked: len(r.TransferEncoding) > 0 && r.TransferEncoding[0] == "chunked"}
	defer func() { _, _ = io.Copy(io.Discard, r.Body) }()
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return s, "bad_request"
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s, "bad_request"
		}
		s.PartNames = append(s.PartNames, p.FormName())
		switch p.FormName() {
		case "attributes":
			if len(s.PartNames) != 1 {
				return s, "metadata_after_file_contents"
			}
			dec := json.NewDecoder(p)
			if dec.Decode(&s.Attributes) != nil {
				return s, "bad_request"
			}
		case "file":
			s.Filename = p.FileName()
			h := sha1.New()
			if s.Size, err = io.Copy(h, p); err != nil {
				return s, "bad_request"
			}
			s.SHA1 = hex.EncodeToString(h.Sum(nil))
		}
	}
	if name, _ := s.Attributes["name"].(string); strings.ContainsAny(name, `/\`) {
		return s, "item_name_invalid"
	}
	if s.ContentMD5 != "" && s.ContentMD5 != s.SHA1 {
		return s, "sha1_mismatch"
	}
	return s, ""
}

func (e *uploadEnv) uploads() []seenUpload {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]seenUpload(nil), e.seen...)
}

// plainReader hides every interface of the reader but io.Reader.
type plainReader struct{ r io.Reader }

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// readerAtOnly is an io.ReaderAt (and io.Reader) that cannot seek.
type readerAtOnly struct{ *bytes.Reader }

func (r readerAtOnly) Seek(int64, int) (int64, error) { panic("must not seek") }

type readerAtNoSeek struct {
	io.Reader
	io.ReaderAt
}

func TestFilesUploadFile(t *testing.T) {
	t.Parallel()
	const content = "hello world"
	sum := sha1Hex([]byte(content))
	created := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		source      func() io.Reader
		size        int64
		opts        *OneRequestUploadOptions
		wantMD5     string
		wantChunked bool
	}{
		{"bytes.Reader gets a computed SHA-1", func() io.Reader { return bytes.NewReader([]byte(content)) }, int64(len(content)), nil, sum, false},
		{"strings.Reader with unknown size is measured", func() io.Reader { return strings.NewReader(content) }, -1, nil, sum, false},
		{"ReaderAt without Seek", func() io.Reader {
			br := bytes.NewReader([]byte(content))
			return readerAtNoSeek{br, br}
		}, int64(len(content)), nil, sum, false},
		{"plain reader has no content-md5", func() io.Reader { return plainReader{strings.NewReader(content)} }, int64(len(content)), nil, "", false},
		{"plain reader of unknown size is chunked", func() io.Reader { return plainReader{strings.NewReader(content)} }, -1, nil, "", true},
		{"caller's SHA-1 is sent for a plain reader", func() io.Reader { return plainReader{strings.NewReader(content)} }, int64(len(content)),
			&OneRequestUploadOptions{SHA1: strings.ToUpper(sum)}, sum, false},
		{"timestamps and fields", func() io.Reader { return strings.NewReader(content) }, int64(len(content)),
			&OneRequestUploadOptions{ContentCreatedAt: created, ContentModifiedAt: created.Add(time.Hour), Fields: []string{"name", "sha1"}}, sum, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newUploadEnv(t)
			f, resp, err := e.client.Files.UploadInOneRequest(context.Background(), "0", "new file.txt", tt.source(), tt.size, tt.opts)
			require.NoError(t, err)
			assert.Equal(t, http.StatusCreated, resp.StatusCode)
			assert.Equal(t, "900", f.ID)
			assert.Equal(t, sum, f.SHA1)
			assert.Equal(t, int64(len(content)), f.Size)
			ups := e.uploads()
			require.Len(t, ups, 1)
			up := ups[0]
			assert.Equal(t, "/api/2.0/files/content", up.Path)
			assert.Equal(t, []string{"attributes", "file"}, up.PartNames)
			assert.Equal(t, "new file.txt", up.Filename)
			assert.Equal(t, tt.wantMD5, up.ContentMD5)
			assert.Equal(t, tt.wantChunked, up.Chunked)
			if !tt.wantChunked {
				assert.Positive(t, up.ContentLength, "a known size gives an exact Content-Length")
			}
			wantAttrs := map[string]any{"name": "new file.txt", "parent": map[string]any{"id": "0"}}
			if tt.opts != nil && !tt.opts.ContentCreatedAt.IsZero() {
				wantAttrs["content_created_at"] = "2024-05-01T12:00:00Z"
				wantAttrs["content_modified_at"] = "2024-05-01T13:00:00Z"
				assert.Equal(t, "fields=name%2Csha1", up.Query)
			}
			assert.Equal(t, wantAttrs, up.Attributes)
		})
	}
}

func TestFilesUploadFileFromOffset(t *testing.T) {
	t.Parallel()
	e := newUploadEnv(t)
	path := filepath.Join(t.TempDir(), "f.bin")
	require.NoError(t, os.WriteFile(path, []byte("HEADERpayload"), 0o600))
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	_, err = fh.Seek(6, io.SeekStart)
	require.NoError(t, err)
	f, _, err := e.client.Files.UploadInOneRequest(context.Background(), "0", "p.bin", fh, -1, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(7), f.Size)
	assert.Equal(t, sha1Hex([]byte("payload")), e.uploads()[0].ContentMD5)
}

func TestFilesUploadFileErrors(t *testing.T) {
	t.Parallel()
	e := newUploadEnv(t)
	ctx := context.Background()

	t.Run("name in use", func(t *testing.T) {
		_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "hello.txt", strings.NewReader("x"), 1, nil)
		assert.ErrorIs(t, err, ErrConflict)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Len(t, apiErr.Conflicts(), 1)
		assert.Equal(t, "12345", apiErr.Conflicts()[0].ID)
	})
	t.Run("bad name", func(t *testing.T) {
		_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a/b", strings.NewReader("x"), 1, nil)
		assert.ErrorIs(t, err, ErrBadRequest)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "item_name_invalid", apiErr.Code)
	})
	t.Run("wrong caller SHA-1", func(t *testing.T) {
		_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", strings.NewReader("x"), 1,
			&OneRequestUploadOptions{SHA1: sha1Hex([]byte("y"))})
		assert.ErrorIs(t, err, ErrBadRequest)
	})
	t.Run("short source", func(t *testing.T) {
		// A plain reader is streamed: the shortfall shows while sending, and
		// is reported as such, not as net/http's ContentLength complaint.
		_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", plainReader{strings.NewReader("abc")}, 10, nil)
		var short *SourceSizeError
		require.ErrorAs(t, err, &short)
		assert.Equal(t, SourceSizeError{Size: 10, Read: 3}, *short)
		assert.ErrorIs(t, err, ErrSourceSize)
	})
	t.Run("short seekable source", func(t *testing.T) {
		_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", strings.NewReader("abc"), 10, nil)
		var short *SourceSizeError
		require.ErrorAs(t, err, &short)
		assert.Equal(t, int64(3), short.Read)
	})
	t.Run("short seekable source with its SHA1 given", func(t *testing.T) {
		_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", strings.NewReader("abc"), 10,
			&OneRequestUploadOptions{SHA1: sha1Hex([]byte("abc"))})
		var short *SourceSizeError
		require.ErrorAs(t, err, &short)
		assert.Equal(t, int64(3), short.Read)
	})
	t.Run("nil ctx", func(t *testing.T) {
		_, _, err := e.client.Files.UploadInOneRequest(nil, "0", "a.txt", strings.NewReader("abc"), 3, nil) //nolint:staticcheck // the point of the test
		var ae *ArgError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, "ctx", ae.Arg)
	})
}

func TestFilesUploadReplayOn429(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("seekable source is sent again", func(t *testing.T) {
		t.Parallel()
		e := newUploadEnv(t)
		e.fail429.Store(1)
		f, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", strings.NewReader("replay me"), 9, nil)
		require.NoError(t, err)
		assert.Equal(t, "900", f.ID)
		ups := e.uploads()
		require.Len(t, ups, 2)
		for _, up := range ups {
			assert.Equal(t, sha1Hex([]byte("replay me")), up.SHA1, "every attempt carries the whole content")
		}
	})
	t.Run("plain reader is not retried", func(t *testing.T) {
		t.Parallel()
		e := newUploadEnv(t)
		e.fail429.Store(1)
		_, _, err := e.client.Files.UploadInOneRequest(ctx, "0", "a.txt", plainReader{strings.NewReader("once")}, 4, nil)
		assert.ErrorIs(t, err, ErrRateLimited)
		assert.Len(t, e.uploads(), 1)
	})
}

func TestFilesUploadVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mod := time.Date(2024, 6, 1, 8, 0, 0, 0, time.FixedZone("", -7*3600))
	tests := []struct {
		name      string
		id        string
		opts      *OneRequestVersionOptions
		wantAttrs map[string]any
		wantErr   error
	}{
		{"plain", "5", nil, map[string]any{}, nil},
		{"rename and modified", "5", &OneRequestVersionOptions{NewName: "v2.txt", ContentModifiedAt: mod, IfMatch: "1"},
			map[string]any{"name": "v2.txt", "content_modified_at": "2024-06-01T08:00:00-07:00"}, nil},
		{"etag changed", "5", &OneRequestVersionOptions{IfMatch: "2"}, nil, ErrPreconditionFailed},
		{"missing file", "404", nil, nil, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newUploadEnv(t)
			f, resp, err := e.client.Files.UploadVersionInOneRequest(ctx, tt.id, strings.NewReader("new content"), 11, tt.opts)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, sha1Hex([]byte("new content")), f.SHA1)
			ups := e.uploads()
			require.Len(t, ups, 1)
			up := ups[0]
			assert.Equal(t, "/api/2.0/files/5/content", up.Path)
			assert.Equal(t, tt.wantAttrs, up.Attributes, "no parent in a version's attributes")
			assert.Equal(t, sha1Hex([]byte("new content")), up.ContentMD5)
		})
	}
}

// genReader yields n bytes generated on the fly, hashing them as it goes.
type genReader struct {
	left int64
	i    byte
	h    hash.Hash
}

func (g *genReader) Read(p []byte) (int, error) {
	if g.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	for k := range p {
		p[k] = g.i
		g.i = g.i*31 + 7
	}
	g.h.Write(p)
	g.left -= int64(len(p))
	return len(p), nil
}

// TestFilesUploadStreamsPlainReader uploads 64 MiB from a plain reader and
// checks that the SDK did not buffer it. Not parallel: it measures the heap.
func TestFilesUploadStreamsPlainReader(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB upload")
	}
	e := newUploadEnv(t)
	const size = 64 << 20
	src := &genReader{left: size, h: sha1.New()}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, _, err := e.client.Files.UploadInOneRequest(context.Background(), "0", "big.bin", src, size, nil)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, int64(size), f.Size)
	assert.Equal(t, hex.EncodeToString(src.h.Sum(nil)), f.SHA1)
	assert.Empty(t, e.uploads()[0].ContentMD5)
	assert.False(t, e.uploads()[0].Chunked)
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(16<<20), "client and server together allocated %d bytes for a 64 MiB upload", allocated)
}
