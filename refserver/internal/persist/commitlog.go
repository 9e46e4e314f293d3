package persist

// The commit log. A commit appends the records it changed (and the small
// blobs it writes or deletes) to a log file, as one frame, and syncs that
// file once: that is what makes a request's changes durable. The records
// then reach state.db in the background, many commits in one bbolt
// transaction (a checkpoint), and the log they came from is deleted.
//
// Why: a bbolt commit syncs twice (its pages, then its meta page) and
// rewrites every page on the path to each key it changes, so a stream of
// small commits cost about 20 KB of writes and 1.8 ms per commit on the
// project's VM, one after the other, and that serial path bounded a
// persisted server's throughput. A log frame is the bytes of the records
// and one sync; a checkpoint writes a record changed by a hundred commits
// once.
//
// Files: DIR/state-<n>.log, n counting up from the number state.db keeps
// (schema bucket, key "log": the last log whose frames it holds). A log
// starts with logMagic; a frame is its payload's length and CRC-32C
// (little endian, 4 bytes each), then the payload: ops, each an op byte
// (opPut, opDelete), the bucket and the key (each a uvarint length and its
// bytes), and for a put the value (the same). A log is written with zeros
// ahead of its frames (logChunk at a time), so a commit overwrites blocks
// the file already has and its sync flushes data only (fdatasync: on the
// project's VM 100 µs of CPU and 0.45 ms, against 170 µs and 0.65 ms for
// appending); a zero length ends the frames. A busy server submits the
// sync to the kernel's asynchronous I/O (diskio.Syncer, DB.syncLog): the
// committing goroutine waits for it without holding a Go processor, which
// a blocking fdatasync kept through most syncs under load. The next log is made ready by
// the checkpoint of the one before. Opening replays, in
// order, every log newer than the number state.db keeps, into state.db in
// one transaction that stores the last number; a log's torn last frame
// (the process died while writing it: it was never answered) ends its
// replay.

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/diskio"
)

const (
	logMagic  = "cmslog1\n"
	logPrefix = "state-"
	logSuffix = ".log"
	// logKey is the key of the schema bucket that holds the number of the
	// last log whose frames state.db holds.
	logKey = "log"

	// EventsBucket is the bucket of the events (a kind of refserver's
	// records), whose keys grow with time.
	EventsBucket = "events"

	opPut    byte = 1
	opDelete byte = 2

	frameHeader = 8
	// maxFrame bounds a frame's payload when reading: a larger length is
	// a torn or damaged header.
	maxFrame = 1 << 30

	// CheckpointBytes is the size of log past which a commit starts a
	// checkpoint (DB.CheckpointBytes is what a DB uses). Measured on the
	// project's VM (BenchmarkServerLoad, DataDir): 16 MiB made 10% more
	// calls per second than 4 MiB (a record that many commits change is
	// written to bbolt once per checkpoint). The logs' values stay in
	// their files (overlay); a checkpoint maps its log and bbolt builds
	// the pages it writes in memory, so the resident set rises by about
	// the log's size while one runs. 64 MiB made 0.80 of the memory
	// store's calls per second against 0.78 (100,000 calls, 4 rounds),
	// with a peak resident set 90 MiB higher (273 against 181 MiB).
	CheckpointBytes = 16 << 20
	// logChunk is how many zeros a log is extended by when a frame reaches
	// its end.
	logChunk = 1 << 20
)

// overlay is what a log holds that state.db does not yet: bucket → key →
// where the key's last value is in the log (or that it was deleted). The
// values stay in the log file (in the page cache), not in the heap: a
// reader of one reads it back from the file (commitLog.lookup), and a
// checkpoint maps the file. Holding them cost the heap up to twice
// CheckpointBytes (the log being written and the one being checkpointed),
// and the collector a pointer per value at every cycle.
type overlay struct {
	recs map[string]map[string]span
	f    *os.File // the log
	log  uint64   // the log whose frames it holds
	size int64    // the bytes of that log
}

// span is where a value is in a log: n bytes at off; n < 0 for a delete.
type span struct {
	off int64
	n   int32
}

// deleted reports a delete.
func (s span) deleted() bool { return s.n < 0 }

