package cms_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testPartSize = 64 << 10

// uploadServer starts a reference server with small parts and a client of
// its managed user that retries fast.
func uploadServer(t *testing.T, opts refserver.Options) (*refserver.Server, *cms.Client) {
	t.Helper()
	if opts.PartSize == 0 {
		opts.PartSize = testPartSize
	}
	if opts.ChunkedMinSize == 0 {
		opts.ChunkedMinSize = 1
	}
	srv, err := refserver.Start(opts)
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	c, err := cms.NewClient(cms.WithToken(srv.UserToken()), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()),
		cms.WithRetryPolicy(cms.RetryPolicy{MaxRetries: 5, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxRetryAfter: time.Minute}))
	require.NoError(t, err)
	return srv, c
}

// randomContent returns n deterministic pseudo-random bytes and their hex SHA1.
func randomContent(n int, seed uint64) ([]byte, string) {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(seed, seed))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	sum := sha1.Sum(b)
	return b, hex.EncodeToString(sum[:])
}

// onlyReader hides every method but Read, so the uploader must stream.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func countRequests(srv *refserver.Server, method, suffix string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}

func TestUploadChunked(t *testing.T) {
	t.Parallel()
	const size = 10*testPartSize + 1234
	content, want := randomContent(size, 1)
	sources := map[string]func() io.Reader{
		"reader at (sliced in place)": func() io.Reader { return bytes.NewReader(content) },
		"plain reader (pooled parts)": func() io.Reader { return onlyReader{bytes.NewReader(content)} },
	}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, c := uploadServer(t, refserver.Options{})
			var mu sync.Mutex
			var progress []cms.Progress
			f, _, err := c.Uploads.UploadChunked(context.Background(), "0", "big-"+strings.ReplaceAll(name, " ", "-")+".bin", src(), size, &cms.ChunkedUploadOptions{
				Concurrency: 3,
				Progress: func(p cms.Progress) {
					mu.Lock()
					progress = append(progress, p)
					mu.Unlock()
				},
			})
			require.NoError(t, err)
			assert.Equal(t, want, f.SHA1)
			assert.Equal(t, int64(size), f.Size)
			require.Len(t, progress, 11)
			last := progress[len(progress)-1]
			assert.Equal(t, int64(size), last.Bytes)
			assert.Equal(t, 11, last.PartsDone)
			assert.Equal(t, 11, last.TotalParts)
			assert.Equal(t, 11, countRequests(srv, http.MethodPut, "/files/upload_sessions/"+last.SessionID))
			for _, r := range srv.Requests() {
				if r.Method == http.MethodPut {
					assert.True(t, strings.HasPrefix(r.Header.Get("Digest"), "sha="), "part Digest header")
					assert.Regexp(t, fmt.Sprintf(`^bytes \d+-\d+/%d$`, size), r.Header.Get("Content-Range"))
				}
			}
		})
	}
}

func TestUploadChunkedNewVersion(t *testing.T) {
	t.Parallel()
	_, c := uploadServer(t, refserver.Options{})
	v1, _ := randomContent(3*testPartSize, 2)
	f, _, err := c.Uploads.UploadChunked(context.Background(), "0", "doc.bin", bytes.NewReader(v1), int64(len(v1)), nil)
	require.NoError(t, err)

	v2, want := randomContent(4*testPartSize+7, 3)
	_, _, err = c.Uploads.UploadVersionChunked(context.Background(), f.ID, bytes.NewReader(v2), int64(len(v2)), &cms.ChunkedUploadOptions{IfMatch: "stale-etag"})
	assert.ErrorIs(t, err, cms.ErrPreconditionFailed, "commit honours if-match")

	g, _, err := c.Uploads.UploadVersionChunked(context.Background(), f.ID, bytes.NewReader(v2), int64(len(v2)), &cms.ChunkedUploadOptions{IfMatch: f.ETag, NewName: "doc-v2.bin"})
	require.NoError(t, err)
	assert.Equal(t, f.ID, g.ID)
	assert.Equal(t, want, g.SHA1)
	assert.Equal(t, "doc-v2.bin", g.Name)
}

