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
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/blob"
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

// persister is the open state database and the records waiting for it.
type persister struct {
	db *bolt.DB

	// flushMu serializes flushes from the moment they take the marks to
	// the end of their transaction, so that a request whose marks another
	// flush took waits for that flush to be committed.
	flushMu sync.Mutex

	schemaPending bool // the first flush writes the schema version (guarded by flushMu)

	mu    sync.Mutex // guards the fields below
	dirty map[dirtyKey]struct{}
	blobs []string // blobs to delete once the state without them is committed

	// Group commit (awaitState): every mark (and queued blob delete)
	// takes the next number of marked; committed is the highest number a
	// commit has covered. A request waits until committed reaches the
	// marked it saw, and at most one waiter at a time (flushing) commits
	// for every request waiting, so concurrent requests share one bbolt
	// transaction. committedCond (on mu) is signalled when committed moves
	// or a flush ends.
	marked, committed uint64
	flushing          bool
	committedCond     *sync.Cond

	// check makes every request compare the database with the live state
	// once its changes are committed (tests: a state change without its
	// mark fails); checkErrs collects the differences.
	check     bool
	checkErrs []error
	// beforeCommit, when set (tests), is called by every flush that has
	// records to write, before its transaction.
	beforeCommit func()

	load loadScratch // used while loading only
}

// loadScratch is what loading keeps between kinds.
type loadScratch struct {
	templateOrder []string         // template ids in listing order (kMetadata)
	purged        map[string]*item // purged files that governance records keep, by id
}

// dirtyKey names one record: its kind and its key.
type dirtyKey struct {
	kind kindID
	key  string
}

// dirty marks the record (kind, key) as changed: the end of the request
// writes it, or deletes it when the object is gone. Callers hold the lock
// that guards the object (s.mu, or s.oauth.mu for the oauth kinds).
func (s *state) dirty(kind kindID, key string) {
	if s.persist != nil { // inlined: without DataDir a mark is this check
		s.persist.mark(kind, key)
	}
}

// dropWhere deletes the records of m that match, marking each one
// (s.dirty(kind, key)). Callers hold the lock that guards m.
func dropWhere[V any](s *state, kind kindID, m map[string]V, match func(V) bool) {
	for k, v := range m {
		if match(v) {
			delete(m, k)
			s.dirty(kind, k)
		}
	}
}

func (p *persister) mark(kind kindID, key string) {
	p.mu.Lock()
	p.dirty[dirtyKey{kind, key}] = struct{}{}
	p.marked++
	p.mu.Unlock()
}

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
	s.persist = &persister{db: db, dirty: map[dirtyKey]struct{}{}, load: loadScratch{purged: map[string]*item{}}}
	s.persist.committedCond = sync.NewCond(&s.persist.mu)
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
			s.persist.schemaPending = true
			s.markAll()
		} else {
			s.dirty(kMeta, metaKey) // the tokens Options gave
		}
		err = s.flushState()
	}
	if err == nil && !fresh {
		err = s.sweepBlobs(dir)
	}
	if err != nil {
		_ = db.Close()
		s.persist = nil
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
	s.persist.dirty = map[dirtyKey]struct{}{} // what loading marked is stored already
	return s.initPrincipalTokens()
}

// markAll marks every record of the live state.
func (s *Server) markAll() {
	s.oauth.Lock()
	s.mu.Lock()
	for i, k := range recordKinds {
		for _, key := range k.keys(s) {
			s.dirty(kindID(i), key)
		}
	}
	s.mu.Unlock()
	s.oauth.Unlock()
}

// change is one record to write (val != nil) or delete.
type change struct {
	kind kindID
	key  string
	val  []byte
}

