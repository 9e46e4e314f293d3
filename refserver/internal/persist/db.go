// Package persist keeps the reference server's state in an embedded bbolt
// database (Options.DataDir): every object of the state is one record, a
// JSON document under its kind's bucket. A record names the objects it
// points to by id (a task its file and users, an assignment its policy),
// so a restore rebuilds the pointers; derived indexes (name and login
// maps, creation orders, metadata sort trees) are not stored but rebuilt.
//
// Writes are incremental: the state's mutators mark the records they
// change (state.Dirty, under the state's lock), and the end of every
// request waits until the records marked so far are committed before its
// answer goes out (DB.Await): appended to the commit log as one frame and
// synced (commitlog.go), then written to bbolt in the background with the
// commits that followed. Concurrent requests share a commit (group
// commit), and the content the records name is fsynced first
// (blob.Dir.SyncPending) or, up to SmallBlobMax bytes, written in the same
// frame (SmallBlobs). So nothing a client was told is lost when the
// process dies, and a request costs the records it changed, not the size
// of the state.
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
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/diskio"
	"github.com/contentapi/cms/refserver/internal/state"
)

const (
	// StateFileName is the name of the state database in a data directory.
	StateFileName = "state.db"
	// stateSchema is the version of the record layout; a database written
	// with another version is refused (ErrStateSchema), but for the
	// versions of upgradeSchemas.
	stateSchema = 4

	schemaBucket = "schema"
	schemaKey    = "version"
	// closedKey, in the schema bucket, says that the last server closed
	// the directory cleanly (closeCleanly): every blob file it wrote is
	// named by a committed record or deleted, so the next Open skips the
	// orphan sweep. Open deletes it before it serves, so a crash after
	// that start sweeps again.
	closedKey = "closed-cleanly"
	// countsKey, in the schema bucket, holds how many items and versions
	// the state had when the last server closed cleanly (loadCounts):
	// the next load makes room for them at once instead of growing the
	// items table and its slices step by step (a tenth of a restart's
	// CPU at a million files). Only a size hint: written with closedKey,
	// deleted with it, and a directory without it loads as before.
	countsKey = "counts"
)

// loadCounts is the value of countsKey.
type loadCounts struct{ Items, Versions int }

// upgradeSchemas are the versions this server reads and rewrites as
// stateSchema: 2 added the small blobs (SmallBlobs), 3 the commit log and
// 4 the versions of a file as records of their own (file_versions), which
// a server that writes an earlier version would not read. An upgrade
// rewrites every record in the first commit.
var upgradeSchemas = []string{"1", "2", "3"}

// ErrStateSchema is returned (wrapped) by Open when the database was
// written with another record layout.
var ErrStateSchema = errors.New("refserver: incompatible state schema")

// Kind is how one kind of record is listed, encoded and loaded.
type Kind struct {
	Bucket string
	// Keys lists the keys of every live record (dumps, checks, the first
	// write).
	Keys func(tx *state.ReadTx) []string
	// Encode is the live record with key, false when the object is gone.
	Encode func(tx *state.ReadTx, key string) ([]byte, bool)
	// Load adds a stored record to the state being restored.
	Load func(tx *state.Tx, key string, b []byte) error
	// Done, when set, runs after every record of the kind is loaded
	// (orders, indexes).
	Done func(tx *state.Tx) error
	// Snapshot, set by Detached, copies the live record with key in the
	// transaction (false when the object is gone) and returns its
	// encoding, which a commit runs once the lock is released.
	Snapshot func(tx *state.ReadTx, key string) (encode func() []byte, ok bool)
	snapshot func(tx *state.ReadTx, key string) (func() []byte, bool)
	// decodeBatch, set for the kinds whose records decode themselves,
	// decodes records off the loading transaction (load_pipeline.go).
	decodeBatch func(keys []string, vals [][]byte) func(*state.Tx) error
	// appended, set by Appended: new records' keys sort after the stored
	// ones.
	appended bool
}

