// Package persist keeps the reference server's state in an embedded bbolt
// database (Options.DataDir): every object of the state is one record, a
// JSON document under its kind's bucket. A record names the objects it
// points to by id (a task its file and users, an assignment its policy),
// so a restore rebuilds the pointers; derived indexes (name and login
// maps, creation orders, metadata sort trees) are not stored but rebuilt.
//
// Writes are incremental: the state's mutators mark the records they
// change (state.Dirty, under the state's lock), and the end of every
// request waits until the records marked so far are written in one bbolt
// transaction before its answer goes out (DB.Await); concurrent requests
// share that transaction (group commit), and the content the records name
// is fsynced first (blob.Dir.SyncPending) or, up to SmallBlobMax bytes,
// written in that transaction (SmallBlobs). So nothing a client was told is
// lost when the process dies, and a request costs the records it changed,
// not the size of the state.
//
// The package holds the codecs of every kind of the state (keys, encode,
// load: persist_*.go) and the database (this file). It imports the state,
// never the server.
package persist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
)

const (
	// StateFileName is the name of the state database in a data directory.
	StateFileName = "state.db"
	// stateSchema is the version of the record layout; a database written
	// with another version is refused (ErrStateSchema), but for
	// upgradeSchema.
	stateSchema = 2
	// upgradeSchema is the version this server reads and rewrites as
	// stateSchema: 2 added the small blobs (SmallBlobs), which a server
	// that writes 1 would not find.
	upgradeSchema = 1

	schemaBucket = "schema"
	schemaKey    = "version"
)

// ErrStateSchema is returned (wrapped) by Open when the database was
// written with another record layout.
var ErrStateSchema = errors.New("refserver: incompatible state schema")

// Kind is how one kind of record is listed, encoded and loaded.
type Kind struct {
	Bucket string
	// Keys lists the keys of every live record (dumps, checks, the first
	// write).
	Keys func() []string
	// Encode is the live record with key, false when the object is gone.
	Encode func(key string) ([]byte, bool)
	// Load adds a stored record to the state being restored.
	Load func(key string, b []byte) error
	// Done, when set, runs after every record of the kind is loaded
	// (orders, indexes).
	Done func() error
}

// KindOf builds a Kind from a record type R: get returns the live record
// with key (false when gone), load restores one; records are JSON, read
// strictly (an unknown member is an error).
func KindOf[R any](bucket string, keys func() []string, get func(string) (R, bool), load func(string, R) error, done func() error) Kind {
	return Kind{
		Bucket: bucket,
		Keys:   keys,
		Encode: func(key string) ([]byte, bool) {
			r, ok := get(key)
			if !ok {
				return nil, false
			}
			b, err := json.Marshal(r)
			if err != nil {
				panic(fmt.Sprintf("refserver: encoding %s/%s: %v", bucket, key, err)) // record types are plain data
			}
			return b, true
		},
		Load: func(key string, b []byte) error {
			var r R
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				return err
			}
			return load(key, r)
		},
		Done: done,
	}
}

// Config is what Open needs of the server.
type Config struct {
	// State is the live state; its marks (state.Persister) are installed
	// by Open.
	State *state.State
	// Kinds are the kinds of record, indexed by state.KindID, in load
	// order (a kind loads after the kinds its records point to).
	Kinds []Kind
	// Outer is the lock taken before the state's when records are encoded
	// (the oauth room's, whose records are kinds too).
	Outer sync.Locker
	// Reset empties what the records restore, before a load.
	Reset func()
	// Loaded runs after every kind is loaded (the principals).
	Loaded func() error
}