// flushState writes the marked records in one transaction, then deletes
// the blobs that the committed state no longer names. It returns once
// every mark made before the call is committed (by this flush or by one
// that took the mark earlier). Callers hold neither s.mu nor s.oauth.mu.
func (s *Server) flushState() error {
	p := s.persist
	if p == nil {
		return nil
	}
	p.flushMu.Lock()
	defer p.flushMu.Unlock()
	p.mu.Lock()
	idle := len(p.dirty) == 0 && len(p.blobs) == 0
	if idle {
		// No flush is under way and a failed one puts its marks back:
		// every mark so far is committed.
		p.setCommitted(p.marked)
	}
	p.mu.Unlock()
	if idle {
		return nil
	}
	s.oauth.Lock()
	s.mu.Lock()
	p.mu.Lock()
	dirty, blobs, taken := p.dirty, p.blobs, p.marked
	p.dirty, p.blobs = map[dirtyKey]struct{}{}, nil
	p.mu.Unlock()
	changes := make([]change, 0, len(dirty))
	for dk := range dirty {
		v, _ := recordKinds[dk.kind].encode(s, dk.key)
		changes = append(changes, change{dk.kind, dk.key, v})
	}
	s.mu.Unlock()
	s.oauth.Unlock()

	// Keys in order: bbolt writes sorted keys with fewer page splits.
	sort.Slice(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		return a.kind < b.kind || a.kind == b.kind && a.key < b.key
	})
	// The content these records name goes to disk first (a durable
	// directory store noted it as it was written).
	var err error
	if ds, ok := s.store.(*blob.Dir); ok {
		err = ds.SyncPending()
	}
	if err == nil && p.beforeCommit != nil {
		p.beforeCommit()
	}
	if err == nil {
		err = p.db.Update(func(tx *bolt.Tx) error {
			if p.schemaPending {
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
		p.schemaPending = false
	}
	if err != nil {
		p.mu.Lock()
		for dk := range dirty {
			p.dirty[dk] = struct{}{}
		}
		p.blobs = append(p.blobs, blobs...)
		p.mu.Unlock()
		return fmt.Errorf("refserver: saving the state: %w", err)
	}
	p.mu.Lock()
	p.setCommitted(taken)
	p.mu.Unlock()
	for _, id := range blobs {
		if err := s.store.Delete(context.Background(), id); err != nil {
			s.log.Warn("deleting blob", "blob", id, "err", err)
		}
	}
	return nil
}

func writeChanges(tx *bolt.Tx, changes []change) error {
	var b *bolt.Bucket
	last := kindID(255)
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

// queueBlobDeletes defers the deletion of blobs to the next commit: a blob
// deleted before the state that stops naming it is committed would be
// missing after a crash. It reports false when the state is not persisted.
func (s *state) queueBlobDeletes(ids []string) bool {
	p := s.persist
	if p == nil {
		return false
	}
	p.mu.Lock()
	p.blobs = append(p.blobs, ids...)
	p.marked++
	p.mu.Unlock()
	return true
}

// closeState writes what is still marked and closes the database.
func (s *Server) closeState() error {
	if s.persist == nil {
		return nil
	}
	err := s.flushState()
	return errors.Join(err, s.persist.db.Close())
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
			s.log.Error("saving the state", "path", r.URL.Path, "err", err)
			writeError(w, wire.Errorf(http.StatusInternalServerError, wire.CodeInternalServerError, "Internal Server Error: the state could not be saved"))
			return
		}
		if s.persist.check {
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

// sweepBlobs deletes, from the directory store of dir, the blob files that
// no record names and the temporary files of interrupted writes: what a
// crash between a blob write and its commit (or between a commit and a
// blob delete) leaves behind. Other stores are left alone.
func (s *state) sweepBlobs(dir string) error {
	ds, ok := s.store.(*blob.Dir)
	if !ok || filepath.Clean(ds.Path()) != filepath.Clean(dir) {
		return nil
	}
	keep, keepAssembly := s.referencedBlobs(), s.referencedAssemblies()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("refserver: sweeping %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		id, isBlob := cutSuffix(name, ".blob")
		tmp := len(name) > 4 && name[:4] == "put-" && filepath.Ext(name) == ".tmp"
		if asm, isAsm := blob.AssemblyID(name); isAsm { // the content of an upload session
			tmp = !keepAssembly[asm]
		}
		if e.IsDir() || !tmp && (!isBlob || keep[id]) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("refserver: sweeping %s: %w", dir, err)
		}
	}
	return nil
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) > len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return "", false
}

// referencedBlobs is every blob the state names: file versions (of live
// files and of files that records of purged ones keep) and session parts.
func (s *state) referencedBlobs() map[string]bool {
	keep := map[string]bool{}
	addItem := func(it *item) {
		for _, v := range it.versions {
			keep[v.blob.ID] = true
		}
	}
	for _, it := range s.items {
		addItem(it)
	}
	for _, fvr := range s.retention.fvrs {
		addItem(fvr.file)
	}
	for _, h := range s.holds.holds {
		addItem(h.file)
	}
	for _, ss := range s.sessions {
		if ss.final != nil {
			keep[ss.final.ID] = true
		}
		if pa, ok := ss.asm.(*blob.Parts); ok {
			for _, id := range pa.Blobs() {
				keep[id] = true
			}
		}
	}
	return keep
}

// referencedAssemblies is every assembly id the open sessions name.
func (s *state) referencedAssemblies() map[string]bool {
	keep := map[string]bool{}
	for _, ss := range s.sessions {
		if id := ss.asm.ID(); id != "" {
			keep[id] = true
		}
	}
	return keep
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
	p := s.persist
	p.flushMu.Lock() // no flush between taking its marks and its commit
	defer p.flushMu.Unlock()
	s.oauth.Lock()
	defer s.oauth.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	p.mu.Lock()
	pending := len(p.dirty) > 0
	p.mu.Unlock()
	if pending {
		return
	}
	live := s.dumpLive()
	var stored map[string]map[string]string
	_ = p.db.View(func(tx *bolt.Tx) error { stored = dumpDB(tx); return nil })
	if errs := diffDumps(stored, live); len(errs) > 0 {
		p.mu.Lock()
		p.checkErrs = append(p.checkErrs, errs...)
		p.mu.Unlock()
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

// persistItemPurged marks the governance records of a purged file: from
// now on they keep a copy of it (encodeFileRef).
func (s *state) persistItemPurged(it *item) {
	if s.persist == nil {
		return
	}
	for _, v := range it.versions {
		if fvr, ok := s.retention.byVersion[v.id]; ok {
			s.dirty(kRetVersions, fvr.id)
		}
		if h, ok := s.holds.byVersion[v.id]; ok {
			s.dirty(kHoldVersions, h.id)
		}
	}
}

// dirtyItem marks the records of items (nil ones are skipped: the root).
func (s *state) dirtyItem(its ...*item) {
	if s.persist == nil {
		return
	}
	for _, it := range its {
		if it != nil {
			s.dirty(kItems, it.id)
		}
	}
}