// Appended returns k marked as a kind whose new records' keys sort after
// the stored ones (ids drawn from the state's counter, of one length):
// its bucket's pages are filled to 90% when a checkpoint splits them
// (appendFill), as the small blobs' and the events' are. bbolt's default
// split, at half a page, suits keys in any order, but for keys that only
// grow it leaves every page as full as the split made it and never
// fuller: with records of ~500 bytes, three of them to a 4 KiB page, the
// items of a million-file directory filled 38% of their 1.3 GB of pages.
func (k Kind) Appended() Kind {
	k.appended = true
	return k
}

// Detached returns k with Snapshot set: its records are encoded after the
// state's lock is released, so a commit holds the lock only to copy them.
// Only for kinds whose records share nothing the state may change later
// (no live slice, map or pointer: copy them when building the record).
func (k Kind) Detached() Kind {
	k.Snapshot = k.snapshot
	return k
}

// KindOf builds a Kind from a record type R: get returns the live record
// with key (false when gone), load restores one; records are JSON, read
// strictly (an unknown member is an error); a record type that decodes
// itself (recordDecoder) does, in the shapes it knows.
func KindOf[R any](bucket string, keys func(*state.ReadTx) []string, get func(*state.ReadTx, string) (R, bool), load func(*state.Tx, string, R) error, done func(*state.Tx) error) Kind {
	marshal := func(key string, r R) []byte {
		if a, ok := any(r).(recordAppender); ok {
			return a.appendRecord(nil)
		}
		b, err := json.Marshal(r)
		if err != nil {
			panic(fmt.Sprintf("refserver: encoding %s/%s: %v", bucket, key, err)) // record types are plain data
		}
		return b
	}
	fast := fastDecoder[R]()
	// decode reads a record into *r, which is zero: R's own decoder where
	// R has one and knows the record's shape (with s, which may have read
	// the records before, or a new scanner when s is nil), encoding/json
	// otherwise (the strictness decides).
	decode := func(s *scanner, b []byte, r *R) error {
		if fast != nil {
			if s == nil {
				s = new(scanner)
			}
			if fast(s, b, r) {
				return nil
			}
			var zero R
			*r = zero // what the fast decoder read before it gave up
		}
		return decodeJSON(b, r)
	}
	k := Kind{
		Bucket: bucket,
		Keys:   keys,
		Encode: func(tx *state.ReadTx, key string) ([]byte, bool) {
			r, ok := get(tx, key)
			if !ok {
				return nil, false
			}
			return marshal(key, r), true
		},
		snapshot: func(tx *state.ReadTx, key string) (func() []byte, bool) {
			r, ok := get(tx, key)
			if !ok {
				return nil, false
			}
			return func() []byte { return marshal(key, r) }, true
		},
		Load: func(tx *state.Tx, key string, b []byte) error {
			var r R
			if err := decode(nil, b, &r); err != nil {
				return err
			}
			return load(tx, key, r)
		},
		Done: done,
	}
	if fast != nil {
		k.decodeBatch = decodeBatchOf(bucket, decode, load)
	}
	return k
}

