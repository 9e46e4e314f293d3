//go:build go1.25

package cms_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pollFake is an API host and a realtime host in process (no sockets, so a
// synctest bubble's clock moves): GET /events answers an empty page until
// changed is set, then one event; OPTIONS /events names the realtime host
// with the entry's fields; the realtime host answers with realtime(n) for
// its n-th poll (1-based).
type pollFake struct {
	mu       sync.Mutex
	entry    string // the realtime_server entry's JSON
	realtime func(n int, w http.ResponseWriter, r *http.Request) error
	changed  bool
	options  int
	polls    []time.Time
	pollAuth []string
	apiAuth  []string
}

func (f *pollFake) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	f.mu.Lock()
	switch {
	case r.URL.Host == "rt.test":
		f.polls = append(f.polls, time.Now())
		f.pollAuth = append(f.pollAuth, r.Header.Get("Authorization"))
		n := len(f.polls)
		f.mu.Unlock()
		if err := f.realtime(n, rec, r); err != nil {
			return nil, err
		}
		return rec.Result(), nil
	case r.Method == http.MethodOptions:
		f.options++
		f.apiAuth = append(f.apiAuth, r.Header.Get("Authorization"))
		rec.Header().Set("Content-Type", "application/json")
		_, _ = rec.WriteString(`{"chunk_size":1,"entries":[` + f.entry + `]}`)
	default:
		f.apiAuth = append(f.apiAuth, r.Header.Get("Authorization"))
		rec.Header().Set("Content-Type", "application/json")
		if f.changed && r.URL.Query().Get("stream_position") == "5" {
			_, _ = rec.WriteString(`{"chunk_size":1,"next_stream_position":6,"entries":[{"type":"event","event_id":"A","event_type":"ITEM_UPLOAD"}]}`)
		} else {
			_, _ = rec.WriteString(`{"chunk_size":0,"next_stream_position":5,"entries":[]}`)
		}
	}
	f.mu.Unlock()
	return rec.Result(), nil
}

// answer writes a realtime message and marks the stream changed on
// new_change.
func (f *pollFake) answer(w http.ResponseWriter, msg string) error {
	if msg == "new_change" {
		f.mu.Lock()
		f.changed = true
		f.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	_, err := w.Write([]byte(`{"message":"` + msg + `"}`))
	return err
}

// hang is a realtime server that never answers: the poll ends with its ctx.
func hang(r *http.Request) error {
	<-r.Context().Done()
	return r.Context().Err()
}

func (f *pollFake) client(t *testing.T, opts ...cms.Option) *cms.Client {
	t.Helper()
	hc := &http.Client{Transport: f}
	c, err := cms.NewClient(append([]cms.Option{cms.WithURLs("https://api.test/2.0", "https://upload.test/api/2.0"),
		cms.WithToken("secret-token"), cms.WithHTTPClient(hc), cms.WithDownloadHTTPClient(hc), cms.WithoutRetries()}, opts...)...)
	require.NoError(t, err)
	return c
}

// offsets returns the times of the polls as offsets from start.
func (f *pollFake) offsets(start time.Time) []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]time.Duration, len(f.polls))
	for i, p := range f.polls {
		out[i] = p.Sub(start)
	}
	return out
}

// TestEventStreamPollFailures runs on synctest's clock: a poll answered
// 503 and one whose connection fails are made again after RetryDelay's
// doubling waits (1 s, 2 s); a poll with no answer in retry_timeout (30 s)
// is made again at once, and once max_retries (3) polls are used the
// stream asks OPTIONS /events for a server again; an answer that is not
// JSON is a failure too (the wait starts again at 1 s). The realtime host
// never gets the token, and the error it saw is logged without the
// channel's query.
func TestEventStreamPollFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &pollFake{entry: `{"type":"realtime_server","url":"http://rt.test/subscribe?channel=chan-secret&stream_type=all","ttl":"10","max_retries":"3","retry_timeout":30}`}
		f.realtime = func(n int, w http.ResponseWriter, r *http.Request) error {
			assert.Equal(t, "5", r.URL.Query().Get("stream_position"), "poll %d from the last position", n)
			assert.Equal(t, "chan-secret", r.URL.Query().Get("channel"))
			switch n {
			case 1:
				w.WriteHeader(http.StatusServiceUnavailable)
				return nil
			case 2:
				return errors.New("connection reset by peer")
			case 3:
				return hang(r)
			case 4:
				_, err := w.Write([]byte("<html>busy</html>"))
				return err
			}
			return f.answer(w, "new_change")
		}
		var log strings.Builder
		c := f.client(t, cms.WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		start := time.Now()
		var got []string
		for e, err := range c.Events.Stream(context.Background(), nil) {
			require.NoError(t, err)
			got = append(got, e.EventID)
			break
		}
		assert.Equal(t, []string{"A"}, got)
		assert.Equal(t, []time.Duration{0, time.Second, 3 * time.Second, 33 * time.Second, 34 * time.Second}, f.offsets(start),
			"503, wait 1 s; reset, wait 2 s; no answer for 30 s, again at once on a new server; bad answer, wait 1 s")
		assert.Equal(t, 2, f.options, "a new server once three polls were used")
		assert.Equal(t, []string{"", "", "", "", ""}, f.pollAuth, "no token to the realtime host")
		for _, a := range f.apiAuth {
			assert.Equal(t, "Bearer secret-token", a)
		}
		assert.Contains(t, log.String(), "long poll failed")
		assert.NotContains(t, log.String(), "chan-secret", "the channel authorizes the poll: never logged")
	})
}

// TestEventStreamServerTTL: a server entry's ttl (minutes) ends its use;
// the next poll asks OPTIONS /events first.
func TestEventStreamServerTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &pollFake{entry: `{"type":"realtime_server","url":"http://rt.test/subscribe?channel=c","ttl":"1","max_retries":"10","retry_timeout":"40"}`}
		f.realtime = func(n int, w http.ResponseWriter, r *http.Request) error {
			if n < 3 {
				return hang(r)
			}
			return f.answer(w, "new_change")
		}
		start := time.Now()
		for _, err := range f.client(t).Events.Stream(context.Background(), nil) {
			require.NoError(t, err)
			break
		}
		assert.Equal(t, []time.Duration{0, 40 * time.Second, 80 * time.Second}, f.offsets(start))
		assert.Equal(t, 2, f.options, "the minute of the first server had passed at 80 s")
	})
}

// TestEventStreamStopsDuringBackoff: the end of ctx ends a wait between
// failed polls, and the stream with it, without an error.
func TestEventStreamStopsDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &pollFake{entry: `{"type":"realtime_server","url":"http://rt.test/subscribe?channel=c","ttl":10,"max_retries":10,"retry_timeout":610}`}
		f.realtime = func(n int, w http.ResponseWriter, r *http.Request) error {
			w.WriteHeader(http.StatusInternalServerError)
			return nil
		}
		ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
		defer cancel()
		start := time.Now()
		n := 0
		for range f.client(t).Events.Stream(ctx, &cms.EventStreamOptions{RetryDelay: 10 * time.Second}) {
			n++
		}
		assert.Zero(t, n, "nothing yielded, not even ctx's error")
		assert.Equal(t, 25*time.Second, time.Since(start))
		assert.Equal(t, []time.Duration{0, 10 * time.Second}, f.offsets(start), "the third poll (at 30 s) never came")
	})
}