// DB is an open state database.
type DB struct {
	cfg Config
	st  *state.State
	// Bolt is the database (tests read and close it).
	Bolt *bolt.DB
	// dir is the state's directory store, whose writes each commit syncs
	// first; small keeps its small blobs in the database when it is the
	// data directory's. Either may be nil.
	dir   *blob.Dir
	small *SmallBlobs

	// flushMu serializes flushes from the moment they take the marks to
	// the end of their transaction, so that a request whose marks another
	// flush took waits for that flush to be committed.
	flushMu       sync.Mutex
	schemaPending bool // the first flush writes the schema version (guarded by flushMu)

	// Check makes every Await compare the database with the live state
	// once its changes are committed (tests: a state change without its
	// mark fails); CheckErrs returns the differences.
	Check bool
	// BeforeCommit, when set (tests), is called by every flush that has
	// records to write, before its transaction.
	BeforeCommit func()

	checkMu   sync.Mutex
	checkErrs []error
}

// Open opens (or creates) the state database of dir and loads it into
// cfg.State, or writes the fresh state into a new one. restored reports a
// database that existed. When the state's store is the directory store of
// dir, Open wraps it in SmallBlobs (cfg.State.Store becomes the wrapper).
// Blobs of dir that no record names are deleted.
func Open(dir string, cfg Config) (d *DB, restored bool, err error) {
	// The freelist is not written with every commit (fewer pages per
	// commit); opening rebuilds it from the pages.
	db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, &bolt.Options{
		Timeout: 500 * time.Millisecond, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, false, fmt.Errorf("refserver: opening the state in %s: %w", dir, err)
	}
	st := cfg.State
	d = &DB{cfg: cfg, st: st, Bolt: db}
	store := st.Store
	if ds, ok := store.(*blob.Dir); ok {
		d.dir = ds
		if filepath.Clean(ds.Path()) == filepath.Clean(dir) {
			d.small = &SmallBlobs{dir: ds, db: d, pending: map[string]*pendingBlob{}}
			st.Store = d.small
		}
	}
	st.Persist = &state.Persister{Dirty: map[state.DirtyKey]struct{}{}, Load: state.LoadScratch{Purged: map[string]*state.Item{}}}
	st.Persist.CommittedCond = sync.NewCond(&st.Persist.Mu)
	fresh := true
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(schemaBucket))
		if b == nil {
			return nil
		}
		fresh = false
		v := string(b.Get([]byte(schemaKey)))
		if v == strconv.Itoa(upgradeSchema) {
			d.schemaPending = true // the first commit writes the new version
		} else if v != strconv.Itoa(stateSchema) {
			return fmt.Errorf("%w: %s has schema %q, this server reads %d", ErrStateSchema, filepath.Join(dir, StateFileName), v, stateSchema)
		}
		return d.load(tx)
	})
	if err == nil {
		if fresh {
			// The fresh state is written whole, with the schema version in
			// the same transaction: a directory has both or neither.
			d.schemaPending = true
			d.markAll()
		} else {
			st.Dirty(state.KMeta, state.MetaKey) // the tokens Options gave
		}
		err = d.Flush()
	}
	if err == nil && !fresh {
		keep := ReferencedBlobs(st) // once, for both sweeps
		err = SweepBlobs(st, dir, keep)
		if err == nil && d.small != nil {
			err = d.sweepSmall(keep)
		}
	}
	if err != nil {
		_ = db.Close()
		st.Persist, st.Store = nil, store
		return nil, false, err
	}
	return d, !fresh, nil
}

