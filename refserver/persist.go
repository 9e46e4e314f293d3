package refserver

// Persistence of the whole state (Options.DataDir) lives in
// internal/persist: the records of every kind, the bbolt database, the
// group commit. This file wires it to the server: the kinds (with the
// oauth room's, persist_records.go) and persistHandler, which holds every
// answer until the state it reports is committed.

import (
	"bytes"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// StateFileName is the name of the state database in Options.DataDir
// (internal/persist's, TestStateFileName).
const StateFileName = "state.db"

// ErrStateSchema is returned (wrapped) by New and Start when the state
// database in Options.DataDir was written by a server with another record
// layout. Move the directory away or use the server version that wrote it.
var ErrStateSchema = persist.ErrStateSchema

// openState opens (or creates) the state database of dir and loads it into
// s, or writes s's fresh state into a new one.
func (s *Server) openState(dir string) error {
	db, restored, err := persist.Open(dir, persist.Config{
		State:  s.st,
		Kinds:  s.recordKinds(),
		Outer:  oauthLock{s},
		Reset:  s.clearState,
		Loaded: persist.InitPrincipalTokens,
	})
	if err != nil {
		return err
	}
	db.Clients = s.life.clientsNow
	s.db, s.restored = db, restored
	return nil
}

// oauthLock locks the server's oauth room, whichever it is (a restore
// makes a new one).
type oauthLock struct{ s *Server }

func (l oauthLock) Lock()   { l.s.oauth.Lock() }
func (l oauthLock) Unlock() { l.s.oauth.Unlock() }

// flushState writes what is marked (persist.DB.Flush); nothing without
// DataDir.
func (s *Server) flushState() error {
	if s.db == nil {
		return nil
	}
	return s.db.Flush()
}

// closeState writes what is still marked and closes the database.
func (s *Server) closeState() error {
	if s.db == nil {
		return nil
	}
	return s.db.Close()
}

// persistHandler makes next's answers wait for the state: the answer is
// buffered, every record marked so far (by this request or another one
// whose changes it may have seen) is committed, and only then is the
// answer sent. Concurrent requests share their commits (awaitState). When
// the commit fails the client gets 500 instead, so no answer ever tells of
// a change that could be lost. Holding costs no copy of a JSON answer
// (writePooled hands its bytes over) nor of the headers.
func (s *Server) persistHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The answer's headers go straight into w's (they are sent only
		// by bw.send); a failed commit clears them.
		bw := &bufferedWriter{header: w.Header()}
		s.db.Enter()
		next.ServeHTTP(bw, r)
		s.db.Leave()
		var err error
		if bw.read {
			err = s.db.AwaitMark(bw.readMark)
		} else {
			err = s.db.Await()
		}
		if err != nil {
			s.st.Log.Error("saving the state", "path", r.URL.Path, "err", err)
			h := w.Header()
			id := h.Get(wire.HeaderRequestID)
			clear(h) // nothing of the held answer (its ETag, Location...) goes with the 500
			h.Set(wire.HeaderRequestID, id)
			writeError(w, wire.Errorf(http.StatusInternalServerError, wire.CodeInternalServerError, "Internal Server Error: the state could not be saved"))
			return
		}
		bw.send(w)
	})
}

// bufferedWriter holds an answer until the state is committed. Its header
// is the map of the response it is sent to. An answer written whole by
// writePooled is kept as the slice it was encoded into (taken); anything
// else is copied into body.
type bufferedWriter struct {
	header http.Header
	status int
	taken  []byte  // the body, when writePooled gave it (nothing was written before)
	pooled *[]byte // the pooled buffer taken was encoded into, given back once it is sent
	body   bytes.Buffer
	// read: the request only read, and its answer waits for the marks up
	// to readMark only (answersRead); else for every mark made so far.
	read     bool
	readMark uint64
}

// answersRead tells a persisted server's held answer (persistHandler)
// that the request read what the marks up to mark cover and changed
// nothing its answer shows (state.ItemReadWait): it is sent once those are
// committed, whatever other requests changed meanwhile. Without
// persistence it does nothing.
func answersRead(w http.ResponseWriter, mark uint64) {
	if bw, ok := w.(*bufferedWriter); ok {
		bw.read, bw.readMark = true, mark
	}
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	if b.taken != nil {
		b.body.Write(b.taken) // a write after a taken body goes after it
		releaseReply(b.pooled, b.taken)
		b.taken, b.pooled = nil, nil
	}
	return b.body.Write(p)
}

// takeBody keeps p as the body (writePooled) and reports
// whether it did: the caller does not use it again, so a large listing
// page is not copied (nor its buffer grown) while it waits for the commit.
// Else it copies p.
func (b *bufferedWriter) takeBody(p []byte) bool {
	if b.taken != nil || b.body.Len() > 0 || p == nil {
		_, _ = b.Write(p)
		return false
	}
	b.WriteHeader(http.StatusOK)
	b.taken = p
	return true
}

// send writes the held answer to w, whose header map b.header is.
func (b *bufferedWriter) send(w http.ResponseWriter) {
	if b.status == 0 {
		return // the handler wrote nothing: net/http answers 200
	}
	w.WriteHeader(b.status)
	if b.taken != nil {
		_, _ = w.Write(b.taken)
		releaseReply(b.pooled, b.taken) // the buffer goes back for another reply
		b.taken, b.pooled = nil, nil
		return
	}
	_, _ = w.Write(b.body.Bytes())
}
