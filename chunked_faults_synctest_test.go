//go:build go1.25

package cms_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// generated streams n deterministic pseudo-random bytes; it is a plain
// io.Reader (no Seek, no ReadAt), so the uploader must read it once.
type generated struct {
	left int64
	rng  *rand.ChaCha8
}

func newGenerated(n int64, seed byte) *generated {
	var s [32]byte
	s[0] = seed
	return &generated{left: n, rng: rand.NewChaCha8(s)}
}

func (g *generated) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), g.left)]
	n, _ := g.rng.Read(p)
	g.left -= int64(n)
	return n, nil
}

func generatedSHA1(n int64, seed byte) string {
	h := sha1.New()
	_, _ = io.Copy(h, newGenerated(n, seed))
	return hex.EncodeToString(h.Sum(nil))
}

// wireWatch sits between the client and the in-process server: it counts
// the 200 answers to part PUTs per Content-Range, and can lose the answer
// of the next commit after the server applied it (a reset after the
// handler), so the retry finds the session consumed.
type wireWatch struct {
	next http.RoundTripper

	mu         sync.Mutex
	stored     map[string]int // Content-Range → 200 answers
	loseCommit int
}

func (w *wireWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := w.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case req.Method == http.MethodPut && resp.StatusCode == http.StatusOK:
		w.stored[req.Header.Get("Content-Range")]++
	case req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/commit") && resp.StatusCode == http.StatusCreated && w.loseCommit > 0:
		w.loseCommit--
		resp.Body.Close()
		return nil, errors.New("connection reset by peer (after the commit was applied)")
	}
	return resp, nil
}

// TestUploadChunked256MiBUnderFaults is the uploader's endurance test, on
// synctest's fake clock (no real waits): 256 MiB from a plain reader in
// 1 MiB parts, with about one part PUT in ten failing (500, 502, 503, 504,
// 429 with and without Retry-After, connection resets) and the commit
// failing once with each of 500, 503 and a reset, then once more after it
// took effect. It ends with the right SHA1, every part stored once, and one
// file in the folder.
func TestUploadChunked256MiBUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("256 MiB upload")
	}
	synctest.Test(t, func(t *testing.T) {
		size := int64(256 << 20)
		if raceEnabled {
			size = 32 << 20 // the race detector makes every byte slow
		}
		const partSize = 1 << 20
		srv := cmstest.NewInProcessServer(t, cmstest.Options{PartSize: partSize, ChunkedMinSize: 20_000_000})
		watch := &wireWatch{next: srv.Transport(), stored: map[string]int{}, loseCommit: 1}
		hc := &http.Client{Transport: watch}
		c := srv.Client(t, cms.WithHTTPClient(hc), cms.WithRetryPolicy(cms.RetryPolicy{MaxRetries: 8}))
		ctx := context.Background()
		folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "big", Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)

		parts := "/files/upload_sessions/*"
		faults := []cmstest.Fault{
			{Method: http.MethodPut, Path: parts, Status: http.StatusInternalServerError},
			{Method: http.MethodPut, Path: parts, Status: http.StatusBadGateway},
			{Method: http.MethodPut, Path: parts, Status: http.StatusServiceUnavailable},
			{Method: http.MethodPut, Path: parts, Status: http.StatusGatewayTimeout},
			{Method: http.MethodPut, Path: parts, Status: http.StatusTooManyRequests, RetryAfter: 3 * time.Second},
			{Method: http.MethodPut, Path: parts, Status: http.StatusTooManyRequests},
			{Method: http.MethodPut, Path: parts, Reset: true},
		}
		commit := "/files/upload_sessions/*/commit"
		srv.Inject(cmstest.Fault{Method: http.MethodPost, Path: commit, Status: http.StatusInternalServerError})
		srv.Inject(cmstest.Fault{Method: http.MethodPost, Path: commit, Status: http.StatusServiceUnavailable})
		srv.Inject(cmstest.Fault{Method: http.MethodPost, Path: commit, Reset: true})

		injected := 0
		progress := func(p cms.Progress) {
			if p.PartsDone%10 == 5 { // about one PUT in ten fails
				srv.Inject(faults[injected%len(faults)])
				injected++
			}
		}
		start := time.Now()
		f, resp, err := c.Uploads.UploadChunked(ctx, folder.ID, "big.bin", newGenerated(size, 42), size,
			&cms.ChunkedUploadOptions{Concurrency: 4, Progress: progress})
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode, "the commit's answer was lost: the file was looked up")
		assert.Equal(t, generatedSHA1(size, 42), f.SHA1)
		assert.Equal(t, size, f.Size)
		t.Logf("%d part faults injected; %s of fake time", injected, time.Since(start))
		assert.GreaterOrEqual(t, injected, int(size/partSize/10))

		assert.Len(t, watch.stored, int(size/partSize), "every part was stored")
		for rng, n := range watch.stored {
			assert.Equal(t, 1, n, "part %s stored once", rng)
		}
		var names []string
		for it, err := range c.Folders.ListItemsIter(ctx, folder.ID, nil) {
			require.NoError(t, err)
			names = append(names, it.Name)
		}
		assert.Equal(t, []string{"big.bin"}, names, "one file, no duplicate")
		assert.Equal(t, 5, countRequests(srv.Server, http.MethodPost, "/commit"), "500, 503, reset, applied-but-lost, 404")
	})
}

// TestCommitRepeatResolvesTheFile: when the answer of a commit that took
// effect is lost, the retried commit finds the session consumed (404) and
// the uploader returns the file the first commit made — for a new file (by
// name in the folder) and for a new version (by id) — with no duplicate.
// A 404 whose file does not match (another content under the name) stays
// an error.
func TestCommitRepeatResolvesTheFile(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{PartSize: 1024, ChunkedMinSize: 1})
		watch := &wireWatch{next: srv.Transport(), stored: map[string]int{}, loseCommit: 1}
		c := srv.Client(t, cms.WithHTTPClient(&http.Client{Transport: watch}))
		ctx := context.Background()
		content, want := randomContent(5000, 21)

		f, _, err := c.Uploads.UploadChunked(ctx, "0", "lost.bin", onlyReader{strings.NewReader(string(content))}, int64(len(content)), nil)
		require.NoError(t, err)
		assert.Equal(t, want, f.SHA1)
		assert.Equal(t, "lost.bin", f.Name)

		v2, want2 := randomContent(4000, 22)
		watch.mu.Lock()
		watch.loseCommit = 1
		watch.mu.Unlock()
		g, _, err := c.Uploads.UploadVersionChunked(ctx, f.ID, onlyReader{strings.NewReader(string(v2))}, int64(len(v2)), nil)
		require.NoError(t, err)
		assert.Equal(t, f.ID, g.ID)
		assert.Equal(t, want2, g.SHA1)

		page, _, err := c.Folders.ListItems(ctx, "0", nil)
		require.NoError(t, err)
		assert.Equal(t, 1, page.TotalCount, "no duplicate file")

		// The session vanished without the commit taking effect: the 404
		// is reported, not papered over by another file of that name.
		srv.Inject(cmstest.Fault{Method: http.MethodPost, Path: "/files/upload_sessions/*/commit", Status: http.StatusNotFound})
		_, _, err = c.Uploads.UploadVersionChunked(ctx, f.ID, onlyReader{strings.NewReader(string(content))}, int64(len(content)), nil)
		assert.ErrorIs(t, err, cms.ErrNotFound)
		var ue *cms.UploadError
		require.ErrorAs(t, err, &ue)
		assert.False(t, ue.SessionKept, "a 404 is permanent")
	})
}
