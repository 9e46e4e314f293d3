//go:build go1.25

package refserver

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// hangingReceiver answers deliveries in memory: those to an address
// containing "hang" never answer (until the attempt's timeout), the others
// are taken at once; it records when each address got an attempt.
type hangingReceiver struct {
	mu      sync.Mutex
	start   time.Time
	at      map[string][]time.Duration
	running map[string]int
	peak    map[string]int
}

func newHangingReceiver() *hangingReceiver {
	return &hangingReceiver{start: time.Now(), at: map[string][]time.Duration{}, running: map[string]int{}, peak: map[string]int{}}
}

func (h *hangingReceiver) RoundTrip(req *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, req.Body)
	addr := req.URL.String()
	h.mu.Lock()
	h.at[addr] = append(h.at[addr], time.Since(h.start))
	h.running[addr]++
	h.peak[addr] = max(h.peak[addr], h.running[addr])
	h.mu.Unlock()
	defer func() { h.mu.Lock(); h.running[addr]--; h.mu.Unlock() }()
	if strings.Contains(addr, "hang") {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("")), Header: http.Header{}, Request: req}, nil
}

// TestWebhookSlotsSharedPerOwner: one user's receivers that hang take at
// most their share of the delivery slots, so another user's delivery goes
// out at once instead of waiting for their timeouts.
func TestWebhookSlotsSharedPerOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rcv := newHangingReceiver()
		s, err := New(Options{WebhookTransport: rcv, WebhookRetryDelay: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		call := bubbleCaller(t, s)
		hung := call("POST", "/folders", s.UserToken(), `{"name":"hung","parent":{"id":"0"}}`)["id"].(string)
		call("POST", "/webhooks", s.UserToken(), `{"target":{"id":"`+hung+`","type":"folder"},"address":"https://hang.example.com/h","triggers":["FOLDER.CREATED"]}`)
		fine := call("POST", "/folders", s.AdminToken(), `{"name":"fine","parent":{"id":"0"}}`)["id"].(string)
		call("POST", "/webhooks", s.AdminToken(), `{"target":{"id":"`+fine+`","type":"folder"},"address":"https://ok.example.com/h","triggers":["FOLDER.CREATED"]}`)

		for i := range 20 {
			call("POST", "/folders", s.UserToken(), fmt.Sprintf(`{"name":"f%d","parent":{"id":"%s"}}`, i, hung))
		}
		synctest.Wait()
		rcv.mu.Lock()
		hanging := rcv.running["https://hang.example.com/h"]
		rcv.mu.Unlock()
		if hanging == 0 || hanging >= maxConcurrentDeliveries {
			t.Fatalf("%d hanging attempts at once, want some but fewer than the %d slots", hanging, maxConcurrentDeliveries)
		}

		call("POST", "/folders", s.AdminToken(), `{"name":"g","parent":{"id":"`+fine+`"}}`)
		synctest.Wait()
		rcv.mu.Lock()
		got := rcv.at["https://ok.example.com/h"]
		peak := rcv.peak["https://hang.example.com/h"]
		rcv.mu.Unlock()
		if len(got) != 1 || got[0] != 0 {
			t.Fatalf("the other owner's delivery went out at %v, want at once", got)
		}
		if peak >= maxConcurrentDeliveries {
			t.Fatalf("one owner ran %d attempts at once", peak)
		}
	})
}

// TestWebhookQueueBounded: deliveries to a receiver that refuses them
// wait for their retries within the queue's bounds: past
// WebhookQueueLimit the oldest are dropped (and counted), the payloads
// held stay under WebhookQueueBytes, and a waiting delivery holds no
// goroutine.
func TestWebhookQueueBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rcv := &memReceiver{statuses: []int{503}, start: time.Now()}
		s, err := New(Options{WebhookTransport: rcv, WebhookRetryDelay: time.Minute, WebhookQueueLimit: 50, WebhookQueueBytes: 64 << 10})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		call := bubbleCaller(t, s)
		dir := call("POST", "/folders", s.UserToken(), `{"name":"w","parent":{"id":"0"}}`)["id"].(string)
		call("POST", "/webhooks", s.UserToken(), `{"target":{"id":"`+dir+`","type":"folder"},"address":"https://example.com/h","triggers":["FOLDER.CREATED"]}`)
		const n = 400
		for i := range n {
			call("POST", "/folders", s.UserToken(), fmt.Sprintf(`{"name":"f%d","parent":{"id":"%s"}}`, i, dir))
		}
		synctest.Wait()
		st := s.WebhookQueueStats()
		if st.Queued > 50 || st.Bytes > 64<<10 {
			t.Fatalf("queue holds %d deliveries, %d bytes: over its bounds", st.Queued, st.Bytes)
		}
		if st.Dropped != int64(n-st.Queued) {
			t.Fatalf("%d dropped, want %d", st.Dropped, n-st.Queued)
		}
		if st.InFlight != 0 {
			t.Fatalf("%d attempts running while every delivery waits for its retry (on a timer, without a goroutine)", st.InFlight)
		}

		// The newest are kept: the retries carry the last folders' payloads.
		before := rcv.attempts()
		time.Sleep(time.Minute)
		synctest.Wait()
		rcv.mu.Lock()
		retried := rcv.bodies[before:]
		rcv.mu.Unlock()
		if len(retried) != st.Queued {
			t.Fatalf("%d retries, want %d", len(retried), st.Queued)
		}
		for _, b := range retried {
			if strings.Contains(b, `"name":"f0"`) {
				t.Fatal("the oldest delivery was kept")
			}
		}
		if !strings.Contains(strings.Join(retried, ""), fmt.Sprintf(`"name":"f%d"`, n-1)) {
			t.Fatal("the newest delivery was dropped")
		}
	})
}

// TestWebhookQueueClose: closing the server drops what waits for a retry
// and stops nothing else from returning.
func TestWebhookQueueClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rcv := &memReceiver{statuses: []int{503}, start: time.Now()}
		s, err := New(Options{WebhookTransport: rcv, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		call := bubbleCaller(t, s)
		dir := call("POST", "/folders", s.UserToken(), `{"name":"w","parent":{"id":"0"}}`)["id"].(string)
		call("POST", "/webhooks", s.UserToken(), `{"target":{"id":"`+dir+`","type":"folder"},"address":"https://example.com/h","triggers":["FOLDER.CREATED"]}`)
		call("POST", "/folders", s.UserToken(), `{"name":"a","parent":{"id":"`+dir+`"}}`)
		synctest.Wait()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if st := s.WebhookQueueStats(); st.Queued != 0 {
			t.Fatalf("%d deliveries queued after Close", st.Queued)
		}
		n := rcv.attempts()
		time.Sleep(24 * time.Hour)
		synctest.Wait()
		if rcv.attempts() != n {
			t.Fatal("a retry after Close")
		}
	})
}