// load replaces the fresh state with the records of tx, kind by kind in
// dependency order.
func (d *DB) load(tx *bolt.Tx) error {
	d.cfg.Reset()
	for _, k := range d.cfg.Kinds {
		if b := tx.Bucket([]byte(k.Bucket)); b != nil { // no bucket: no record of the kind yet
			err := b.ForEach(func(key, v []byte) error {
				if err := k.Load(string(key), v); err != nil {
					return fmt.Errorf("refserver: state record %s/%s: %w", k.Bucket, key, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		if k.Done != nil { // even without records: orders of earlier kinds are rebuilt here
			if err := k.Done(); err != nil {
				return fmt.Errorf("refserver: state records %s: %w", k.Bucket, err)
			}
		}
	}
	d.st.Persist.Dirty = map[state.DirtyKey]struct{}{} // what loading marked is stored already
	return d.cfg.Loaded()
}

// markAll marks every record of the live state.
func (d *DB) markAll() {
	d.cfg.Outer.Lock()
	defer d.cfg.Outer.Unlock()
	d.st.Update(func() {
		for i, k := range d.cfg.Kinds {
			for _, key := range k.Keys() {
				d.st.Dirty(state.KindID(i), key)
			}
		}
	})
}

// change is one record to write (val != nil) or delete.
type change struct {
	kind state.KindID
	key  string
	val  []byte
}

// Flush writes the marked records in one transaction, then deletes the
// blobs that the committed state no longer names. It returns once every
// mark made before the call is committed (by this flush or by one that
// took the mark earlier). Callers hold neither the state's lock nor the
// outer one.
func (d *DB) Flush() error {
	p := d.st.Persist
	d.flushMu.Lock()
	defer d.flushMu.Unlock()
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
	var (
		changes []change
		dirty   map[state.DirtyKey]struct{}
		blobs   []string
		taken   uint64
	)
	d.cfg.Outer.Lock()
	d.st.View(func() {
		p.Mu.Lock()
		dirty, blobs, taken = p.Dirty, p.Blobs, p.Marked
		p.Dirty, p.Blobs = map[state.DirtyKey]struct{}{}, nil
		p.Mu.Unlock()
		changes = make([]change, 0, len(dirty))
		for dk := range dirty {
			v, _ := d.cfg.Kinds[dk.Kind].Encode(dk.Key)
			changes = append(changes, change{dk.Kind, dk.Key, v})
		}
	})
	d.cfg.Outer.Unlock()

	// The small blobs these records name (and any other written so far:
	// a blob is written before the record that names it is marked) go in
	// the same transaction, and the small ones of the blobs to delete.
	var (
		puts      []smallPut
		smallDels []string
		dirDels   = blobs
	)
	if d.small != nil {
		puts = d.small.take()
		dirDels = nil
		for _, id := range blobs {
			if IsSmallBlob(id) {
				smallDels = append(smallDels, id)
			} else {
				dirDels = append(dirDels, id)
			}
		}
	}

	// Keys in order: bbolt writes sorted keys with fewer page splits.
	sort.Slice(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		return a.kind < b.kind || a.kind == b.kind && a.key < b.key
	})
	// The content these records name goes to disk first (a durable
	// directory store noted it as it was written).
	var err error
	if d.dir != nil {
		err = d.dir.SyncPending()
	}
	if err == nil && d.BeforeCommit != nil {
		d.BeforeCommit()
	}
	if err == nil {
		err = d.Bolt.Update(func(tx *bolt.Tx) error {
			if d.schemaPending {
				b, err := tx.CreateBucketIfNotExists([]byte(schemaBucket))
				if err == nil {
					err = b.Put([]byte(schemaKey), []byte(strconv.Itoa(stateSchema)))
				}
				if err != nil {
					return err
				}
			}
			if err := d.writeChanges(tx, changes); err != nil {
				return err
			}
			return writeSmall(tx, puts, smallDels)
		})
	}
	if d.small != nil {
		d.small.done(puts, err == nil)
	}
	if err == nil {
		d.schemaPending = false
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
	for _, id := range dirDels {
		if err := d.st.Store.Delete(context.Background(), id); err != nil {
			d.st.Log.Warn("deleting blob", "blob", id, "err", err)
		}
	}
	return nil
}

func (d *DB) writeChanges(tx *bolt.Tx, changes []change) error {
	var b *bolt.Bucket
	last := state.KindID(255)
	for _, c := range changes {
		if c.kind != last {
			var err error
			if b, err = tx.CreateBucketIfNotExists([]byte(d.cfg.Kinds[c.kind].Bucket)); err != nil {
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

// Close writes what is still marked and closes the database.
func (d *DB) Close() error {
	err := d.Flush()
	return errors.Join(err, d.Bolt.Close())
}

// Await returns once every record marked (and every blob delete queued)
// before the call is committed, committing them itself when no other
// request is doing so (group commit: a request waits for the marks made up
// to the end of its handler; one waiter at a time commits everything
// marked so far, for itself and every request waiting, while the others
// sleep). It returns the error of a commit it made; a request whose
// changes a failed commit carried goes on to commit them itself (a failed
// commit puts its marks back), so every waiter gets either its changes
// committed or an error. With Check set, it then compares the database
// with the live state. Callers hold neither the state's lock nor the outer
// one.
func (d *DB) Await() error {
	if err := d.await(); err != nil {
		return err
	}
	if d.Check {
		d.check()
	}
	return nil
}

func (d *DB) await() error {
	p := d.st.Persist
	p.Mu.Lock()
	defer p.Mu.Unlock()
	want := p.Marked
	for p.Committed < want {
		if p.Flushing {
			p.CommittedCond.Wait()
			continue
		}
		p.Flushing = true
		p.Mu.Unlock()
		err := d.Flush()
		p.Mu.Lock()
		p.Flushing = false
		p.CommittedCond.Broadcast() // a waiter left behind takes over
		if err != nil {
			return err
		}
	}
	return nil
}

// DumpLive encodes every record of the live state: bucket → key →
// record. Callers hold the outer lock and the state's.
func (d *DB) DumpLive() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, k := range d.cfg.Kinds {
		m := map[string]string{}
		for _, key := range k.Keys() {
			v, ok := k.Encode(key)
			if !ok {
				m[key] = "<listed but not found>"
				continue
			}
			m[key] = string(v)
		}
		if len(m) > 0 {
			out[k.Bucket] = m
		}
	}
	return out
}

// DumpDB reads every record of tx: bucket → key → record.
func (d *DB) DumpDB(tx *bolt.Tx) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, k := range d.cfg.Kinds {
		b := tx.Bucket([]byte(k.Bucket))
		if b == nil {
			continue
		}
		m := map[string]string{}
		_ = b.ForEach(func(key, v []byte) error { m[string(key)] = string(v); return nil })
		if len(m) > 0 {
			out[k.Bucket] = m
		}
	}
	return out
}

// check compares the database with the live state when no flush is under
// way and nothing is marked (a mark pending means a flush is due, not a
// difference) and records every difference (CheckErrs).
func (d *DB) check() {
	p := d.st.Persist
	d.flushMu.Lock() // no flush between taking its marks and its commit
	defer d.flushMu.Unlock()
	d.cfg.Outer.Lock()
	defer d.cfg.Outer.Unlock()
	var (
		pending bool
		live    map[string]map[string]string
		named   map[string]bool
	)
	d.st.View(func() {
		p.Mu.Lock()
		pending = len(p.Dirty) > 0
		p.Mu.Unlock()
		if !pending {
			live = d.DumpLive()
			if d.small != nil {
				named = liveContent(d.st)
			}
		}
	})
	if pending {
		return
	}
	var (
		stored map[string]map[string]string
		errs   []error
	)
	_ = d.Bolt.View(func(tx *bolt.Tx) error {
		stored = d.DumpDB(tx)
		errs = missingSmall(tx, named)
		return nil
	})
	if errs = append(errs, diffDumps(stored, live)...); len(errs) > 0 {
		d.checkMu.Lock()
		d.checkErrs = append(d.checkErrs, errs...)
		d.checkMu.Unlock()
	}
}

// CheckErrs returns the differences Check found so far.
func (d *DB) CheckErrs() []error {
	d.checkMu.Lock()
	defer d.checkMu.Unlock()
	return slices.Clone(d.checkErrs)
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
