//go:build go1.25

package cms_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDownloadWaitsOutContentNotReady runs on synctest's fake clock: after
// an upload the server answers downloads with 202 + Retry-After for 5 s, and
// Download waits and asks again.
func TestDownloadWaitsOutContentNotReady(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{ContentNotReady: 5 * time.Second, RetryAfter: 2 * time.Second})
		c := srv.Client(t)
		ctx := context.Background()
		f, _, err := c.Files.UploadInOneRequest(ctx, "0", "fresh.txt", bytes.NewReader([]byte("fresh")), 5, nil)
		require.NoError(t, err)
		srv.ResetRequests()
		start := time.Now()
		body, resp, err := c.Files.Download(ctx, f.ID, nil)
		require.NoError(t, err)
		got, _ := io.ReadAll(body)
		body.Close()
		assert.Equal(t, "fresh", string(got))
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, 6*time.Second, time.Since(start), "three asks, two 2 s waits on the fake clock")
		n := 0
		for _, r := range srv.Requests() {
			if r.Role == "api" {
				n++
			}
		}
		assert.Equal(t, 4, n, "three 202s, then the 302")
	})
}

// TestDownloadNotReadyPastDeadline: a Retry-After that would outlive the ctx
// is not waited; the 202 comes back as an *AcceptedError at once.
func TestDownloadNotReadyPastDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{ContentNotReady: time.Hour, RetryAfter: 30 * time.Second})
		c := srv.Client(t)
		f, _, err := c.Files.UploadInOneRequest(context.Background(), "0", "slow.txt", bytes.NewReader([]byte("slow")), 4, nil)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		_, _, err = c.Files.Download(ctx, f.ID, nil)
		var acc *cms.AcceptedError
		require.ErrorAs(t, err, &acc)
		assert.Equal(t, 30*time.Second, acc.RetryAfter)
		assert.Zero(t, time.Since(start))

		_, _, err = c.Files.Download(context.Background(), f.ID, &cms.DownloadOptions{MaxWaits: 3})
		require.ErrorAs(t, err, &acc)
		assert.Equal(t, 90*time.Second, time.Since(start), "three waits, then the fourth 202 is reported")
	})
}
