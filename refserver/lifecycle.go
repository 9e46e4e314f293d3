package refserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// Default timeouts of the listeners (Options.CloseGrace, ReadHeaderTimeout,
// IdleTimeout, BodyIdleTimeout).
const (
	// defaultCloseGrace bounds how long Close lets requests in flight
	// finish before it closes their connections.
	defaultCloseGrace = 2 * time.Second
	// defaultReadHeaderTimeout bounds the wait for a request's headers.
	defaultReadHeaderTimeout = 30 * time.Second
	// defaultIdleTimeout bounds how long an idle keep-alive connection is
	// kept.
	defaultIdleTimeout = 2 * time.Minute
	// defaultBodyIdleTimeout bounds how long a request body may send
	// nothing: each read that brings bytes gives it as long again, so a big
	// part that keeps flowing is never cut, a stalled one is.
	defaultBodyIdleTimeout = time.Minute
)

// lifecycle holds the listeners' servers and their connections, so that
// Close never waits on a connection that will not finish by itself.
type lifecycle struct {
	servers []*http.Server
	// closed is closed by Close; requests' contexts (through BaseContext)
	// and fault delays end with it.
	closed    chan struct{}
	baseCtx   context.Context
	cancel    context.CancelFunc
	closeOnce sync.Once

	mu      sync.Mutex
	closing bool
	conns   map[net.Conn]connInfo
	clients clientCount // guarded by mu but for its count
	// now is time.Now (tests freeze it).
	now func() time.Time

	// inflight counts the handlers running, so that Close returns only
	// once none touches the state.
	inflight sync.WaitGroup
}

// setBodyDeadline gives a request body bodyIdle more to send its next
// bytes (bodyIdle 0: no deadline, once the body is read), unless the server
// is closing (Close has cut reads short). It reports whether the
// connection takes deadlines (in-process requests have no connection).
func (l *lifecycle) setBodyDeadline(rc *http.ResponseController, bodyIdle time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return false
	}
	var at time.Time
	if bodyIdle > 0 {
		at = time.Now().Add(bodyIdle)
	}
	return rc.SetReadDeadline(at) == nil
}

func (l *lifecycle) init() {
	l.closed = make(chan struct{})
	l.baseCtx, l.cancel = context.WithCancel(context.Background())
	l.conns = make(map[net.Conn]connInfo)
	l.now = time.Now
}

// connInfo is what the server keeps of a connection: its state, and the
// window in which it was last counted as a client (clientCount).
type connInfo struct {
	state  http.ConnState
	window int64
}

// clientWindow is the span in which the connections that start a request
// are counted as the clients of the moment (clientCount).
const clientWindow = 5 * time.Millisecond

// clientCount counts the clients sending requests: the connections that
// started one in the current window of clientWindow, or in the window
// before it when that one counted more (a steady load does not fall to
// nothing each time a window starts). A persisted server's commits wait
// longer for many clients (persist.DB.Clients). One keep-alive connection
// is one client; a client with requests to the API, upload and content
// hosts at once counts once per host.
type clientCount struct {
	// Written under lifecycle.mu; count reads window and n without it.
	window  atomic.Int64 // the current window: Unix time in clientWindows
	current int          // the connections counted in it
	before  int          // in the window before it
	n       atomic.Int64 // max(current, before)
}

// started counts a connection that starts a request at now, unless it was
// counted in now's window already (last: the window it was last counted
// in), and returns the window it is now counted in. It runs
// under lifecycle.mu, which its callers take.
func (c *clientCount) started(last int64, now time.Time) int64 {
	w := now.UnixNano() / int64(clientWindow)
	if prev := c.window.Load(); w != prev {
		c.before = 0
		if w == prev+1 {
			c.before = c.current
		}
		c.current = 0
		c.window.Store(w)
	}
	if last != w {
		c.current++
	}
	c.n.Store(int64(max(c.current, c.before)))
	return w
}

// count is the number of clients at now: none when no request started in
// now's window or the one before it.
func (c *clientCount) count(now time.Time) int {
	if c.window.Load() < now.UnixNano()/int64(clientWindow)-1 {
		return 0
	}
	return int(c.n.Load())
}

// clientsNow is the number of clients sending requests now (clientCount).
func (l *lifecycle) clientsNow() int { return l.clients.count(l.now()) }

// connState tracks connections. Once closing, a connection that has not
// sent a request is closed, and one that starts a request gets a read
// deadline in the past, so a handler blocked reading a body returns.
func (l *lifecycle) connState(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
		return
	}
	info := l.conns[c]
	info.state = st
	if st == http.StateActive {
		info.window = l.clients.started(info.window, l.now())
	}
	l.conns[c] = info
	if l.closing {
		stopConn(c, st)
	}
}