// decodeJSON decodes record b into v with encoding/json, strictly (an
// unknown member is an error).
func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// recordAppender is a record type that encodes itself, as encoding/json
// would, without reflection.
type recordAppender interface{ appendRecord([]byte) []byte }

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
	Reset func(tx *state.Tx)
	// Loaded runs after every kind is loaded (the principals).
	Loaded func(tx *state.Tx) error
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
	// log is the commit log, once Open has loaded the state (until then a
	// commit writes to bbolt).
	log *commitLog

	// flushMu serializes flushes from the moment they take the marks to
	// the end of their transaction, so that a request whose marks another
	// flush took waits for that flush to be committed.
	flushMu       sync.Mutex
	schemaPending bool // the first flush writes the schema version (guarded by flushMu)

	// Check makes every Await compare the database with the live state
	// once its changes are committed (tests: a state change without its
	// mark fails); CheckErrs returns the differences.
	Check bool
	// ReadsPerPageDrop is how many reads of stored values (small blobs,
	// mostly: downloads and the search indexer) go by before the pages of
	// state.db they mapped in leave the resident set (dropMappedPages).
	// Set before the first request (tests set less).
	ReadsPerPageDrop int64
	storedReads      atomic.Int64

	// BeforeCommit, when set (tests), is called by every flush that has
	// records to write, before it writes them; an error fails the commit.
	BeforeCommit func() error
	// NoSync (tests, set before the first request) skips the syncs of the
	// commit log, as bbolt's own NoSync does its own.
	NoSync bool
	// CheckpointBytes is the size of the commit log past which a commit
	// starts writing it to bbolt (the package's CheckpointBytes; tests set
	// less with SetCheckpointBytes). Guarded by flushMu.
	CheckpointBytes int64

	checkMu   sync.Mutex
	checkErrs []error

	abandoned atomic.Bool // Abandon ran: commits fail

	// inHandler counts the requests between Enter and Leave: their marks
	// are still to come.
	inHandler atomic.Int64
	// CommitDelay bounds how long a commit waits for requests still in
	// their handler (DefaultCommitDelay; 0: it does not wait). Set before
	// the first request.
	CommitDelay time.Duration
	// Clients, when set, is the number of clients sending requests now
	// (refserver: the connections that started one in the last few
	// milliseconds). With BusyClients or more of them, a commit waits
	// BusyCommitDelay in full before it takes the marks (gather). Set
	// before the first request, as are the other two
	// (DefaultBusyClients, DefaultBusyCommitDelay; 0: never in full).
	Clients         func() int
	BusyClients     int
	BusyCommitDelay time.Duration
	// sleep is time.Sleep (tests count the waits).
	sleep func(time.Duration)
}

// DefaultCommitDelay is how long, at most, a commit waits for the
// requests still in their handler before it takes the marks, so that
// their changes share its sync. Measured on the project's VM
// (BenchmarkServerLoad, DataDir, 32 and 64 clients): without it a commit
// carried 4 calls and made 3,500-3,900 calls/s; waiting up to 0.5-1 ms,
// 4,000-4,600, with a lower median latency (a sync holds up the
// scheduler's processor and costs CPU in the kernel: fewer of them leave
// more for the requests). A lone request, with no other in its handler,
// does not wait.
const DefaultCommitDelay = time.Millisecond

// DefaultBusyClients and DefaultBusyCommitDelay: with this many clients
// sending requests (DB.Clients), a commit waits this long in full, for the
// writes still on their way, not only for the requests already in their
// handler, as PostgreSQL's commit_delay waits only with commit_siblings
// other transactions open. Few clients then lose nothing to the wait, and
// many share fewer syncs. Measured on the project's VM
// (BenchmarkServerLoad, DataDir; docs/refserver.md, Persistence): at 32
// clients half of the commits began with no request in a handler (the
// clients were encoding, decoding, on the network), so the 1 ms gather
// seldom waited, and a commit carried 2.7 writes; with these values,
// 0.805× the memory store's calls/s against 0.775× (88 rounds); 2 to 8 clients
// made as many calls as before; 12 and 16 clients 15-20% more in one
// sitting, 16 clients 4% more in another. A threshold of 24 helped 12
// and 16 clients less; waiting 2 ms did no better.
const (
	DefaultBusyClients     = 16
	DefaultBusyCommitDelay = time.Millisecond
)

// gatherStep is how often a waiting commit looks whether the requests it
// waits for are done.
const gatherStep = 100 * time.Microsecond

// Enter tells that a request's handler starts: a commit that begins
// before its Leave may wait for its marks (CommitDelay). Every Enter is
// followed by one Leave.
func (d *DB) Enter() { d.inHandler.Add(1) }

// Leave tells that a request's handler has ended (its marks are made).
func (d *DB) Leave() { d.inHandler.Add(-1) }

