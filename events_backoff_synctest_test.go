//go:build go1.25

package cms_test

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEventStreamBacksOffQuickReconnects runs on synctest's clock: a
// realtime server that answers reconnect at once made the stream poll in a
// tight loop (some 17,000 calls in 1.5 s). Now each quick answer in a row
// makes the next poll wait a jittered half to all of RetryDelay (1 s)
// doubled per answer; a poll that holds the line resets the wait, so the
// poll after it goes at once.
func TestEventStreamBacksOffQuickReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &pollFake{entry: `{"type":"realtime_server","url":"http://rt.test/subscribe?channel=c","ttl":10,"max_retries":10,"retry_timeout":610}`}
		f.realtime = func(n int, w http.ResponseWriter, r *http.Request) error {
			switch {
			case n <= 5:
				return f.answer(w, "reconnect")
			case n == 6:
				time.Sleep(30 * time.Second) // a long poll that holds the line
				return f.answer(w, "reconnect")
			}
			return f.answer(w, "new_change")
		}
		start := time.Now()
		for _, err := range f.client(t).Events.Stream(context.Background(), nil) {
			require.NoError(t, err)
			break
		}
		at := f.offsets(start)
		require.Len(t, at, 7)
		assert.Zero(t, at[0])
		for i, bound := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second} {
			gap := at[i+1] - at[i]
			assert.GreaterOrEqual(t, gap, bound/2, "the wait after quick answer %d", i+1)
			assert.LessOrEqual(t, gap, bound, "the wait after quick answer %d", i+1)
		}
		assert.Equal(t, 30*time.Second, at[6]-at[5], "after a poll that held the line, the next goes at once")
		assert.Equal(t, 7, f.options, "a new server after each reconnect")
	})
}

// TestEventStreamQuickReconnectsBounded: in the 1.5 s in which the stream
// used to make thousands of calls it now makes two polls.
func TestEventStreamQuickReconnectsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &pollFake{entry: `{"type":"realtime_server","url":"http://rt.test/subscribe?channel=c"}`}
		f.realtime = func(n int, w http.ResponseWriter, r *http.Request) error { return f.answer(w, "reconnect") }
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		defer cancel()
		for range f.client(t).Events.Stream(ctx, nil) {
		}
		assert.LessOrEqual(t, len(f.offsets(time.Now())), 2)
	})
}
