package refserver

import (
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// Fault makes matching requests fail, for tests of retries and timeouts.
// Faults are matched before authentication, in the order injected, and a
// matching request consumes one use atomically.
type Fault struct {
	// Method to match; "" matches any.
	Method string
	// Path to match against the path below the role's root (e.g.
	// "/files/123/content"; on the content host the full path, e.g. "/d/*"):
	// exact, or with "*" wildcard segments such as "/files/*/content" or
	// "/files/upload_sessions/*". "" matches any.
	Path string
	// Count is how many matching requests to fail (values below 1 mean 1).
	Count int
	// Status to answer with, with the standard error body for that status
	// (e.g. 429 rate_limit_exceeded, 503 unavailable). 0 with Delay only
	// delays the request, which is then handled normally.
	Status int
	// RetryAfter, if positive, is sent as Retry-After (integer seconds,
	// rounded up).
	RetryAfter time.Duration
	// Reset hijacks and closes the connection instead of answering. On the
	// in-process Handler (no hijacking) the handler panics with
	// http.ErrAbortHandler, which an in-process RoundTripper should turn
	// into a transport error.
	Reset bool
	// Delay sleeps (real time, cancelled with the request) before handling.
	Delay time.Duration
}

// Inject adds a fault.
func (s *Server) Inject(f Fault) {
	if f.Count < 1 {
		f.Count = 1
	}
	s.faultsMu.Lock()
	s.faults = append(s.faults, &f)
	s.faultsMu.Unlock()
}

// ClearFaults removes all faults.
func (s *Server) ClearFaults() {
	s.faultsMu.Lock()
	s.faults = nil
	s.faultsMu.Unlock()
}

// takeFault consumes one use of the first fault matching the request.
func (s *Server) takeFault(method, p string) (Fault, bool) {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()
	for i, f := range s.faults {
		if (f.Method == "" || strings.EqualFold(f.Method, method)) && matchPath(f.Path, p) {
			f.Count--
			out := *f
			if f.Count <= 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
			return out, true
		}
	}
	return Fault{}, false
}

// matchPath matches a fault path pattern segment by segment; "*" matches
// one segment.
func matchPath(pattern, p string) bool {
	if pattern == "" {
		return true
	}
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path.Clean(p), "/"), "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if ps[i] != "*" && ps[i] != xs[i] {
			return false
		}
	}
	return true
}

// applyFault applies a matching fault and reports whether the request has
// been answered.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, role string) bool {
	p, ok := belowRoot(role, r.URL.Path)
	if !ok {
		return false
	}
	f, ok := s.takeFault(r.Method, p)
	if !ok {
		return false
	}
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true
		}
	}
	switch {
	case f.Reset:
		resetConn(w)
		return true
	case f.Status != 0:
		drain(r.Body)
		if f.RetryAfter > 0 {
			secs := int((f.RetryAfter + time.Second - 1) / time.Second)
			w.Header().Set("Retry-After", strconv.Itoa(secs))
		}
		if f.Status < 400 {
			w.WriteHeader(f.Status)
			return true
		}
		writeError(w, errf(f.Status, codeForStatus(f.Status), "Injected fault: %s", http.StatusText(f.Status)))
		return true
	}
	return false
}

// resetConn closes the connection abruptly (RST where possible).
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