// Open opens (or creates) the state database of dir and loads it into
// cfg.State, or writes the fresh state into a new one. restored reports a
// database that existed. When the state's store is the directory store of
// dir, Open wraps it in SmallBlobs (cfg.State.Store becomes the wrapper).
// Blobs of dir that no record names are deleted.
func Open(dir string, cfg Config) (d *DB, restored bool, err error) {
	// The freelist is written with every commit: bbolt's commits are the
	// checkpoints', in the background, so its pages cost little there,
	// while without it every open rebuilt the freelist by walking and
	// checking every page of the file (a sixth of a restart's CPU at a
	// million files). A file written without it is read as before and
	// gets its freelist at the first open (bbolt commits it then).
	path := filepath.Join(dir, StateFileName)
	// The load reads every record, faulting the mapped file in page by
	// page in key order: from a disk, a million-file state.db (943 MiB)
	// took 22 s that way. Read ahead, the disk reads it in sequence (in
	// 0.5 s there) while the load starts; a cached file costs a lookup.
	if f, err := os.Open(path); err == nil {
		diskio.ReadAhead(f)
		_ = f.Close()
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout: 500 * time.Millisecond, FreelistType: bolt.FreelistMapType,
		// Address space, not memory: the file grows under it without
		// remapping (each remap copied the nodes a checkpoint was writing).
		InitialMmapSize: 256 << 20})
	if err != nil {
		return nil, false, fmt.Errorf("refserver: opening the state in %s: %w", dir, err)
	}
	st := cfg.State
	d = &DB{cfg: cfg, st: st, Bolt: db, CheckpointBytes: CheckpointBytes, CommitDelay: DefaultCommitDelay,
		BusyClients: DefaultBusyClients, BusyCommitDelay: DefaultBusyCommitDelay, ReadsPerPageDrop: readsPerPageDrop,
		sleep: time.Sleep}
	store := st.Store
	if ds, ok := store.(*blob.Dir); ok {
		d.dir = ds
		if filepath.Clean(ds.Path()) == filepath.Clean(dir) {
			d.small = &SmallBlobs{dir: ds, db: d, pending: map[string]*pendingBlob{}}
			st.Store = d.small
		}
	}
	st.Persist = state.NewPersister()
	fresh, upgrade, closedCleanly := true, false, false
	var counts loadCounts // zero: no hint
	var kept uint64       // the last log state.db holds
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(schemaBucket))
		if b == nil {
			return nil
		}
		closedCleanly = b.Get([]byte(closedKey)) != nil
		if c := b.Get([]byte(countsKey)); closedCleanly && c != nil && json.Unmarshal(c, &counts) != nil {
			counts = loadCounts{} // a hint only
		}
		v := string(b.Get([]byte(schemaKey)))
		if slices.Contains(upgradeSchemas, v) {
			d.schemaPending, upgrade = true, true // the first commit writes the new version
		} else if v != strconv.Itoa(stateSchema) {
			return fmt.Errorf("%w: %s has schema %q, this server reads %d", ErrStateSchema, filepath.Join(dir, StateFileName), v, stateSchema)
		}
		return nil
	})
	if err == nil && closedCleanly {
		err = db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte(schemaBucket))
			return errors.Join(b.Delete([]byte(closedKey)), b.Delete([]byte(countsKey)))
		})
	}
	if err == nil {
		kept, err = d.replayLogs(dir)
	}
	if err == nil {
		err = db.View(func(tx *bolt.Tx) error {
			if tx.Bucket([]byte(schemaBucket)) == nil {
				return nil
			}
			fresh = false
			return d.load(tx, counts)
		})
	}
	if err == nil {
		if fresh || upgrade {
			// The fresh state is written whole, with the schema version in
			// the same transaction: a directory has both or neither. An
			// upgraded one is rewritten whole in the new layout, with the
			// version.
			d.schemaPending = true
			d.markAll()
		} else {
			d.markOptionTokens()
		}
		err = d.Flush()
	}
	// After a crash, blob files that no record names may be left (written
	// before a commit that never came, or let go by a commit the process
	// did not live to delete them after): they are swept. A directory
	// closed cleanly has none, and at a million files building the set of
	// named blobs was an eighth of a restart.
	if err == nil && !fresh && !closedCleanly {
		var keep, keepAssembly map[string]bool // once, for both sweeps
		st.View(func(tx *state.ReadTx) { keep, keepAssembly = ReferencedBlobs(tx), ReferencedAssemblies(tx) })
		err = SweepBlobs(st, dir, keep, keepAssembly)
		if err == nil && d.small != nil {
			err = d.sweepSmall(keep)
		}
	}
	if err == nil && !fresh {
		d.dropMappedPages()
	}
	if err == nil {
		err = d.startLog(dir, kept)
	}
	if err != nil {
		_ = db.Close()
		st.Persist, st.Store = nil, store
		return nil, false, err
	}
	return d, !fresh, nil
}