func newOverlay(log uint64, f *os.File) *overlay {
	return &overlay{recs: map[string]map[string]span{}, log: log, f: f, size: int64(len(logMagic))}
}

// apply notes ops, whose values begin at base+valAt[i] in the log (the
// offsets appendFrame and decodeOps report).
func (o *overlay) apply(ops []logOp, base int64, valAt []int) {
	for i, op := range ops {
		m := o.recs[op.bucket]
		if m == nil {
			m = map[string]span{}
			o.recs[op.bucket] = m
		}
		sp := span{n: -1}
		if op.val != nil {
			sp = span{off: base + int64(valAt[i]), n: int32(len(op.val))}
		}
		m[op.key] = sp
	}
}

// read is the value at sp, read from the log file (a copy).
func (o *overlay) read(sp span) ([]byte, error) {
	if sp.deleted() {
		return nil, nil
	}
	val := make([]byte, sp.n)
	if _, err := o.f.ReadAt(val, sp.off); err != nil {
		return nil, fmt.Errorf("reading the commit log %s: %w", o.f.Name(), err)
	}
	return val, nil
}

// ops lists the overlay's changes, bucket by bucket and key by key (the
// order bbolt writes with the fewest page splits), with the values as
// slices of data, the log's bytes (diskio.MapRead).
func (o *overlay) ops(data []byte) []logOp {
	var ops []logOp
	for _, b := range slices.Sorted(maps.Keys(o.recs)) {
		recs := o.recs[b]
		for _, k := range slices.Sorted(maps.Keys(recs)) {
			op := logOp{bucket: b, key: k}
			if sp := recs[k]; !sp.deleted() {
				op.val = data[sp.off : sp.off+int64(sp.n) : sp.off+int64(sp.n)]
			}
			ops = append(ops, op)
		}
	}
	return ops
}

// commitLog is the log commits append to, and the overlays of what
// state.db lacks.
type commitLog struct {
	dir string

	// mu guards active and frozen, which readers of the database consult
	// (small blobs, the check mode). Lock order: DB.flushMu, then mu.
	mu     sync.Mutex
	active *overlay // the frames of f
	frozen *overlay // the frames of the log a checkpoint is writing to state.db

	// Guarded by DB.flushMu (and f and syncer by mu too, for DB.Abandon):
	f      *os.File
	syncer *diskio.Syncer // syncs f, and each log after it (without holding a Go processor; one for the log's life: closing one takes 30-40 ms)
	zeroed int64          // the size of f: its frames, then zeros
	broken error          // a log that could not be put back after a failed write, or a failed checkpoint: every commit fails
	ckpt   chan struct{}  // closed when the running checkpoint ends; nil when none ran
	buf    []byte         // the frame being written
	valAt  []int          // where its values are in it (appendFrame)

	ckptErr error    // the error of the checkpoint of ckpt, read once ckpt is closed
	spare   *os.File // the next log, made ready by that checkpoint (read once ckpt is closed)

	running atomic.Pointer[chan struct{}] // ckpt, for DB.Abandon, which holds no flushMu
}

// finished reports whether no checkpoint is running, breaking the log when
// the last one failed. It runs under flushMu (Flush, Close).
func (l *commitLog) finished() bool {
	if l.ckpt == nil {
		return true
	}
	select {
	case <-l.ckpt:
		if l.ckptErr != nil && l.broken == nil {
			// Its frames stay in their log and in the frozen overlay:
			// nothing is lost, but a later checkpoint would store a newer
			// log number, and a restart would skip that log.
			l.broken = fmt.Errorf("refserver: writing the commit log to %s: %w", StateFileName, l.ckptErr)
		}
		return true
	default:
		return false
	}
}

// lookup is the value of bucket/key in the overlays (a copy, read from
// its log): found reports whether they have it (deleted: val nil). It
// holds the log's lock while it reads, so a checkpoint cannot close the
// log meanwhile (it drops its overlay, with that lock, first).
func (l *commitLog) lookup(bucket, key string) (val []byte, found bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range []*overlay{l.active, l.frozen} {
		if o != nil {
			if sp, ok := o.recs[bucket][key]; ok {
				val, err = o.read(sp)
				return val, true, err
			}
		}
	}
	return nil, false, nil
}

