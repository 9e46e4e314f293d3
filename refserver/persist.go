package refserver

// Persistence of the whole state (Options.DataDir): every object of the
// state is one record in an embedded bbolt database, DIR/state.db, beside
// the content blobs of the directory store. A record names the objects it
// points to by id (a task its file and users, an assignment its policy),
// so a restore rebuilds the pointers; derived indexes (name and login maps,
// creation orders, metadata sort trees) are not stored but rebuilt.
//
// Writes are incremental: the state operations mark the records they
// change (Server.dirty, under the lock that guards the object), and the end
// of every request waits until the records marked so far are written in a
// bbolt transaction before the answer goes out (persistHandler,
// awaitState); concurrent requests share that transaction (group commit,
// persist_group.go), and the content the records name is fsynced first
// (blob.Dir.syncPending). So nothing a client was told is lost when the
// process dies, and a request costs the records it changed, not the size
// of the state. Without DataDir, Server.persist is nil and every mark is a
// nil check.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

const (
	// StateFileName is the name of the state database in Options.DataDir.
	StateFileName = "state.db"
	// stateSchema is the version of the record layout; a database written
	// with another version is refused (ErrStateSchema).
	stateSchema = 1

	schemaBucket = "schema"
	schemaKey    = "version"
)

// ErrStateSchema is returned (wrapped) by New and Start when the state
// database in Options.DataDir was written by a server with another record
// layout. Move the directory away or use the server version that wrote it.
var ErrStateSchema = errors.New("refserver: incompatible state schema")

// openState opens (or creates) the state database of opts.DataDir and
// loads it into s, or writes s's fresh state into a new one.
func (s *Server) openState(dir string) error {
	// The freelist is not written with every commit (fewer pages per
	// commit); opening rebuilds it from the pages.
	db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, &bolt.Options{
		Timeout: 500 * time.Millisecond, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return fmt.Errorf("refserver: opening the state in %s: %w", dir, err)
	}
	s.st.Persist = &state.Persister{Db: db, Dirty: map[state.DirtyKey]struct{}{}, Load: state.LoadScratch{Purged: map[string]*state.Item{}}}
	s.st.Persist.CommittedCond = sync.NewCond(&s.st.Persist.Mu)
	fresh := true
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(schemaBucket))
		if b == nil {
			return nil
		}
		fresh = false
		v := string(b.Get([]byte(schemaKey)))
		if v != strconv.Itoa(stateSchema) {
			return fmt.Errorf("%w: %s has schema %q, this server reads %d", ErrStateSchema, filepath.Join(dir, StateFileName), v, stateSchema)
		}
		return s.loadState(tx)
	})
	if err == nil {
		s.restored = !fresh
		if fresh {
			// The fresh state is written whole, with the schema version in
			// the same transaction: a directory has both or neither.
			s.st.Persist.SchemaPending = true
			s.markAll()
		} else {
			s.st.Dirty(state.KMeta, state.MetaKey) // the tokens Options gave
		}
		err = s.flushState()
	}
	if err == nil && !fresh {
		err = persist.SweepBlobs(s.st, dir)
	}
	if err != nil {
		_ = db.Close()
		s.st.Persist = nil
		return err
	}
	return nil
}

