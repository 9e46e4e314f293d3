package cmstest_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClockMakesWaitsFree: 429s with long Retry-After and a "not ready"
// window pass on the fake clock; no wait costs real time.
func TestClockMakesWaitsFree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := cmstest.NewClock(start)
	srv := cmstest.NewServer(t, cmstest.Options{Now: clock.Now, ContentNotReady: 20 * time.Second, RetryAfter: 5 * time.Second})
	client := srv.Client(t, cms.WithSleep(clock.Sleep))

	f, _, err := client.Files.Upload(ctx, "0", "slow.txt", strings.NewReader("hello"), 5, nil)
	require.NoError(t, err)
	srv.Inject(cmstest.Fault{Method: http.MethodGet, Path: "/files/{file_id}/content", Count: 2, Status: 429, RetryAfter: 30 * time.Second})
	srv.ResetRequests()
	began := time.Now()
	var buf bytes.Buffer
	_, _, err = client.Files.DownloadTo(ctx, f.ID, &buf, nil)
	require.NoError(t, err)
	assert.Equal(t, "hello", buf.String())
	assert.Less(t, time.Since(began), 30*time.Second, "no wait was real (generous bound)")
	assert.GreaterOrEqual(t, clock.Now().Sub(start), 60*time.Second, "two Retry-After: 30 passed on the clock")

	var statuses []int
	for _, rec := range srv.Requests() {
		if strings.HasSuffix(rec.Path, "/content") {
			statuses = append(statuses, rec.Status)
		}
	}
	assert.Equal(t, []int{429, 429, 302}, statuses, "the two 429s outlasted the not-ready window on the fake clock")

	// Without faults the 202 answers are waited out on the clock too.
	g, _, err := client.Files.Upload(ctx, "0", "slower.txt", strings.NewReader("world"), 5, nil)
	require.NoError(t, err)
	srv.ResetRequests()
	buf.Reset()
	_, _, err = client.Files.DownloadTo(ctx, g.ID, &buf, nil)
	require.NoError(t, err)
	assert.Equal(t, "world", buf.String())
	statuses = nil
	for _, rec := range srv.Requests() {
		if strings.HasSuffix(rec.Path, "/content") {
			statuses = append(statuses, rec.Status)
		}
	}
	assert.Equal(t, []int{202, 202, 202, 202, 302}, statuses, "20 s not ready, Retry-After 5 s")
}

func TestClockSleepHonoursContext(t *testing.T) {
	t.Parallel()
	clock := cmstest.NewClock(time.Unix(0, 0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, clock.Sleep(ctx, time.Hour), context.Canceled)
	assert.Equal(t, time.Unix(0, 0), clock.Now())
	clock.Advance(-time.Second)
	assert.Equal(t, time.Unix(0, 0), clock.Now())
}
