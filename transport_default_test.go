package cms

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultTransportReusesConnectionsUnderConcurrency sends rounds of 16
// calls that are all in flight at once. The default transport must keep
// the 16 connections of the first round and reuse them in the next rounds
// (http.DefaultTransport keeps 2 per host and opens 14 new ones a round).
func TestDefaultTransportReusesConnectionsUnderConcurrency(t *testing.T) {
	const inFlight, rounds = 16, 3
	var newConns atomic.Int64
	var mu sync.Mutex
	arrived := 0
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived++
		if arrived == inFlight {
			close(release)
		}
		ch := release
		mu.Unlock()
		select { // hold every call until the whole round is in flight
		case <-ch:
		case <-r.Context().Done():
			return
		case <-time.After(10 * time.Second):
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"type":"folder","id":"0","name":"All Files"}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			newConns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	c, err := NewClient(WithToken("t"), WithBaseURL(srv.URL+"/2.0"), WithUploadURL(srv.URL+"/api/2.0"))
	require.NoError(t, err)
	ctx := context.Background()
	for round := range rounds {
		mu.Lock()
		arrived, release = 0, make(chan struct{})
		mu.Unlock()
		var wg sync.WaitGroup
		for range inFlight {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, err := c.Folders.Get(ctx, "0", nil)
				assert.NoError(t, err)
			}()
		}
		wg.Wait()
		assert.LessOrEqual(t, newConns.Load(), int64(inFlight), "round %d opened new connections instead of reusing idle ones", round)
	}
}

// TestWithHTTPClientTransportWins: a caller's own transport is used as is.
func TestWithHTTPClientTransportWins(t *testing.T) {
	t.Parallel()
	own := &http.Transport{}
	assert.Same(t, http.RoundTripper(own), baseTransport(&http.Client{Transport: own}))
	shared, ok := baseTransport(nil).(*http.Transport)
	require.True(t, ok)
	assert.Same(t, sharedTransport(), shared)
	assert.Equal(t, DefaultMaxIdleConnsPerHost, shared.MaxIdleConnsPerHost)
	assert.GreaterOrEqual(t, DefaultMaxIdleConnsPerHost, 16)
	c, err := NewClient(WithToken("t"))
	require.NoError(t, err)
	assert.Same(t, http.RoundTripper(shared), c.download.Transport, "downloads share the tuned pool")
}
