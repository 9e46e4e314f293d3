//go:build go1.25

package refserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestEventsLongPollTimesOut: in a bubble, a long poll with nothing the
// user may see answers reconnect after LongPollTimeout (an admin's change
// wakes it without answering), and a channel past its ten minutes answers
// reconnect at once.
func TestEventsLongPollTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := New(Options{LongPollTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		h := s.Handler()
		call := func(method, url, token, body string) *httptest.ResponseRecorder {
			req := httptest.NewRequest(method, url, strings.NewReader(body))
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			return w
		}
		w := call(http.MethodOptions, s.BaseURL()+"/events", s.UserToken(), "")
		var servers struct {
			Entries []struct{ URL string }
		}
		if err := json.Unmarshal(w.Body.Bytes(), &servers); err != nil || len(servers.Entries) != 1 {
			t.Fatalf("OPTIONS /events: %v %s", err, w.Body)
		}
		url := servers.Entries[0].URL
		start := time.Now()
		done := make(chan string)
		go func() { done <- call(http.MethodGet, url+"&stream_position=now", "", "").Body.String() }()
		synctest.Wait()
		call(http.MethodPost, s.BaseURL()+"/folders", s.AdminToken(), `{"name":"admin's","parent":{"id":"0"}}`)
		synctest.Wait()
		select {
		case got := <-done:
			t.Fatalf("answered on a change the user may not see: %s", got)
		default:
		}
		got := <-done
		if !strings.Contains(got, `"reconnect"`) || time.Since(start) != time.Minute {
			t.Fatalf("after %v: %s, want reconnect after 1m", time.Since(start), got)
		}
		time.Sleep(10 * time.Minute) // virtual: the channel expires
		start = time.Now()
		if got := call(http.MethodGet, url+"&stream_position=0", "", "").Body.String(); !strings.Contains(got, `"reconnect"`) || time.Since(start) != 0 {
			t.Fatalf("expired channel: %s after %v", got, time.Since(start))
		}
	})
}