// dropMappedPages releases the pages of state.db that the process has
// mapped in from its resident memory (bbolt maps the file; Linux): they
// stay in the page cache, and a read faults its page back in. Without it
// what was read once stays resident for good: the load's pages
// (BenchmarkRestart, 200k files: 388 MB of file, about 1.9 KB an item of
// RSS), the small blobs the search indexer reads after a restart (375 MB
// of a million-file server's RSS once indexed), the pages a checkpoint
// walks. Open calls it after the load, a checkpoint after it is written,
// and StoredValue every ReadsPerPageDrop reads. In a read transaction:
// bbolt cannot remap the file meanwhile.
func (d *DB) dropMappedPages() {
	_ = d.Bolt.View(func(tx *bolt.Tx) error {
		dropMapped(tx)
		return nil
	})
}

// dropMapped is dropMappedPages within tx.
func dropMapped(tx *bolt.Tx) {
	diskio.DropMapped(tx.DB().Info().Data, tx.Size())
}

// readsPerPageDrop is DB.ReadsPerPageDrop's default: a drop costs a walk
// of the mapping's page table (about a millisecond for a 1 GB file), and
// reads between two drops map in at most this many pages (64 MiB).
const readsPerPageDrop = 16 << 10

// load replaces the fresh state with the records of btx, kind by kind in
// dependency order, in one transaction of the state. It runs before the
// server serves: nothing else holds a lock (Reset replaces the oauth room,
// so the outer lock cannot be held across it). Hand mark (restore): the
// stored records the load left out (LoadScratch.Obsolete) are marked once
// it is over, so that the next commit deletes them.
func (d *DB) load(btx *bolt.Tx, counts loadCounts) (err error) {
	defer pauseGCForLoad()()
	d.st.Update(func(tx *state.Tx) {
		tx.Persist.Restoring(true)
		err = d.loadTx(btx, tx, counts)
		tx.Persist.Restoring(false)
	})
	if err != nil {
		return err
	}
	d.st.Persist.Forget() // what loading marked is stored already
	d.st.Update(func(tx *state.Tx) {
		for _, k := range tx.Persist.Load.Obsolete {
			tx.Dirty(k.Kind, k.Key)
		}
		tx.Persist.Load.Obsolete = nil
		err = d.cfg.Loaded(tx)
	})
	return err
}

