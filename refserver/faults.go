package refserver

import (
	"math/rand/v2"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Fault makes matching requests fail, for tests of retries and timeouts.
// Faults are matched before authentication, in the order injected; a
// matching request consumes one use atomically.
//
// A fault fires before the handler (the request has no effect), or with
// After after it: the handler applies the request (a part is stored, a
// commit creates the file) and its answer is dropped and replaced by Status
// or a connection reset, as when a response is lost on the way back.
//
// With Rate, a matching request fails with that probability, drawn from a
// generator seeded with Seed, so a sequence of requests meets the same
// schedule of faults on every run.
type Fault struct {
	// Method to match; "" matches any.
	Method string
	// Path is the route to match, below the role's root (e.g.
	// "/files/123/content"; on the content host the full path, e.g.
	// "/d/*"): exact, or with wildcard segments written "*" or as a route
	// pattern's "{name}", e.g. "/files/{file_id}/content" or
	// "/files/upload_sessions/*". "" matches any.
	Path string
	// Role restricts the fault to one listener: "api", "upload" or
	// "content"; "" matches all three.
	Role string
	// Count is how many matching requests to fail. Values below 1 mean 1,
	// except with Rate, where 0 means no limit.
	Count int
	// Rate, in (0, 1], is the probability that a matching request fails;
	// 0 means always.
	Rate float64
	// Seed seeds the generator that draws Rate (two faults with the same
	// seed draw the same sequence).
	Seed uint64
	// Status to answer with, with the standard error body for that status
	// (e.g. 429 rate_limit_exceeded, 503 unavailable). 0 with Delay only
	// delays the request, which is then handled normally.
	Status int
	// RetryAfter, if positive, is sent as Retry-After (integer seconds,
	// rounded up).
	RetryAfter time.Duration
	// Reset hijacks and closes the connection instead of answering. On the
	// in-process Handler (no hijacking) the handler panics with
	// http.ErrAbortHandler; Server.Transport turns that into
	// ErrInjectedReset.
	Reset bool
	// After runs the handler first: the request takes effect, its answer is
	// discarded, and Status or Reset is what the client sees (500 when
	// neither is set).
	After bool
	// Delay sleeps (real time, cancelled with the request or by Close)
	// before handling.
	Delay time.Duration
}

// fault is an injected Fault with its remaining uses and its generator.
type fault struct {
	Fault
	left int // remaining uses; -1 = no limit
	rng  *rand.Rand
}

// Inject adds a fault.
func (s *Server) Inject(f Fault) {
	ft := &fault{Fault: f, left: f.Count}
	if f.Count < 1 {
		ft.left = 1
		if f.Rate > 0 {
			ft.left = -1
		}
	}
	if f.Rate > 0 {
		ft.rng = rand.New(rand.NewPCG(f.Seed, f.Seed^0x9e3779b97f4a7c15))
	}
	s.faultsMu.Lock()
	s.faults = append(s.faults, ft)
	s.faultsMu.Unlock()
}

// ClearFaults removes all faults.
func (s *Server) ClearFaults() {
	s.faultsMu.Lock()
	s.faults = nil
	s.faultsMu.Unlock()
}

// takeFault consumes one use of the first fault that matches the request
// and, for a Rate fault, draws a failure.
func (s *Server) takeFault(role, method, p string) (Fault, bool) {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()
	for i, f := range s.faults {
		if f.Role != "" && f.Role != role ||
			f.Method != "" && !strings.EqualFold(f.Method, method) ||
			!matchPath(f.Path, p) {
			continue
		}
		if f.rng != nil && f.rng.Float64() >= f.Rate {
			continue
		}
		if f.left > 0 {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return f.Fault, true
	}
	return Fault{}, false
}

// matchPath matches a fault path pattern segment by segment; "*" and
// "{name}" match one segment, "" matches any path.
func matchPath(pattern, p string) bool {
	if pattern == "" {
		return true
	}
	segs := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path.Clean(p), "/"), "/")
	if len(segs) != len(xs) {
		return false
	}
	for i, sg := range segs {
		wild := sg == "*" || strings.HasPrefix(sg, "{") && strings.HasSuffix(sg, "}")
		if !wild && sg != xs[i] {
			return false
		}
	}
	return true
}

// serveWithFaults serves r with next unless a fault intervenes, noting in w
// what the fault did for the request log.
func (s *Server) serveWithFaults(w *statusWriter, r *http.Request, role string, next http.Handler) {
	p, ok := belowRoot(role, r.URL.Path)
	if !ok {
		next.ServeHTTP(w, r)
		return
	}
	f, ok := s.takeFault(role, r.Method, p)
	if !ok {
		next.ServeHTTP(w, r)
		return
	}
	w.injected = true
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
		case <-s.life.closed:
		}
		if t.Stop() {
			// Cancelled (client gone, or Close): answer nothing, and do not
			// read the body, which the client may never send.
			_ = http.NewResponseController(w).SetReadDeadline(time.Unix(1, 0))
			return
		}
	}
	if f.After {
		// Apply the request, keep its answer from the client.
		lost := &lostWriter{h: make(http.Header)}
		next.ServeHTTP(lost, r)
		w.handlerStatus = lost.code()
	} else if !f.Reset && f.Status == 0 {
		next.ServeHTTP(w, r)
		return
	}
	switch {
	case f.Reset:
		w.logOutcome() // before the client can see the reset
		resetConn(w)
	case f.Status != 0:
		drain(r.Body)
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(ceilSeconds(f.RetryAfter)))
		}
		if f.Status < 400 {
			w.WriteHeader(f.Status)
			return
		}
		writeError(w, wire.Errorf(f.Status, codeForStatus(f.Status), "Injected fault: %s", http.StatusText(f.Status)))
	default:
		// After with neither Status nor Reset: the answer is lost and the
		// client gets an empty 500, which is all a lost answer can become.
		writeError(w, wire.Errorf(http.StatusInternalServerError, codeForStatus(http.StatusInternalServerError), "Injected fault: answer lost"))
	}
}

// ceilSeconds is d in whole seconds, rounded up, at least 1.
func ceilSeconds(d time.Duration) int {
	secs := int((d + time.Second - 1) / time.Second)
	return max(secs, 1)
}

// lostWriter takes a handler's answer that will never reach the client.
type lostWriter struct {
	h      http.Header
	status int
}

func (l *lostWriter) Header() http.Header { return l.h }

func (l *lostWriter) WriteHeader(code int) {
	if l.status == 0 {
		l.status = code
	}
}

func (l *lostWriter) Write(b []byte) (int, error) {
	l.WriteHeader(http.StatusOK)
	return len(b), nil
}

func (l *lostWriter) code() int {
	if l.status == 0 {
		return http.StatusOK
	}
	return l.status
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
