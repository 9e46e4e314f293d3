//go:build go1.25

package refserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestOutboxLeavesAfterCommit: what a change sends out (the wake-up of a
// long poll of /events, a webhook delivery) leaves only once the change's
// commit is durable, and nothing leaves after a failed commit.
func TestOutboxLeavesAfterCommit(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		rcv := &memReceiver{statuses: []int{200}, start: time.Now()}
		s, err := New(Options{DataDir: dir, WebhookTransport: rcv, WebhookRetryDelay: time.Second, LongPollTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		call := func(method, url, token, body string) *httptest.ResponseRecorder {
			req := httptest.NewRequest(method, url, strings.NewReader(body))
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			return w
		}
		created := func(w *httptest.ResponseRecorder) string {
			var m map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil || w.Code != http.StatusCreated {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			return m["id"].(string)
		}
		tok := s.UserToken()
		watched := created(call("POST", s.BaseURL()+"/folders", tok, `{"name":"w","parent":{"id":"0"}}`))
		if w := call("POST", s.BaseURL()+"/webhooks", tok, `{"target":{"id":"`+watched+`","type":"folder"},"address":"https://example.com/h","triggers":["FOLDER.CREATED"]}`); w.Code != http.StatusCreated {
			t.Fatalf("webhook: %d %s", w.Code, w.Body)
		}
		var servers struct{ Entries []struct{ URL string } }
		if err := json.Unmarshal(call(http.MethodOptions, s.BaseURL()+"/events", tok, "").Body.Bytes(), &servers); err != nil || len(servers.Entries) != 1 {
			t.Fatalf("OPTIONS /events: %v", err)
		}
		poll := func() chan string {
			done := make(chan string, 1)
			go func() {
				done <- call(http.MethodGet, servers.Entries[0].URL+"&stream_position=now", "", "").Body.String()
			}()
			synctest.Wait() // waiting
			return done
		}
		answered := func(done chan string) (string, bool) {
			select {
			case got := <-done:
				return got, true
			default:
				return "", false
			}
		}

		// A commit held: nothing leaves until it is durable.
		release := make(chan struct{})
		s.db.BeforeCommit = func() error { <-release; return nil }
		polled := poll()
		changed := make(chan int, 1)
		go func() {
			changed <- call("POST", s.BaseURL()+"/folders", tok, `{"name":"new","parent":{"id":"`+watched+`"}}`).Code
		}()
		synctest.Wait() // the change is made, its commit held
		if n := rcv.attempts(); n != 0 {
			t.Errorf("%d deliveries before the commit", n)
		}
		if got, ok := answered(polled); ok {
			t.Errorf("the long poll answered before the commit: %s", got)
		}
		close(release)
		if code := <-changed; code != http.StatusCreated {
			t.Fatalf("the change answered %d", code)
		}
		synctest.Wait()
		if n := rcv.attempts(); n != 1 {
			t.Errorf("%d deliveries once committed, want 1", n)
		}
		if got, ok := answered(polled); !ok || !strings.Contains(got, `"new_change"`) {
			t.Errorf("the long poll once committed: %q, %v; want new_change", got, ok)
		}

		// A failed commit: nothing leaves.
		s.db.BeforeCommit = func() error { return errors.New("the disk is gone") }
		polled = poll()
		if code := call("POST", s.BaseURL()+"/folders", tok, `{"name":"lost","parent":{"id":"`+watched+`"}}`).Code; code != http.StatusInternalServerError {
			t.Fatalf("the change whose commit failed answered %d, want 500", code)
		}
		synctest.Wait()
		if n := rcv.attempts(); n != 1 {
			t.Errorf("%d deliveries after a failed commit, want the 1 of before", n)
		}
		// The long poll ends at its timeout, without new_change (its own
		// answer waits for the commit, which fails again: a 500).
		if got := <-polled; strings.Contains(got, `"new_change"`) {
			t.Errorf("the long poll answered new_change after a failed commit: %s", got)
		}
		if n := rcv.attempts(); n != 1 {
			t.Errorf("%d deliveries after a failed commit, want the 1 of before", n)
		}
	})
}