func TestUploadChunkedSurvivesFaults(t *testing.T) {
	t.Parallel()
	srv, c := uploadServer(t, refserver.Options{})
	srv.Inject(refserver.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 3, Status: http.StatusServiceUnavailable})
	srv.Inject(refserver.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 2, Status: http.StatusInternalServerError})
	srv.Inject(refserver.Fault{Method: http.MethodPost, Path: "/files/upload_sessions/*/commit", Count: 1, Status: http.StatusBadGateway})
	srv.Inject(refserver.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 2, Reset: true})
	srv.Inject(refserver.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 1, Status: http.StatusTooManyRequests, RetryAfter: time.Second})
	content, want := randomContent(8*testPartSize, 4)
	f, _, err := c.Uploads.UploadChunked(context.Background(), "0", "flaky.bin", onlyReader{bytes.NewReader(content)}, int64(len(content)), &cms.ChunkedUploadOptions{Concurrency: 4})
	require.NoError(t, err)
	assert.Equal(t, want, f.SHA1)
}

func TestUploadChunkedFailureAbortsSession(t *testing.T) {
	t.Parallel()
	srv, c := uploadServer(t, refserver.Options{})
	srv.Inject(refserver.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 1000, Status: http.StatusBadRequest})
	content, _ := randomContent(4*testPartSize, 5)
	_, _, err := c.Uploads.UploadChunked(context.Background(), "0", "doomed.bin", bytes.NewReader(content), int64(len(content)), nil)
	var ue *cms.UploadError
	require.ErrorAs(t, err, &ue)
	require.NotEmpty(t, ue.SessionID)
	assert.ErrorIs(t, err, cms.ErrBadRequest)
	srv.ClearFaults()
	_, _, err = c.Uploads.GetSession(context.Background(), ue.SessionID)
	assert.ErrorIs(t, err, cms.ErrNotFound, "the session was aborted")
	assert.Equal(t, 1, countRequests(srv, http.MethodDelete, "/files/upload_sessions/"+ue.SessionID))
}

func TestUploadChunkedCancelledCtx(t *testing.T) {
	t.Parallel()
	for _, abort := range []bool{false, true} {
		t.Run(fmt.Sprintf("AbortOnError=%v", abort), func(t *testing.T) {
			srv, c := uploadServer(t, refserver.Options{})
			ctx, cancel := context.WithCancel(context.Background())
			content, _ := randomContent(6*testPartSize, 6)
			var once sync.Once
			_, _, err := c.Uploads.UploadChunked(ctx, "0", "cancelled.bin", bytes.NewReader(content), int64(len(content)), &cms.ChunkedUploadOptions{
				Concurrency:  1,
				AbortOnError: abort,
				Progress:     func(cms.Progress) { once.Do(cancel) },
			})
			var ue *cms.UploadError
			require.ErrorAs(t, err, &ue)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Equal(t, !abort, ue.SessionKept)
			_, _, err = c.Uploads.GetSession(context.Background(), ue.SessionID)
			if abort {
				assert.ErrorIs(t, err, cms.ErrNotFound, "aborted with a ctx that was not cancelled")
				assert.Equal(t, 1, countRequests(srv, http.MethodDelete, "/files/upload_sessions/"+ue.SessionID))
			} else {
				assert.NoError(t, err, "a cancelled upload keeps its session for Resume")
				assert.Contains(t, ue.Error(), "kept for Resume")
				assert.Zero(t, countRequests(srv, http.MethodDelete, "/files/upload_sessions/"+ue.SessionID))
			}
		})
	}
}

