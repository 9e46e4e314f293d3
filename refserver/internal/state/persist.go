package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// Persister is the open state database and the records waiting for it.
type Persister struct {
	Db *bolt.DB

	// flushMu serializes flushes from the moment they take the marks to
	// the end of their transaction, so that a request whose marks another
	// flush took waits for that flush to be committed.
	FlushMu sync.Mutex

	SchemaPending bool // the first flush writes the schema version (guarded by flushMu)

	Mu    sync.Mutex // guards the fields below
	Dirty map[DirtyKey]struct{}
	Blobs []string // blobs to delete once the state without them is committed

	// Group commit (awaitState): every mark (and queued blob delete)
	// takes the next number of marked; committed is the highest number a
	// commit has covered. A request waits until committed reaches the
	// marked it saw, and at most one waiter at a time (flushing) commits
	// for every request waiting, so concurrent requests share one bbolt
	// transaction. committedCond (on mu) is signalled when committed moves
	// or a flush ends.
	Marked, Committed uint64
	Flushing          bool
	CommittedCond     *sync.Cond

	// check makes every request compare the database with the live state
	// once its changes are committed (tests: a state change without its
	// mark fails); checkErrs collects the differences.
	Check     bool
	CheckErrs []error
	// beforeCommit, when set (tests), is called by every flush that has
	// records to write, before its transaction.
	BeforeCommit func()

	Load LoadScratch // used while loading only
}

// LoadScratch is what loading keeps between kinds.
type LoadScratch struct {
	templateOrder []string         // template ids in listing order (kMetadata)
	Purged        map[string]*Item // purged files that governance records keep, by id
}

// DirtyKey names one record: its kind and its key.
type DirtyKey struct {
	Kind KindID
	Key  string
}

// Dirty marks the record (kind, key) as changed: the end of the request
// writes it, or deletes it when the object is gone. Callers hold the lock
// that guards the object (s.mu, or s.oauth.mu for the oauth kinds).
func (s *State) Dirty(kind KindID, key string) {
	if s.Persist != nil { // inlined: without DataDir a mark is this check
		s.Persist.mark(kind, key)
	}
}

// dropWhere deletes the records of m that match, marking each one
// (s.dirty(kind, key)). Callers hold the lock that guards m.
func dropWhere[V any](s *State, kind KindID, m map[string]V, match func(V) bool) {
	for k, v := range m {
		if match(v) {
			delete(m, k)
			s.Dirty(kind, k)
		}
	}
}

func (p *Persister) mark(kind KindID, key string) {
	p.Mu.Lock()
	p.Dirty[DirtyKey{kind, key}] = struct{}{}
	p.Marked++
	p.Mu.Unlock()
}

// QueueBlobDeletes defers the deletion of blobs to the next commit: a blob
// deleted before the state that stops naming it is committed would be
// missing after a crash. It reports false when the state is not persisted.
func (s *State) QueueBlobDeletes(ids []string) bool {
	p := s.Persist
	if p == nil {
		return false
	}
	p.Mu.Lock()
	p.Blobs = append(p.Blobs, ids...)
	p.Marked++
	p.Mu.Unlock()
	return true
}

// SweepBlobs deletes, from the directory store of dir, the blob files that
// no record names and the temporary files of interrupted writes: what a
// crash between a blob write and its commit (or between a commit and a
// blob delete) leaves behind. Other stores are left alone.
func (s *State) SweepBlobs(dir string) error {
	ds, ok := s.Store.(*blob.Dir)
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
func (s *State) referencedBlobs() map[string]bool {
	keep := map[string]bool{}
	addItem := func(it *Item) {
		for _, v := range it.Versions {
			keep[v.Blob.ID] = true
		}
	}
	for _, it := range s.Items {
		addItem(it)
	}
	for _, fvr := range s.Retention.Fvrs {
		addItem(fvr.File)
	}
	for _, h := range s.Holds.Holds {
		addItem(h.File)
	}
	for _, ss := range s.Sessions {
		if ss.Final != nil {
			keep[ss.Final.ID] = true
		}
		if pa, ok := ss.Asm.(*blob.Parts); ok {
			for _, id := range pa.Blobs() {
				keep[id] = true
			}
		}
	}
	return keep
}

// referencedAssemblies is every assembly id the open sessions name.
func (s *State) referencedAssemblies() map[string]bool {
	keep := map[string]bool{}
	for _, ss := range s.Sessions {
		if id := ss.Asm.ID(); id != "" {
			keep[id] = true
		}
	}
	return keep
}

// persistItemPurged marks the governance records of a purged file: from
// now on they keep a copy of it (encodeFileRef).
func (s *State) persistItemPurged(it *Item) {
	if s.Persist == nil {
		return
	}
	for _, v := range it.Versions {
		if fvr, ok := s.Retention.ByVersion[v.ID]; ok {
			s.Dirty(KRetVersions, fvr.ID)
		}
		if h, ok := s.Holds.ByVersion[v.ID]; ok {
			s.Dirty(KHoldVersions, h.ID)
		}
	}
}

// dirtyItem marks the records of items (nil ones are skipped: the root).
func (s *State) dirtyItem(its ...*Item) {
	if s.Persist == nil {
		return
	}
	for _, it := range its {
		if it != nil {
			s.Dirty(KItems, it.ID)
		}
	}
}
