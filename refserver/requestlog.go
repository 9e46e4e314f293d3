package refserver

// DefaultRequestLogSize is how many requests the request log keeps when
// Options.RequestLogSize is 0: the newest ones, for wire assertions in tests
// (Requests). Older records are dropped, so a long-running server's log
// takes bounded memory (about 1.4 KB a request).
const DefaultRequestLogSize = 10_000

// requestLog is a ring of the newest request records. Guarded by
// Server.reqMu.
type requestLog struct {
	size    int // capacity; 0: nothing is kept
	buf     []*RequestRecord
	start   int // index of the oldest record in buf
	n       int // records held
	dropped uint64
}

func newRequestLog(size int) requestLog {
	switch {
	case size == 0:
		size = DefaultRequestLogSize
	case size < 0:
		size = 0
	}
	return requestLog{size: size}
}

// add appends rec, dropping the oldest record when the ring is full.
func (l *requestLog) add(rec *RequestRecord) {
	if l.size == 0 {
		l.dropped++
		return
	}
	if l.n < l.size {
		if len(l.buf) < l.size {
			l.buf = append(l.buf, rec) // grows up to size, as requests come
		} else {
			l.buf[(l.start+l.n)%l.size] = rec
		}
		l.n++
		return
	}
	l.buf[l.start] = rec
	l.start = (l.start + 1) % l.size
	l.dropped++
}

// records returns copies of the records held, oldest first.
func (l *requestLog) records() []RequestRecord {
	out := make([]RequestRecord, l.n)
	for i := range l.n {
		out[i] = *l.buf[(l.start+i)%len(l.buf)]
	}
	return out
}

// reset empties the ring (its capacity stays).
func (l *requestLog) reset() {
	clear(l.buf)
	l.buf, l.start, l.n = l.buf[:0], 0, 0
}

// RequestsDropped returns how many requests the request log has dropped
// since the server started, the oldest first, to stay within
// Options.RequestLogSize.
func (s *Server) RequestsDropped() uint64 {
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	return s.requests.dropped
}