// loadState replaces s's fresh state with the records of tx, kind by kind
// in dependency order, then rebuilds the principals.
func (s *Server) loadState(tx *bolt.Tx) error {
	s.clearState()
	for i, k := range recordKinds {
		if b := tx.Bucket([]byte(k.bucket)); b != nil { // no bucket: no record of the kind yet
			err := b.ForEach(func(key, v []byte) error {
				if err := k.load(s, string(key), v); err != nil {
					return fmt.Errorf("refserver: state record %s/%s: %w", k.bucket, key, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		if k.done != nil { // even without records: orders of earlier kinds are rebuilt here
			if err := k.done(s); err != nil {
				return fmt.Errorf("refserver: state records %s: %w", recordKinds[i].bucket, err)
			}
		}
	}
	s.st.Persist.Dirty = map[state.DirtyKey]struct{}{} // what loading marked is stored already
	return persist.InitPrincipalTokens(s.st)
}

// markAll marks every record of the live state.
func (s *Server) markAll() {
	s.oauth.Lock()
	s.st.Update(func() {
		for i, k := range recordKinds {
			for _, key := range k.keys(s) {
				s.st.Dirty(state.KindID(i), key)
			}
		}
	})
	s.oauth.Unlock()
}

// change is one record to write (val != nil) or delete.
type change struct {
	kind state.KindID
	key  string
	val  []byte
}

// flushState writes the marked records in one transaction, then deletes
// the blobs that the committed state no longer names. It returns once
// every mark made before the call is committed (by this flush or by one
// that took the mark earlier). Callers hold neither s.mu nor s.oauth.mu.
func (s *Server) flushState() error {
	p := s.st.Persist
	if p == nil {
		return nil
	}
	p.FlushMu.Lock()
	defer p.FlushMu.Unlock()
	p.Mu.Lock()
	idle := len(p.Dirty) == 0 && len(p.Blobs) == 0
	if idle {
		// No flush is under way and a failed one puts its marks back:
		// every mark so far is committed.
		p.SetCommitted(p.Marked)
	}
	p.Mu.Unlock()
	if idle {
		return nil
	}
	s.oauth.Lock()
	var (
		changes []change
		dirty   map[state.DirtyKey]struct{}
		blobs   []string
		taken   uint64
	)
	s.st.View(func() {
		p.Mu.Lock()
		dirty, blobs, taken = p.Dirty, p.Blobs, p.Marked
		p.Dirty, p.Blobs = map[state.DirtyKey]struct{}{}, nil
		p.Mu.Unlock()
		changes = make([]change, 0, len(dirty))
		for dk := range dirty {
			v, _ := recordKinds[dk.Kind].encode(s, dk.Key)
			changes = append(changes, change{dk.Kind, dk.Key, v})
		}
	})
	s.oauth.Unlock()

	// Keys in order: bbolt writes sorted keys with fewer page splits.
	sort.Slice(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		return a.kind < b.kind || a.kind == b.kind && a.key < b.key
	})
	// The content these records name goes to disk first (a durable
	// directory store noted it as it was written).
	var err error
	if ds, ok := s.st.Store.(*blob.Dir); ok {
		err = ds.SyncPending()
	}
	if err == nil && p.BeforeCommit != nil {
		p.BeforeCommit()
	}
	if err == nil {
		err = p.Db.Update(func(tx *bolt.Tx) error {
			if p.SchemaPending {
				b, err := tx.CreateBucketIfNotExists([]byte(schemaBucket))
				if err == nil {
					err = b.Put([]byte(schemaKey), []byte(strconv.Itoa(stateSchema)))
				}
				if err != nil {
					return err
				}
			}
			return writeChanges(tx, changes)
		})
	}
	if err == nil {
		p.SchemaPending = false
	}
	if err != nil {
		p.Mu.Lock()
		for dk := range dirty {
			p.Dirty[dk] = struct{}{}
		}
		p.Blobs = append(p.Blobs, blobs...)
		p.Mu.Unlock()
		return fmt.Errorf("refserver: saving the state: %w", err)
	}
	p.Mu.Lock()
	p.SetCommitted(taken)
	p.Mu.Unlock()
	for _, id := range blobs {
		if err := s.st.Store.Delete(context.Background(), id); err != nil {
			s.st.Log.Warn("deleting blob", "blob", id, "err", err)
		}
	}
	return nil
}

func writeChanges(tx *bolt.Tx, changes []change) error {
	var b *bolt.Bucket
	last := state.KindID(255)
	for _, c := range changes {
		if c.kind != last {
			var err error
			if b, err = tx.CreateBucketIfNotExists([]byte(recordKinds[c.kind].bucket)); err != nil {
				return err
			}
			last = c.kind
		}
		var err error
		if c.val == nil {
			err = b.Delete([]byte(c.key))
		} else {
			err = b.Put([]byte(c.key), c.val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// closeState writes what is still marked and closes the database.
func (s *Server) closeState() error {
	if s.st.Persist == nil {
		return nil
	}
	err := s.flushState()
	return errors.Join(err, s.st.Persist.Db.Close())
}

// persistHandler makes next's answers wait for the state: the answer is
// buffered, every record marked so far (by this request or another one
// whose changes it may have seen) is committed, and only then is the
// answer sent. Concurrent requests share their commits (awaitState). When
// the commit fails the client gets 500 instead, so no answer ever tells of
// a change that could be lost. Answers that changed nothing, when nothing
// else is pending, cost a buffer copy.
func (s *Server) persistHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := &bufferedWriter{header: w.Header().Clone()} // with the request id
		next.ServeHTTP(bw, r)
		if err := s.awaitState(); err != nil {
			s.st.Log.Error("saving the state", "path", r.URL.Path, "err", err)
			writeError(w, wire.Errorf(http.StatusInternalServerError, wire.CodeInternalServerError, "Internal Server Error: the state could not be saved"))
			return
		}
		if s.st.Persist.Check {
			s.checkPersisted()
		}
		bw.send(w)
	})
}

// bufferedWriter holds an answer until the state is committed.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}

// send writes the held answer to w.
func (b *bufferedWriter) send(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range b.header {
		h[k] = v
	}
	if b.status == 0 {
		return // the handler wrote nothing: net/http answers 200
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body.Bytes())
}

// dumpLive encodes every record of the live state: bucket → key → record.
func (s *Server) dumpLive() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, k := range recordKinds {
		m := map[string]string{}
		for _, key := range k.keys(s) {
			v, ok := k.encode(s, key)
			if !ok {
				m[key] = "<listed but not found>"
				continue
			}
			m[key] = string(v)
		}
		if len(m) > 0 {
			out[k.bucket] = m
		}
	}
	return out
}

// dumpDB reads every record of the database: bucket → key → record.
func dumpDB(tx *bolt.Tx) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, k := range recordKinds {
		b := tx.Bucket([]byte(k.bucket))
		if b == nil {
			continue
		}
		m := map[string]string{}
		_ = b.ForEach(func(key, v []byte) error { m[string(key)] = string(v); return nil })
		if len(m) > 0 {
			out[k.bucket] = m
		}
	}
	return out
}

// checkPersisted compares the database with the live state when no flush
// is under way and nothing is marked (a mark pending means a flush is due,
// not a difference) and records every difference in p.checkErrs.
func (s *Server) checkPersisted() {
	p := s.st.Persist
	p.FlushMu.Lock() // no flush between taking its marks and its commit
	defer p.FlushMu.Unlock()
	s.oauth.Lock()
	defer s.oauth.Unlock()
	var (
		pending bool
		live    map[string]map[string]string
	)
	s.st.View(func() {
		p.Mu.Lock()
		pending = len(p.Dirty) > 0
		p.Mu.Unlock()
		if !pending {
			live = s.dumpLive()
		}
	})
	if pending {
		return
	}
	var stored map[string]map[string]string
	_ = p.Db.View(func(tx *bolt.Tx) error { stored = dumpDB(tx); return nil })
	if errs := diffDumps(stored, live); len(errs) > 0 {
		p.Mu.Lock()
		p.CheckErrs = append(p.CheckErrs, errs...)
		p.Mu.Unlock()
	}
}

// diffDumps lists the differences between a stored and a live dump.
func diffDumps(stored, live map[string]map[string]string) []error {
	var errs []error
	buckets := map[string]bool{}
	for b := range stored {
		buckets[b] = true
	}
	for b := range live {
		buckets[b] = true
	}
	for _, b := range slices.Sorted(maps.Keys(buckets)) {
		keys := map[string]bool{}
		for k := range stored[b] {
			keys[k] = true
		}
		for k := range live[b] {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			sv, sok := stored[b][k]
			lv, lok := live[b][k]
			switch {
			case !sok:
				errs = append(errs, fmt.Errorf("%s/%s: live but not stored: %s", b, k, lv))
			case !lok:
				errs = append(errs, fmt.Errorf("%s/%s: stored but gone: %s", b, k, sv))
			case sv != lv:
				errs = append(errs, fmt.Errorf("%s/%s: stored %s, live %s", b, k, sv, lv))
			}
		}
	}
	return errs
}
