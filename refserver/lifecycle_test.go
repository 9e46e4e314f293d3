package refserver

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCloseIsPrompt: Close returns, gracefully (nil), with connections that
// never sent a request, an idle keep-alive connection, and a delayed request
// whose body the client never finishes. Run many times: the old shutdown
// took 5 s in a fraction of runs.
func TestCloseIsPrompt(t *testing.T) {
	t.Parallel()
	for i := range 50 {
		s, err := Start(Options{})
		require.NoError(t, err)
		var conns []net.Conn
		dial := func(root string) net.Conn {
			u, err := url.Parse(root)
			require.NoError(t, err)
			c, err := net.Dial("tcp", u.Host)
			require.NoError(t, err)
			conns = append(conns, c)
			return c
		}
		for _, root := range []string{s.BaseURL(), s.UploadURL(), s.DownloadURL()} {
			dial(root) // never sends a request
		}
		// An idle keep-alive connection after one request.
		hc := &http.Client{Transport: &http.Transport{}}
		resp, err := hc.Get(s.BaseURL() + "/folders/0")
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		// A delayed part upload whose body is mostly unsent.
		s.Inject(Fault{Method: "PUT", Path: "/files/upload_sessions/*", Delay: time.Hour})
		c := dial(s.UploadURL())
		u, _ := url.Parse(s.UploadURL())
		_, err = fmt.Fprintf(c, "PUT /api/2.0/files/upload_sessions/ABC HTTP/1.1\r\nHost: %s\r\nContent-Length: 1000\r\n\r\n0123456789", u.Host)
		require.NoError(t, err)
		require.Eventually(t, func() bool {
			for _, rec := range s.Requests() {
				if rec.Method == "PUT" {
					return true
				}
			}
			return false
		}, 10*time.Second, time.Millisecond, "the delayed request is in flight")

		done := make(chan error, 1)
		go func() { done <- s.Close() }()
		select {
		case err := <-done:
			require.NoError(t, err, "run %d: graceful shutdown, nothing forced", i)
		case <-time.After(30 * time.Second): // generous: a prompt Close takes milliseconds
			t.Fatalf("run %d: Close did not return", i)
		}
		require.NoError(t, s.Close(), "a second Close is a no-op")
		for _, rec := range s.Requests() {
			if rec.Method == "PUT" {
				assert.True(t, rec.Injected)
				assert.Zero(t, rec.Status, "the cancelled request answered nothing")
			}
		}
		hc.CloseIdleConnections()
		for _, c := range conns {
			_ = c.Close()
		}
	}
}

// TestCloseInProcess: Close ends a fault delay on the in-process handler too.
func TestCloseInProcess(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	require.NoError(t, err)
	s.Inject(Fault{Delay: time.Hour, Status: 503})
	done := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("GET", s.BaseURL()+"/folders/0", strings.NewReader(""))
		resp, err := s.Transport().RoundTrip(req)
		if err != nil {
			done <- -1
			return
		}
		done <- resp.StatusCode
	}()
	require.Eventually(t, func() bool { return len(s.Requests()) == 1 }, 10*time.Second, time.Millisecond)
	require.NoError(t, s.Close())
	select {
	case code := <-done:
		assert.NotEqual(t, 503, code, "the delay was cut short, the fault never answered")
	case <-time.After(30 * time.Second):
		t.Fatal("the delayed request outlived Close")
	}
}
