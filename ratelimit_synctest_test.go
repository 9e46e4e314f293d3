//go:build go1.25

package cms_test

import (
	"bytes"
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRateLimitPacesCalls runs on synctest's fake clock: at 60 calls a
// minute with a burst of 1, five calls take four seconds; uploads are paced
// by their own, slower limit on top.
func TestRateLimitPacesCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{})
		c := srv.Client(t, cms.WithRateLimit(cms.RateLimits{RequestsPerMinute: 60, UploadsPerMinute: 6, Burst: 1}))
		ctx := context.Background()
		start := time.Now()
		for range 5 {
			_, _, err := c.Folders.Get(ctx, "0", nil)
			require.NoError(t, err)
		}
		assert.Equal(t, 4*time.Second, time.Since(start), "one call a second after the first")

		time.Sleep(time.Minute) // both limiters full again
		start = time.Now()
		for i := range 3 {
			_, _, err := c.Files.UploadInOneRequest(ctx, "0", "f"+string(rune('a'+i)), bytes.NewReader([]byte("x")), 1, nil)
			require.NoError(t, err)
		}
		assert.Equal(t, 20*time.Second, time.Since(start), "uploads: one every 10 s")

		// Without the option nothing waits.
		plain := srv.Client(t)
		start = time.Now()
		for range 20 {
			_, _, err := plain.Folders.Get(ctx, "0", nil)
			require.NoError(t, err)
		}
		assert.Zero(t, time.Since(start))
	})
}

// TestRateLimitCancelledWait: a call waiting for its turn ends with its
// ctx.
func TestRateLimitCancelledWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{})
		c := srv.Client(t, cms.WithRateLimit(cms.RateLimits{RequestsPerMinute: 1, Burst: 1}), cms.WithoutRetries())
		_, _, err := c.Folders.Get(context.Background(), "0", nil)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _, err = c.Folders.Get(ctx, "0", nil)
		assert.Error(t, err, "the next turn is a minute away")
	})
}