func TestUploadChunkedResume(t *testing.T) {
	t.Parallel()
	srv, c := uploadServer(t, refserver.Options{})
	content, want := randomContent(6*testPartSize+99, 7)
	// Let three parts through, then fail the rest with 503 beyond the
	// retries: a transient failure keeps the session.
	var sent int
	var mu sync.Mutex
	srv.Inject(refserver.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 0})
	srv.ClearFaults()
	ctx := context.Background()
	_, _, err := c.Uploads.UploadChunked(ctx, "0", "resumable.bin", bytes.NewReader(content), int64(len(content)), &cms.ChunkedUploadOptions{
		Concurrency: 1,
		Progress: func(p cms.Progress) {
			mu.Lock()
			defer mu.Unlock()
			sent++
			if sent == 3 {
				srv.Inject(refserver.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 1000, Status: http.StatusServiceUnavailable})
			}
		},
	})
	var ue *cms.UploadError
	require.ErrorAs(t, err, &ue)
	assert.True(t, ue.SessionKept)
	assert.ErrorIs(t, err, cms.ErrServer)
	assert.Zero(t, countRequests(srv, http.MethodDelete, "/files/upload_sessions/"+ue.SessionID), "not aborted")
	srv.ClearFaults()
	parts, _, err := c.Uploads.ListParts(ctx, ue.SessionID, nil)
	require.NoError(t, err)
	require.Len(t, parts.Entries, 3, "the session kept what was stored")

	// Resuming with a different source is refused: the stored parts do not match.
	other, _ := randomContent(len(content), 8)
	_, _, err = c.Uploads.Resume(ctx, ue.SessionID, bytes.NewReader(other), int64(len(other)), nil)
	require.ErrorAs(t, err, &ue)
	assert.True(t, ue.SessionKept, "Resume never aborts unless asked")

	// Resume checks its arguments before any request.
	srv.ResetRequests()
	for name, call := range map[string]func() error{
		"size": func() error {
			_, _, err := c.Uploads.Resume(ctx, ue.SessionID, bytes.NewReader(content), 0, nil)
			return err
		},
		"reader":     func() error { _, _, err := c.Uploads.Resume(ctx, ue.SessionID, nil, 10, nil); return err },
		"session id": func() error { _, _, err := c.Uploads.Resume(ctx, "", bytes.NewReader(content), 10, nil); return err },
		"concurrency": func() error {
			_, _, err := c.Uploads.Resume(ctx, ue.SessionID, bytes.NewReader(content), 10, &cms.ChunkedUploadOptions{Concurrency: -1})
			return err
		},
		"nil ctx": func() error {
			_, _, err := c.Uploads.Resume(nil, ue.SessionID, bytes.NewReader(content), 10, nil) //nolint:staticcheck // the point of the test
			return err
		},
	} {
		var ae *cms.ArgError
		assert.ErrorAs(t, call(), &ae, name)
	}
	assert.Empty(t, srv.Requests(), "no request for bad arguments")
	_, _, err = c.Uploads.Resume(ctx, ue.SessionID, bytes.NewReader(content), int64(len(content))+int64(testPartSize), nil)
	assert.ErrorIs(t, err, cms.ErrInvalidArgument, "a size that does not make the session's parts")

	srv.ResetRequests()
	f, _, err := c.Uploads.Resume(ctx, ue.SessionID, onlyReader{bytes.NewReader(content)}, int64(len(content)), nil)
	require.NoError(t, err)
	assert.Equal(t, want, f.SHA1)
	assert.Equal(t, 4, countRequests(srv, http.MethodPut, "/files/upload_sessions/"+ue.SessionID), "only the missing parts are sent")
}