// overlays returns the overlays, oldest first (frozen ones are never
// changed; the active one only under DB.flushMu).
func (l *commitLog) overlays() []*overlay {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*overlay
	if l.frozen != nil {
		out = append(out, l.frozen)
	}
	return append(out, l.active)
}

// createLog creates log n of dir: its magic, then logChunk zeros (the
// blocks its first frames will overwrite), and makes it and its name
// durable.
func createLog(dir string, n uint64, noSync bool) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, logName(n)), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(logMagic)
	if err == nil {
		err = writeZeros(f, int64(len(logMagic)), logChunk)
	}
	if err == nil && !noSync {
		err = f.Sync()
		if err == nil {
			err = blob.SyncPath(dir)
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// zeroBlock is what writeZeros writes from: never written, so its pages
// are the system's one page of zeros, not the process's memory, and a log
// that grows by logChunk no longer allocates (and clears) a buffer each
// time.
var zeroBlock [256 << 10]byte

// writeZeros writes n zeros into f at off.
func writeZeros(f *os.File, off, n int64) error {
	for n > 0 {
		w, err := f.WriteAt(zeroBlock[:min(n, int64(len(zeroBlock)))], off)
		if err != nil {
			return err
		}
		off, n = off+int64(w), n-int64(w)
	}
	return nil
}

// startLog opens the commit log of d after log n (the number state.db
// keeps).
func (d *DB) startLog(dir string, n uint64) error {
	f, err := createLog(dir, n+1, d.NoSync)
	if err != nil {
		return fmt.Errorf("refserver: creating the commit log: %w", err)
	}
	d.log = &commitLog{dir: dir, f: f, syncer: diskio.NewSyncer(), zeroed: logChunk + int64(len(logMagic)), active: newOverlay(n+1, f)}
	return nil
}

// appendLog writes ops as one frame of the log and syncs it; then
// readers find them in the active overlay. A write or sync that fails is
// cut off the log (a later frame must follow the last whole one); a log
// that cannot be cut breaks every later commit. It runs under flushMu (Flush, Close).
func (d *DB) appendLog(ops []logOp) error {
	l := d.log
	if d.abandoned.Load() {
		return errors.New("refserver: the state database is closed")
	}
	if l.finished(); l.broken != nil {
		return l.broken
	}
	l.buf, l.valAt = appendFrame(l.buf[:0], ops, l.valAt[:0])
	size := l.active.size
	var err error
	if end := size + int64(len(l.buf)); end > l.zeroed {
		// Zeros past the frame first (the sync below makes the new
		// size durable with it).
		grow := end - l.zeroed + logChunk
		if err = writeZeros(l.f, l.zeroed, grow); err == nil {
			l.zeroed += grow
		}
	}
	if err == nil {
		_, err = l.f.WriteAt(l.buf, size)
	}
	if err == nil && !d.NoSync {
		err = d.syncLog()
	}
	if err != nil {
		// What the failed write left is zeroed again: the next frame
		// follows the last whole one, and nothing after it reads as one.
		zeros := make([]byte, len(l.buf))
		_, zerr := l.f.WriteAt(zeros, size)
		if zerr == nil && !d.NoSync {
			zerr = d.syncLog()
		}
		if zerr != nil {
			l.broken = fmt.Errorf("commit log %s cannot be written: %w", l.f.Name(), errors.Join(err, zerr))
		}
		return err
	}
	l.mu.Lock()
	l.active.apply(ops, size, l.valAt)
	l.active.size = size + int64(len(l.buf))
	l.mu.Unlock()
	if cap(l.buf) > 1<<20 {
		l.buf = nil // one large commit does not keep its buffer (after its size is counted)
	}
	if l.active.size >= d.CheckpointBytes {
		d.startCheckpoint()
	}
	return nil
}

// syncLog syncs the log being written: through its Syncer (the
// asynchronous sync, which frees the goroutine's processor) when many
// clients are sending requests (DB.busy), else with a blocking fdatasync.
// Few clients leave processors idle anyway, and the asynchronous sync runs
// on a kernel worker that must be scheduled first: at 4 clients it made
// fewer calls (BenchmarkServerLoad, 5 rounds on a shared machine: 0.89×
// of the blocking sync's). It runs under flushMu.
func (d *DB) syncLog() error {
	l := d.log
	if d.busy() {
		return l.syncer.Sync(l.f)
	}
	return diskio.SyncData(l.f)
}

// startCheckpoint freezes the active overlay, starts a new log for the
// commits that follow and writes the frozen one to state.db in the
// background. When a checkpoint is still running, it does nothing unless
// the log has grown to twice the threshold; then it waits for that
// checkpoint first, so the overlays stay bounded. It runs under flushMu (Flush, Close).
func (d *DB) startCheckpoint() {
	l := d.log
	if !l.finished() {
		if l.active.size < 2*d.CheckpointBytes {
			return
		}
		<-l.ckpt
		if l.finished(); l.broken != nil {
			return
		}
	}
	next := l.active.log + 1
	f := l.spare
	l.spare = nil
	if f == nil || f.Name() != filepath.Join(l.dir, logName(next)) {
		if f != nil {
			_ = f.Close()
		}
		var err error
		if f, err = createLog(l.dir, next, d.NoSync); err != nil {
			d.st.Log.Warn("starting a new commit log", "err", err)
			return // the active log goes on growing; the next commit tries again
		}
	}
	old := l.f
	l.mu.Lock()
	frozen := l.active
	l.frozen, l.active, l.f = frozen, newOverlay(next, f), f
	l.mu.Unlock()
	l.zeroed = logChunk + int64(len(logMagic))
	done := make(chan struct{})
	l.ckpt = done
	l.running.Store(&done)
	go func() {
		defer close(done)
		l.ckptErr = d.checkpoint(frozen)
		if l.ckptErr != nil {
			return // its log stays open: readers read the frozen overlay from it
		}
		l.mu.Lock()
		l.frozen = nil // state.db has it
		l.mu.Unlock()
		d.retireLog(old)
		// The log after the active one, ready for the next checkpoint
		// (without it, that checkpoint makes it, holding up a commit).
		if d.abandoned.Load() {
			return // a test's crash: the directory is another server's now
		}
		if f, err := createLog(l.dir, next+1, d.NoSync); err == nil {
			l.spare = f
		}
	}()
}

// checkpoint writes o to state.db with the number of its log. The values
// are read from the log mapped (o.f, which stays open: the caller drops o,
// then retires the log).
func (d *DB) checkpoint(o *overlay) error {
	data, unmap, err := diskio.MapRead(o.f, o.size)
	if err != nil {
		return fmt.Errorf("reading the commit log: %w", err)
	}
	err = d.Bolt.Update(func(tx *bolt.Tx) error {
		if err := d.applyOps(tx, o.ops(data)); err != nil {
			return err
		}
		return putLogNumber(tx, o.log, false)
	})
	// bbolt copied the values into its pages at its commit; an Update
	// that failed wrote nothing.
	err = errors.Join(err, unmap())
	if err != nil {
		return err
	}
	d.dropMappedPages() // the pages the transaction walked
	return nil
}

// retireLog closes and deletes a log state.db holds.
func (d *DB) retireLog(f *os.File) {
	name := f.Name()
	_ = f.Close()
	if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		d.st.Log.Warn("deleting a checkpointed commit log", "log", name, "err", err)
	}
}

// closeLog ends the commit log: it waits for a running checkpoint, then,
// when final, writes the active overlay to state.db and deletes its log
// (a clean stop leaves state.db alone); else it only closes the file (a
// crash, for tests).
func (d *DB) closeLog(final bool) error {
	l := d.log
	if l == nil {
		return nil
	}
	if l.ckpt != nil {
		<-l.ckpt
		l.finished()
	}
	if l.spare != nil { // no frame: a restart would find nothing in it
		_ = l.spare.Close()
		_ = os.Remove(l.spare.Name())
	}
	defer l.syncer.Close()
	if !final || l.broken != nil {
		return errors.Join(l.broken, l.f.Close())
	}
	if err := d.checkpoint(l.active); err != nil {
		return fmt.Errorf("refserver: writing the commit log to %s: %w", StateFileName, err)
	}
	d.retireLog(l.f)
	return nil
}
