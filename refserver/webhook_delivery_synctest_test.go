//go:build go1.25

package refserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// memReceiver answers deliveries in memory with the statuses it is given
// (the last one repeats) and records when each came.
type memReceiver struct {
	mu       sync.Mutex
	statuses []int
	at       []time.Duration
	ids      []string // box-delivery-id
	bodies   []string
	start    time.Time
}

func (m *memReceiver) RoundTrip(req *http.Request) (*http.Response, error) {
	b, _ := io.ReadAll(req.Body)
	m.mu.Lock()
	defer m.mu.Unlock()
	status := m.statuses[min(len(m.at), len(m.statuses)-1)]
	m.at = append(m.at, time.Since(m.start))
	m.ids = append(m.ids, req.Header.Get("box-delivery-id"))
	m.bodies = append(m.bodies, string(b))
	return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader("")), Header: http.Header{}, Request: req}, nil
}

func (m *memReceiver) attempts() int { m.mu.Lock(); defer m.mu.Unlock(); return len(m.at) }

// inBubble starts a server whose deliveries go to rcv, and returns a way
// to call its API; dataDir, when given, persists it.
func inBubble(t *testing.T, rcv *memReceiver, dataDir ...string) (*Server, func(method, path, token, body string) map[string]any) {
	opts := Options{WebhookTransport: rcv, WebhookRetryDelay: time.Second}
	if len(dataDir) > 0 {
		opts.DataDir = dataDir[0]
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, bubbleCaller(t, s)
}

// bubbleCaller returns a way to call s's API in process.
func bubbleCaller(t *testing.T, s *Server) func(method, path, token, body string) map[string]any {
	return func(method, path, token, body string) map[string]any {
		req := httptest.NewRequest(method, s.BaseURL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		if w.Code >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
		}
		var m map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &m)
		return m
	}
}

// TestWebhookRetries: a delivery the receiver refuses is retried after
// 1 s, 2 s, 4 s … (WebhookRetryDelay doubling), with a new delivery id and
// the same payload, until the receiver takes it.
func TestWebhookRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rcv := &memReceiver{statuses: []int{500, 502, 404, 200}, start: time.Now()}
		s, call := inBubble(t, rcv)
		dir := call("POST", "/folders", s.UserToken(), `{"name":"w","parent":{"id":"0"}}`)["id"].(string)
		call("POST", "/webhooks", s.UserToken(), `{"target":{"id":"`+dir+`","type":"folder"},"address":"https://example.com/h","triggers":["FOLDER.CREATED"]}`)
		call("POST", "/folders", s.UserToken(), `{"name":"new","parent":{"id":"`+dir+`"}}`)
		time.Sleep(time.Hour)
		synctest.Wait()
		rcv.mu.Lock()
		defer rcv.mu.Unlock()
		want := []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second}
		if len(rcv.at) != len(want) {
			t.Fatalf("attempts at %v, want %v", rcv.at, want)
		}
		for i := range want {
			if rcv.at[i] != want[i] {
				t.Fatalf("attempts at %v, want %v", rcv.at, want)
			}
			if rcv.bodies[i] != rcv.bodies[0] {
				t.Fatalf("attempt %d sent another payload", i)
			}
			if i > 0 && rcv.ids[i] == rcv.ids[i-1] {
				t.Fatalf("attempt %d reused the delivery id", i)
			}
		}
	})
}

// TestWebhookRetriesEnd: a receiver that never takes a delivery gets the
// first attempt and 12 retries, no more; a webhook deleted meanwhile gets
// none after the delete.
func TestWebhookRetriesEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rcv := &memReceiver{statuses: []int{503}, start: time.Now()}
		s, call := inBubble(t, rcv)
		dir := call("POST", "/folders", s.UserToken(), `{"name":"w","parent":{"id":"0"}}`)["id"].(string)
		hook := call("POST", "/webhooks", s.UserToken(), `{"target":{"id":"`+dir+`","type":"folder"},"address":"https://example.com/h","triggers":["FOLDER.CREATED"]}`)
		call("POST", "/folders", s.UserToken(), `{"name":"a","parent":{"id":"`+dir+`"}}`)
		time.Sleep(365 * 24 * time.Hour)
		synctest.Wait()
		if n := rcv.attempts(); n != 1+maxWebhookRetries {
			t.Fatalf("%d attempts, want %d", n, 1+maxWebhookRetries)
		}

		call("POST", "/folders", s.UserToken(), `{"name":"b","parent":{"id":"`+dir+`"}}`)
		synctest.Wait()
		before := rcv.attempts()
		call("DELETE", "/webhooks/"+hook["id"].(string), s.UserToken(), "")
		time.Sleep(24 * time.Hour)
		synctest.Wait()
		if n := rcv.attempts(); n != before {
			t.Fatalf("%d attempts after the delete, want none", n-before)
		}
	})
}

// TestWebhookDeliveryAfterCommit: on a persisted server a delivery leaves
// only once the change it reports is committed, as the answer does; while
// the commit is held, the receiver hears nothing.
func TestWebhookDeliveryAfterCommit(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		rcv := &memReceiver{statuses: []int{200}, start: time.Now()}
		s, call := inBubble(t, rcv, dir)
		watched := call("POST", "/folders", s.UserToken(), `{"name":"w","parent":{"id":"0"}}`)["id"].(string)
		call("POST", "/webhooks", s.UserToken(), `{"target":{"id":"`+watched+`","type":"folder"},"address":"https://example.com/h","triggers":["FOLDER.CREATED"]}`)
		release := make(chan struct{})
		s.db.BeforeCommit = func() error { <-release; return nil }
		answered := make(chan struct{})
		go func() {
			defer close(answered)
			call("POST", "/folders", s.UserToken(), `{"name":"new","parent":{"id":"`+watched+`"}}`)
		}()
		synctest.Wait() // the creation waits for its commit, held
		if n := rcv.attempts(); n != 0 {
			t.Errorf("%d deliveries before the change was committed", n)
		}
		close(release)
		<-answered
		synctest.Wait()
		if n := rcv.attempts(); n != 1 {
			t.Fatalf("%d deliveries once committed, want 1", n)
		}
	})
}