// loadTx loads the records of btx into tx, making room first for the
// items and versions counts says the state had.
func (d *DB) loadTx(btx *bolt.Tx, tx *state.Tx, counts loadCounts) error {
	d.cfg.Reset(tx)
	if counts.Items > 0 {
		tx.Items.Grow(counts.Items)
		tx.Persist.Load.Items = make([]*state.Item, 0, counts.Items)
	}
	if counts.Versions > 0 {
		tx.Persist.Load.Versions = make([]state.LoadedVersion, 0, counts.Versions)
	}
	for _, k := range d.cfg.Kinds {
		if b := btx.Bucket([]byte(k.Bucket)); b != nil && k.decodeBatch != nil {
			if err := loadPipelined(tx, k, b); err != nil {
				return err
			}
		} else if b != nil { // no bucket: no record of the kind yet
			err := b.ForEach(func(key, v []byte) error {
				if err := k.Load(tx, string(key), v); err != nil {
					return fmt.Errorf("refserver: state record %s/%s: %w", k.Bucket, key, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		if k.Done != nil { // even without records: orders of earlier kinds are rebuilt here
			if err := k.Done(tx); err != nil {
				return fmt.Errorf("refserver: state records %s: %w", k.Bucket, err)
			}
		}
	}
	return nil
}

// markOptionTokens marks the server's own record once a stored state is
// loaded. Hand mark (restore): the tokens Options gave win over the stored
// ones (FixedTokens' loadMeta) and are stored by the first flush.
func (d *DB) markOptionTokens() {
	d.st.Update(func(tx *state.Tx) { tx.Dirty(state.KMeta, state.MetaKey) })
}

// markAll marks every record of the live state. Hand mark: a bulk sweep
// (a fresh or upgraded database is written whole).
func (d *DB) markAll() {
	d.cfg.Outer.Lock()
	defer d.cfg.Outer.Unlock()
	d.st.Update(func(tx *state.Tx) {
		for i, k := range d.cfg.Kinds {
			for _, key := range k.Keys(&tx.ReadTx) {
				tx.Dirty(state.KindID(i), key)
			}
		}
	})
}

// change is one record to write (val != nil) or delete; encode, when
// set, is the encoding of a detached record, to run without the locks.
type change struct {
	kind   state.KindID
	key    string
	val    []byte
	encode func() []byte
}

// Flush writes the marked records in one transaction, then deletes the
// blobs that the committed state no longer names. It returns once every
// mark made before the call is committed (by this flush or by one that
// took the mark earlier). Call it outside any
// transaction and without the outer lock.
func (d *DB) Flush() error {
	p := d.st.Persist
	d.flushMu.Lock()
	defer d.flushMu.Unlock()
	if p.CommitIfIdle() {
		return nil
	}
	var (
		changes []change
		dirty   map[state.DirtyKey]struct{}
		blobs   []string
		taken   uint64
	)
	d.cfg.Outer.Lock()
	d.st.View(func(tx *state.ReadTx) {
		dirty, blobs, taken = p.Take()
		changes = make([]change, 0, len(dirty))
		for dk := range dirty {
			c := change{kind: dk.Kind, key: dk.Key}
			if k := d.cfg.Kinds[dk.Kind]; k.Snapshot != nil {
				c.encode, _ = k.Snapshot(tx, dk.Key)
			} else {
				c.val, _ = k.Encode(tx, dk.Key)
			}
			changes = append(changes, c)
		}
	})
	d.cfg.Outer.Unlock()
	for i, c := range changes {
		if c.encode != nil {
			changes[i].val = c.encode()
		}
	}

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

	ops := make([]logOp, 0, len(changes)+len(puts)+len(smallDels))
	for _, c := range changes {
		ops = append(ops, logOp{d.cfg.Kinds[c.kind].Bucket, c.key, c.val})
	}
	for _, p := range puts {
		ops = append(ops, logOp{smallBucket, p.id, p.data}) // never nil, even empty
	}
	for _, id := range smallDels {
		ops = append(ops, logOp{smallBucket, id, nil})
	}
	// The content these records name goes to disk first (a durable
	// directory store noted it as it was written).
	var err error
	if d.dir != nil {
		err = d.dir.SyncPending()
	}
	if err == nil && d.BeforeCommit != nil {
		err = d.BeforeCommit()
	}
	if err == nil {
		err = d.commit(ops)
	}
	if d.small != nil {
		d.small.done(puts, err == nil)
	}
	if err != nil {
		p.PutBack(dirty, blobs)
		return fmt.Errorf("refserver: saving the state: %w", err)
	}
	p.Settle(dirty, taken)
	for _, id := range dirDels {
		if err := d.st.Store.Delete(context.Background(), id); err != nil {
			d.st.ContentLeft("deleting blob", err, "blob", id)
		}
	}
	return nil
}

// commit makes ops durable: a frame of the commit log, or, while Open
// loads the state (no log yet), a bbolt transaction (with the schema
// version when it is still to be written). It runs under flushMu (Flush, Close).
func (d *DB) commit(ops []logOp) error {
	if len(ops) == 0 {
		return nil // only blob files to delete (a frame of no op would end the log)
	}
	if d.log != nil {
		return d.appendLog(ops)
	}
	sortOps(ops)
	err := d.Bolt.Update(func(tx *bolt.Tx) error {
		if d.schemaPending {
			b, err := tx.CreateBucketIfNotExists([]byte(schemaBucket))
			if err == nil {
				err = b.Put([]byte(schemaKey), []byte(strconv.Itoa(stateSchema)))
			}
			if err != nil {
				return err
			}
		}
		return d.applyOps(tx, ops)
	})
	if err == nil {
		d.schemaPending = false
	}
	return err
}

// Close writes what is still marked, then the commit log to bbolt (a
// stopped server's data directory holds state.db and its blobs only), and
// closes the database.
func (d *DB) Close() error {
	err := d.Flush()
	d.flushMu.Lock()
	defer d.flushMu.Unlock()
	err = errors.Join(err, d.closeLog(true))
	if err == nil {
		err = d.closeCleanly()
	}
	return errors.Join(err, d.Bolt.Close())
}

// closeCleanly notes in state.db (closedKey) that every blob file of the
// directory is named by a committed record, unless content could not be
// deleted since the state was made (state.ContentLeft). Close calls it
// once the commit log is written to bbolt.
func (d *DB) closeCleanly() error {
	if d.st.LeftContent() || d.abandoned.Load() {
		return nil
	}
	var counts loadCounts
	d.st.View(func(tx *state.ReadTx) {
		counts.Items = tx.Items.Len()
		for _, it := range tx.Items.All() {
			counts.Versions += len(it.Versions)
		}
	})
	c, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	return d.Bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(schemaBucket))
		if b == nil {
			return nil
		}
		return errors.Join(b.Put([]byte(countsKey), c), b.Put([]byte(closedKey), []byte("1")))
	})
}

// SetCheckpointBytes sets the size of the commit log past which a commit
// starts a checkpoint (tests).
func (d *DB) SetCheckpointBytes(n int64) {
	d.flushMu.Lock()
	defer d.flushMu.Unlock()
	d.CheckpointBytes = n
}

// Abandon closes the database as a killed process would leave it, at
// once: a commit under way fails, nothing more is written, and the commit
// log stays for the next Open to replay (tests).
func (d *DB) Abandon() error {
	d.abandoned.Store(true)
	var err error
	if l := d.log; l != nil {
		l.mu.Lock()
		f, syncer := l.f, l.syncer
		l.mu.Unlock()
		err = f.Close()
		_ = syncer.Close() // after a sync under way, if any
		if done := l.running.Load(); done != nil {
			<-*done // a checkpoint under way ends before the next server opens the directory
		}
	}
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
// with the live state. Call it outside any transaction and without the outer
// lock.
func (d *DB) Await() error {
	return d.AwaitMark(d.st.Persist.Marked())
}

// AwaitMark is Await for the marks numbered up to want only: a request
// that read what those marks cover and changed nothing it shows
// (state.ItemReadWait) returns at once when they are committed, however
// many marks other requests made since.
func (d *DB) AwaitMark(want uint64) error {
	if err := d.await(want); err != nil {
		return err
	}
	if d.Check {
		d.check()
	}
	return nil
}

func (d *DB) await(want uint64) error {
	return d.st.Persist.AwaitCommitted(want, func() error {
		d.gather()
		return d.Flush()
	})
}

// gather waits, up to CommitDelay, for the requests still in their
// handler to reach Await, so that the commit about to start takes their
// marks too; with BusyClients or more clients sending requests, it waits
// BusyCommitDelay in full, for the writes they are about to send too.
func (d *DB) gather() {
	if d.BusyCommitDelay > 0 && d.busy() {
		d.sleep(d.BusyCommitDelay)
		return
	}
	for waited := time.Duration(0); waited < d.CommitDelay && d.inHandler.Load() > 0; waited += gatherStep {
		d.sleep(gatherStep)
	}
}

// busy reports whether BusyClients or more clients are sending requests
// now (DB.Clients; false without it).
func (d *DB) busy() bool {
	return d.Clients != nil && d.Clients() >= d.BusyClients
}