func TestUploadChunkedArgumentsAndShortSource(t *testing.T) {
	t.Parallel()
	srv, c := uploadServer(t, refserver.Options{})
	ctx := context.Background()
	_, _, err := c.Uploads.UploadChunked(ctx, "", "a.bin", strings.NewReader("x"), 1, nil)
	assert.ErrorIs(t, err, cms.ErrMissingID)
	_, _, err = c.Uploads.UploadChunked(ctx, "0", "a.bin", nil, 1, nil)
	assert.ErrorIs(t, err, cms.ErrInvalidArgument)
	_, _, err = c.Uploads.UploadChunked(ctx, "0", "a.bin", strings.NewReader("x"), 1, &cms.ChunkedUploadOptions{Concurrency: -1})
	assert.ErrorIs(t, err, cms.ErrInvalidArgument)
	assert.Empty(t, srv.Requests(), "nothing is sent for bad arguments")

	content, _ := randomContent(3*testPartSize, 9)
	_, _, err = c.Uploads.UploadChunked(ctx, "0", "short.bin", onlyReader{bytes.NewReader(content)}, int64(len(content))+10, nil)
	var short *cms.SourceSizeError
	require.ErrorAs(t, err, &short)
	assert.Equal(t, int64(len(content)), short.Read, "says how many bytes were read")
	assert.Equal(t, int64(len(content))+10, short.Size)
	var ue *cms.UploadError
	require.ErrorAs(t, err, &ue)
	assert.False(t, ue.SessionKept, "a short source is permanent: the session is aborted")
	_, _, err = c.Uploads.UploadChunked(ctx, "0", "long.bin", onlyReader{bytes.NewReader(content)}, int64(len(content))-10, nil)
	assert.ErrorIs(t, err, cms.ErrSourceSize)
	assert.ErrorContains(t, err, "longer than the declared")
}

// TestUploadChunkedBelowMinimumIsUploadError: the service refuses a session
// below its minimum size (400 file_size_too_small); the uploader says so
// with an *UploadError that names no session.
func TestUploadChunkedBelowMinimumIsUploadError(t *testing.T) {
	t.Parallel()
	_, c := uploadServer(t, refserver.Options{ChunkedMinSize: 20_000_000})
	_, _, err := c.Uploads.UploadChunked(context.Background(), "0", "small.bin", strings.NewReader("small"), 5, nil)
	var ue *cms.UploadError
	require.ErrorAs(t, err, &ue)
	assert.Empty(t, ue.SessionID)
	assert.False(t, ue.SessionKept)
	var api *cms.APIError
	require.ErrorAs(t, err, &api)
	assert.Equal(t, "file_size_too_small", api.Code)
	assert.EqualValues(t, 20_000_000, cms.DefaultChunkedThreshold, "the threshold is the service's minimum")
}

// zeroReader yields n generated bytes without holding them.
type zeroReader struct{ left int64 }

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), z.left))
	for i := range p[:n] {
		p[i] = byte(z.left - int64(i))
	}
	z.left -= int64(n)
	return n, nil
}

// TestUploadChunkedMemoryBound uploads 256 MiB from a plain reader with
// 8 MiB parts and 4 workers: everything the process allocates meanwhile
// (client and in-process server together) must stay far below the file size,
// near (Concurrency+1) × part size.
func TestUploadChunkedMemoryBound(t *testing.T) {
	const size = 256 << 20
	const partSize = 8 << 20
	store, err := refserver.NewDirStore(t.TempDir())
	require.NoError(t, err)
	_, c := uploadServer(t, refserver.Options{PartSize: partSize, Store: store})
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, _, err := c.Uploads.UploadChunked(context.Background(), "0", "huge.bin", &zeroReader{left: size}, size, &cms.ChunkedUploadOptions{Concurrency: 4})
	require.NoError(t, err)
	runtime.ReadMemStats(&after)
	assert.Equal(t, int64(size), f.Size)
	allocated := after.TotalAlloc - before.TotalAlloc
	bound := uint64(5*partSize + 24<<20) // (4+1) part buffers plus request overhead on both sides
	t.Logf("allocated %d MiB while uploading %d MiB", allocated>>20, size>>20)
	assert.Less(t, allocated, bound, "allocations must not grow with the file size")
}

