//go:build go1.25

package cms_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUploadChunkedWaitsOutCommit202 runs on synctest's fake clock: the
// server answers the commit with 202 + Retry-After for 5 s after the last
// part, and the uploader waits and commits again.
func TestUploadChunkedWaitsOutCommit202(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{PartSize: 1024, ChunkedMinSize: 1, CommitNotReady: 5 * time.Second, RetryAfter: 2 * time.Second})
		c := srv.Client(t)
		content, want := randomContent(5000, 11)
		start := time.Now()
		f, _, err := c.Uploads.UploadChunked(context.Background(), "0", "slow.bin", bytes.NewReader(content), int64(len(content)), nil)
		require.NoError(t, err)
		assert.Equal(t, want, f.SHA1)
		assert.Equal(t, 6*time.Second, time.Since(start), "202 at 0, 2 and 4 s, then 201 at 6 s on the fake clock")
		assert.Equal(t, 4, countRequests(srv.Server, http.MethodPost, "/commit"))
	})
}

// TestUploadChunkedCommitWaitRespectsDeadline: a Retry-After that would pass
// the ctx deadline ends the upload with the 202 reported.
func TestUploadChunkedCommitWaitRespectsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{PartSize: 1024, ChunkedMinSize: 1, CommitNotReady: time.Hour, RetryAfter: 30 * time.Second})
		c := srv.Client(t)
		content, _ := randomContent(3000, 12)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _, err := c.Uploads.UploadChunked(ctx, "0", "never.bin", bytes.NewReader(content), int64(len(content)), nil)
		var acc *cms.AcceptedError
		require.ErrorAs(t, err, &acc)
		assert.Equal(t, 30*time.Second, acc.RetryAfter)
		var ue *cms.UploadError
		require.ErrorAs(t, err, &ue)
	})
}

// TestUploadChunkedFailureLeaksNoGoroutines: synctest.Test fails if any
// goroutine started in the bubble outlives it, so the producer and workers
// must all end when a part fails permanently.
func TestUploadChunkedFailureLeaksNoGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{PartSize: 1024, ChunkedMinSize: 1})
		srv.Inject(cmstest.Fault{Method: http.MethodPut, Path: "/files/upload_sessions/*", Count: 2, Status: http.StatusBadRequest})
		c := srv.Client(t)
		content, _ := randomContent(20*1024, 13)
		_, _, err := c.Uploads.UploadChunked(context.Background(), "0", "fails.bin", onlyReader{bytes.NewReader(content)}, int64(len(content)), &cms.ChunkedUploadOptions{Concurrency: 4})
		var ue *cms.UploadError
		require.ErrorAs(t, err, &ue)
		assert.ErrorIs(t, err, cms.ErrBadRequest)
	})
}
