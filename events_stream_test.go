package cms

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEventStreamBackoffUsesTheClientsSleep: the waits between failed polls
// go through WithSleep (an injected clock costs no real time), double from
// RetryDelay and stop at a minute.
func TestEventStreamBackoffUsesTheClientsSleep(t *testing.T) {
	var mu sync.Mutex
	var slept []time.Duration
	w := newWireLog(t, WithSleep(func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		slept = append(slept, d)
		mu.Unlock()
		return ctx.Err()
	}))
	changed := false
	w.serve("GET /events", func(rw http.ResponseWriter, r *http.Request) {
		if changed {
			writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":1,"next_stream_position":2,"entries":[{"event_id":"x","event_type":"ITEM_CREATE"}]}`))
			return
		}
		writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":0,"next_stream_position":1,"entries":[]}`))
	})
	w.serve("OPTIONS /events", func(rw http.ResponseWriter, r *http.Request) {
		writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":1,"entries":[{"type":"realtime_server","url":"`+w.e.contentSrv.URL+`/subscribe?channel=c","ttl":"10","max_retries":"10","retry_timeout":610}]}`))
	})
	polls := 0
	w.e.content.HandleFunc("GET /subscribe", func(rw http.ResponseWriter, r *http.Request) {
		polls++
		if polls <= 4 {
			rw.WriteHeader(http.StatusBadGateway)
			return
		}
		changed = true
		writeJSON(rw, http.StatusOK, []byte(`{"message":"new_change"}`))
	})
	for e, err := range w.e.client.Events.Stream(context.Background(), &EventStreamOptions{RetryDelay: 20 * time.Second}) {
		require.NoError(t, err)
		assert.Equal(t, "x", e.EventID)
		break
	}
	assert.Equal(t, 5, polls)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []time.Duration{20 * time.Second, 40 * time.Second, time.Minute, time.Minute}, slept)
}

// TestEventStreamRefusesBadOptions: negative options and an enterprise
// stream type are *ArgErrors, yielded once before anything is sent.
func TestEventStreamRefusesBadOptions(t *testing.T) {
	w := newWireLog(t)
	for _, o := range []*EventStreamOptions{
		{Remember: -1}, {RetryDelay: -time.Second}, {Limit: -1},
		{StreamType: EventStreamTypeAdminLogsStreaming}, {StreamType: "everything"},
	} {
		n := 0
		for e, err := range w.e.client.Events.Stream(context.Background(), o) {
			n++
			assert.Nil(t, e)
			var ae *ArgError
			require.ErrorAs(t, err, &ae, "%+v", o)
		}
		assert.Equal(t, 1, n, "%+v", o)
	}
	assert.Zero(t, w.count(), "nothing sent")
}

// TestEventStreamNoRealtimeServer: an OPTIONS /events answer without a
// usable server ends the stream with an error.
func TestEventStreamNoRealtimeServer(t *testing.T) {
	w := newWireLog(t)
	w.answer("GET /events", http.StatusOK, `{"chunk_size":0,"next_stream_position":1,"entries":[]}`)
	w.answer("OPTIONS /events", http.StatusOK, `{"chunk_size":0,"entries":[]}`)
	var errs []error
	for _, err := range w.e.client.Events.Stream(context.Background(), nil) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.ErrorContains(t, errs[0], "no realtime server")
}

// TestEventStreamBadRealtimeURL: a realtime URL that is not absolute http(s)
// is a failed poll; its error never quotes the URL's query.
func TestEventStreamBadRealtimeURL(t *testing.T) {
	w := newWireLog(t)
	for _, raw := range []string{"/relative?channel=secret", "ftp://rt.example/x?channel=secret", "http:///x?channel=secret"} {
		_, err := w.e.client.Events.longPoll(context.Background(), &RealtimeServer{URL: raw}, "1")
		require.Error(t, err, raw)
		assert.NotContains(t, err.Error(), "secret", raw)
	}
	_, err := w.e.client.Events.longPoll(context.Background(), &RealtimeServer{URL: "http://127.0.0.1:1/x?channel=secret"}, "1")
	require.Error(t, err, "nothing listens on port 1")
	assert.NotContains(t, err.Error(), "secret")
}
