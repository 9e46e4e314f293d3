package refserver

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The clients of the moment are the connections that started a request in
// the current window of clientWindow, or in the one before when it counted
// more; a connection counts once a window, and nothing counts once two
// windows pass without a request.
func TestClientCount(t *testing.T) {
	var l lifecycle
	l.init()
	now := time.Unix(1_000_000, 0)
	l.now = func() time.Time { return now }
	conn := func() net.Conn {
		a, b := net.Pipe()
		t.Cleanup(func() { a.Close(); b.Close() })
		return a
	}
	c1, c2, c3 := conn(), conn(), conn()

	assert.Equal(t, 0, l.clientsNow(), "no request yet")
	l.connState(c1, http.StateNew)
	assert.Equal(t, 0, l.clientsNow(), "a connection that sent nothing is no client")
	for _, c := range []net.Conn{c1, c2, c1, c2} {
		l.connState(c, http.StateActive)
		l.connState(c, http.StateIdle)
	}
	assert.Equal(t, 2, l.clientsNow(), "each connection once")

	now = now.Add(clientWindow)
	assert.Equal(t, 2, l.clientsNow(), "the window before counts")
	l.connState(c3, http.StateActive)
	assert.Equal(t, 2, l.clientsNow(), "more in the window before")
	l.connState(c1, http.StateActive)
	l.connState(c2, http.StateActive)
	assert.Equal(t, 3, l.clientsNow(), "the current window counts three")

	now = now.Add(2 * clientWindow)
	assert.Equal(t, 0, l.clientsNow(), "two windows without a request")
	l.connState(c3, http.StateIdle)
	l.connState(c3, http.StateActive)
	assert.Equal(t, 1, l.clientsNow(), "the window before a gap counts nothing")

	l.connState(c3, http.StateClosed)
	assert.NotContains(t, l.conns, c3, "a closed connection is forgotten")
}

// A persisted server's commits know how many clients are sending requests:
// three connections, three clients (in one window: the clock is frozen).
func TestPersistedServerCountsClients(t *testing.T) {
	s, err := Start(Options{DataDir: t.TempDir()})
	require.NoError(t, err)
	defer s.Close()
	now := time.Now()
	s.life.mu.Lock()
	s.life.now = func() time.Time { return now }
	s.life.mu.Unlock()

	get := func(hc *http.Client) {
		req, err := http.NewRequest(http.MethodGet, s.BaseURL()+"/users/me", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+s.UserToken())
		resp, err := hc.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body) // read whole: the connection is kept
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	var clients []*http.Client
	for range 3 {
		hc := &http.Client{Transport: &http.Transport{}}
		defer hc.CloseIdleConnections()
		clients = append(clients, hc)
		get(hc)
	}
	get(clients[0]) // again, on its kept-alive connection
	assert.Equal(t, 3, s.db.Clients())
}