// stopConn ends a connection's part in the shutdown: never-used ones are
// closed (http.Server.Shutdown would wait 5 s for them), active ones can no
// longer read (their requests are cancelled), idle ones are left to
// Shutdown, which closes them.
func stopConn(c net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		_ = c.Close()
	case http.StateActive:
		_ = c.SetReadDeadline(time.Unix(1, 0))
	}
}

// Start binds the three listeners and serves until Close.
func Start(opts Options) (*Server, error) {
	s, err := newServer(opts)
	if err != nil {
		return nil, err
	}
	addrs := []string{opts.Addr, opts.UploadAddr, opts.DownloadAddr}
	var lns []net.Listener
	for _, a := range addrs {
		if a == "" {
			a = "127.0.0.1:0"
		}
		ln, err := net.Listen("tcp", a)
		if err != nil {
			for _, l := range lns {
				_ = l.Close()
			}
			s.indexers.stop(s)
			_ = s.closeState()
			return nil, fmt.Errorf("refserver: listen %s: %w", a, err)
		}
		lns = append(lns, ln)
	}
	apiHost := advertised(lns[0].Addr().(*net.TCPAddr), "")
	uploadHost := advertised(lns[1].Addr().(*net.TCPAddr), "")
	dlHost := advertised(lns[2].Addr().(*net.TCPAddr), otherLoopbackName(apiHost))
	s.setURLs(apiHost, uploadHost, dlHost)
	for i, role := range []string{state.RoleAPI, state.RoleUpload, state.RoleContent} {
		srv := &http.Server{
			Handler:           s.roleHandler(role),
			ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
			IdleTimeout:       s.opts.IdleTimeout,
			ErrorLog:          slog.NewLogLogger(s.st.Log.Handler(), slog.LevelDebug),
			BaseContext:       func(net.Listener) context.Context { return s.life.baseCtx },
			ConnState:         s.life.connState,
		}
		s.life.servers = append(s.life.servers, srv)
		go func(ln net.Listener) { _ = srv.Serve(ln) }(lns[i])
	}
	return s, nil
}

// Close stops the server and returns promptly. It cancels the requests in
// flight (their contexts end, fault delays stop, body reads fail), closes
// connections that never sent a request and idle ones, lets the cancelled
// handlers return for at most Options.CloseGrace (2 s by default), then
// closes the connections still open (a client that stopped reading a
// download, say): ending them is what a stop does, not an error. It stops
// the listeners, stops the upload sessions' whole-file hash workers and
// the search indexer's goroutine and waits for them, and, with
// Options.DataDir, closes the state database (every answered change is
// in it already) once no handler runs. Safe to
// call more than once; the later calls return nil at once.
func (s *Server) Close() error {
	var errs []error
	s.life.closeOnce.Do(func() {
		close(s.life.closed)
		s.life.cancel()
		s.life.mu.Lock()
		s.life.closing = true
		for c, info := range s.life.conns {
			stopConn(c, info.state)
		}
		s.life.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), s.opts.CloseGrace)
		defer cancel()
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, srv := range s.life.servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := srv.Shutdown(ctx)
				if errors.Is(err, context.DeadlineExceeded) {
					// The grace is over: close what is still open. The
					// handlers blocked on those connections then return.
					s.st.Log.LogAttrs(context.Background(), slog.LevelDebug, "closing connections still open after the grace period")
					err = srv.Close()
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("refserver: shutdown: %w", err))
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		s.life.inflight.Wait()
		s.hooks.close()
		s.hookWG.Wait() // attempts in flight end with s.life.closed
		s.closeThumbs()
		s.st.StopHashing() // the upload sessions' hash workers read the store
		s.indexers.stop(s)
		errs = append(errs, s.closeState())
	})
	return errors.Join(errs...)
}

// advertised is the host:port clients use for a listener. A loopback or
// unspecified listener on 127.0.0.1 is advertised as name when name is set.
func advertised(a *net.TCPAddr, name string) string {
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	if name != "" && (a.IP.IsLoopback() || a.IP.IsUnspecified()) {
		host = name
	}
	return net.JoinHostPort(host, fmt.Sprint(a.Port))
}

// otherLoopbackName picks the content host's name: a loopback name different
// from the API's, so that clients see a cross-host redirect.
func otherLoopbackName(apiHostPort string) string {
	h, _, _ := net.SplitHostPort(apiHostPort)
	switch h {
	case "127.0.0.1":
		return "localhost"
	case "localhost":
		return "127.0.0.1"
	default:
		return ""
	}
}