func TestUploadPartAndCommitByHand(t *testing.T) {
	t.Parallel()
	_, c := uploadServer(t, refserver.Options{})
	ctx := context.Background()
	content, want := randomContent(2*testPartSize+5, 10)
	sess, _, err := c.Uploads.CreateSession(ctx, &cms.CreateUploadSessionRequest{FolderID: "0", FileName: "hand.bin", FileSize: int64(len(content))})
	require.NoError(t, err)
	assert.Equal(t, int64(testPartSize), sess.PartSize)
	assert.Equal(t, 3, sess.TotalParts)
	var parts []*cms.UploadPart
	for off := int64(0); off < int64(len(content)); off += sess.PartSize {
		end := min(off+sess.PartSize, int64(len(content)))
		p, _, err := c.Uploads.UploadPart(ctx, sess.ID, bytes.NewReader(content[off:end]), cms.PartRange{Offset: off, Size: end - off, FileSize: int64(len(content))})
		require.NoError(t, err)
		parts = append(parts, p)
	}
	// Parts listed in any order are committed in offset order.
	parts[0], parts[2] = parts[2], parts[0]
	_, _, err = c.Uploads.Commit(ctx, sess.ID, parts, hexSHA1([]byte("other")), nil)
	assert.ErrorIs(t, err, cms.ErrBadRequest, "whole-file digest is checked")
	f, _, err := c.Uploads.Commit(ctx, sess.ID, parts, want, nil)
	require.NoError(t, err)
	assert.Equal(t, want, f.SHA1)
	_, _, err = c.Uploads.GetSession(ctx, sess.ID)
	assert.ErrorIs(t, err, cms.ErrNotFound)

	_, _, err = c.Uploads.UploadPart(ctx, "..", bytes.NewReader(nil), cms.PartRange{Size: 1, FileSize: 1})
	assert.ErrorIs(t, err, cms.ErrInvalidID)
	_, _, err = c.Uploads.UploadPart(ctx, "abc", bytes.NewReader(nil), cms.PartRange{})
	assert.ErrorIs(t, err, cms.ErrInvalidArgument, "PartRange{} is an empty part")
	_, _, err = c.Uploads.UploadPart(ctx, "abc", bytes.NewReader([]byte("ab")), cms.PartRange{Size: 4, FileSize: 4})
	var short *cms.SourceSizeError
	require.ErrorAs(t, err, &short, "a part shorter than its range")
	assert.Equal(t, int64(2), short.Read)
	_, _, err = c.Uploads.Commit(ctx, "abc", parts, want[:10], nil)
	assert.True(t, errors.Is(err, cms.ErrInvalidArgument))
	_, _, err = c.Uploads.Commit(ctx, "abc", parts, strings.Repeat("zz", 20), nil)
	assert.ErrorIs(t, err, cms.ErrInvalidArgument, "the SHA1 is hex")
}

// BenchmarkUploadChunked uploads 64 MiB in 1 MiB parts at several
// concurrency levels against a reference server on loopback.
func BenchmarkUploadChunked(b *testing.B) {
	const size = 64 << 20
	for _, conc := range []int{1, 4} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			store, err := refserver.NewDirStore(b.TempDir())
			require.NoError(b, err)
			srv, err := refserver.Start(refserver.Options{PartSize: 1 << 20, ChunkedMinSize: 1, Store: store})
			require.NoError(b, err)
			defer srv.Close()
			c, err := cms.NewClient(cms.WithToken(srv.UserToken()), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()))
			require.NoError(b, err)
			b.SetBytes(size)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				_, _, err = c.Uploads.UploadChunked(context.Background(), "0", fmt.Sprintf("b%d.bin", i), &zeroReader{left: size}, size, &cms.ChunkedUploadOptions{Concurrency: conc})
				require.NoError(b, err)
			}
		})
	}
}
