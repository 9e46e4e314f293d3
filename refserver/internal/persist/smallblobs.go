package persist

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
)

// SmallBlobMax is the size, in bytes, of the largest blob SmallBlobs keeps
// in the state database; a larger one is a file of the directory store.
//
// A file costs a fixed price whatever its size: creating it (0.2–1.3 ms
// of CPU on the project's VM under load), then an fsync of its bytes and
// one of the directory before the commit can start. A blob in the
// database costs its bytes: copied into the commit's pages and written
// with them, under the fsyncs the commit makes anyway. A probe on the
// project's VM (commits of ten 1 KiB records plus two blobs, bbolt as the
// server opens it) measured, per commit: 0.62–0.94 ms of CPU and 1.4–1.8
// ms of wall time with no blob or two blobs of 1, 4 or 8 KiB in the
// database (the differences within the noise); 0.77–1.18 ms with two of
// 16 KiB, 1.7–2.2 ms with two of 64 KiB (more CPU than two files); and
// 1.9–2.8 ms of CPU and 3.6–4.7 ms of wall time with two files of up to
// 8 KiB. 8 KiB is the largest size measured to cost nothing over the
// commit; it also bounds what SmallBlobs holds in memory (each upload in
// flight until its commit: 64 of them hold 512 KiB) and what each read
// copies out of the database.
const SmallBlobMax = 8 << 10

// smallBucket is the bucket of the small blobs: key the blob id, value
// its bytes.
const smallBucket = "small_blobs"

// smallIDLen is the length of a small blob's id: "s", then 16 hex digits
// of the time of the write (so that new blobs go to the end of the
// bucket's key order: a commit writes its blobs into the last pages, not
// one page each across the tree), then 16 random ones. The directory
// store's ids are 32 hex digits: the two never meet.
const smallIDLen = 33

// IsSmallBlob reports whether id names a blob that SmallBlobs keeps in
// the state database.
func IsSmallBlob(id string) bool { return len(id) == smallIDLen && id[0] == 's' }

func newSmallID() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(time.Now().UnixNano()))
	_, _ = rand.Read(b[8:])
	return "s" + hex.EncodeToString(b[:])
}

// SmallBlobs is the store of a persisted server whose content is in the
// directory store of its data directory: a blob of up to SmallBlobMax
// bytes is kept in the state database, written by the next commit of the
// state in the same frame of the commit log as the records (no file, no
// fsync of its own; a checkpoint takes it into state.db), and held in
// memory until then, so that it can be read at once; a larger one is a
// file of the directory store, as without it. A small blob a commit no
// longer needs (queued with QueueBlobDeletes) is deleted by that commit.
// Upload sessions' assemblies are the directory store's.
type SmallBlobs struct {
	dir *blob.Dir
	db  *DB

	mu      sync.Mutex
	pending map[string]*pendingBlob // written, not committed yet
}

// pendingBlob is a small blob waiting for a commit.
type pendingBlob struct {
	data  []byte
	taken bool // a flush is writing it
}

// smallPut is a small blob a flush writes.
type smallPut struct {
	id   string
	data []byte
}

// Dir is the directory store that keeps the larger blobs.
func (b *SmallBlobs) Dir() *blob.Dir { return b.dir }

// headBuffers recycles the buffers Put reads a blob's first bytes into.
var headBuffers = sync.Pool{New: func() any { return new([SmallBlobMax + 1]byte) }}

// Put reads up to SmallBlobMax+1 bytes of r: a blob that ends within them
// is kept in memory until the next commit writes it; a longer one streams
// to the directory store, those bytes first. Only io.EOF ends a blob: any
// other error of r fails the Put and keeps nothing.
func (b *SmallBlobs) Put(ctx context.Context, r io.Reader) (blob.Info, error) {
	buf := headBuffers.Get().(*[SmallBlobMax + 1]byte)
	defer headBuffers.Put(buf)
	n, err := readHead(ctx, r, buf[:])
	if err != nil {
		return blob.Info{}, err
	}
	if n > SmallBlobMax {
		return b.dir.Put(ctx, io.MultiReader(bytes.NewReader(buf[:n]), r))
	}
	data := make([]byte, n)
	copy(data, buf[:n])
	sum := sha1.Sum(data)
	id := newSmallID()
	b.mu.Lock()
	b.pending[id] = &pendingBlob{data: data}
	b.mu.Unlock()
	return blob.Info{ID: id, Size: int64(n), SHA1: hex.EncodeToString(sum[:])}, nil
}

// readHead reads r into buf until buf is full or r ends (io.EOF), and
// returns how many bytes it read; ctx done fails it.
func readHead(ctx context.Context, r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		got, err := r.Read(buf[n:])
		n += got
		if err == io.EOF { //nolint:errorlint // a reader's end, as io.Reader documents it
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Open reads a small blob from memory when its commit has not come yet,
// else a copy of it out of the database; a larger one from the directory
// store.
func (b *SmallBlobs) Open(ctx context.Context, id string) (io.ReadSeekCloser, error) {
	if !IsSmallBlob(id) {
		return b.dir.Open(ctx, id)
	}
	b.mu.Lock()
	p, ok := b.pending[id]
	b.mu.Unlock()
	if ok {
		return nopCloser{bytes.NewReader(p.data)}, nil
	}
	// A commit logs the blob before it leaves pending: not pending, so
	// committed, unless it was deleted or never was.
	data, ok, err := b.db.StoredValue(smallBucket, id)
	if err != nil {
		return nil, fmt.Errorf("open %q: %w", id, err)
	}
	if !ok {
		return nil, fmt.Errorf("open %q: %w", id, blob.ErrNotFound)
	}
	return nopCloser{bytes.NewReader(data)}, nil
}

// Delete forgets a small blob no commit has taken yet; one in the
// database, or being written by a commit under way, is deleted by the
// next commit (QueueBlobDeletes). A larger blob's file is removed.
func (b *SmallBlobs) Delete(ctx context.Context, id string) error {
	if !IsSmallBlob(id) {
		return b.dir.Delete(ctx, id)
	}
	b.mu.Lock()
	p, ok := b.pending[id]
	delete(b.pending, id)
	b.mu.Unlock()
	if ok && !p.taken {
		return nil // the database never had it
	}
	QueueBlobDeletes(b.db.st, []string{id})
	return nil
}

// NewAssembly starts an assembly in the directory store.
func (b *SmallBlobs) NewAssembly(ctx context.Context, size int64) (blob.Assembly, error) {
	return b.dir.NewAssembly(ctx, size)
}

// OpenAssembly reopens an assembly of the directory store.
func (b *SmallBlobs) OpenAssembly(ctx context.Context, id string, size int64) (blob.Assembly, error) {
	return b.dir.OpenAssembly(ctx, id, size)
}

// Len is how many small blobs there are, committed or waiting for a
// commit (tests).
func (b *SmallBlobs) Len() int {
	d := b.db
	d.flushMu.Lock() // the log's overlays stay as they are
	defer d.flushMu.Unlock()
	ids := map[string]bool{}
	_ = d.Bolt.View(func(tx *bolt.Tx) error {
		if bk := tx.Bucket([]byte(smallBucket)); bk != nil {
			_ = bk.ForEach(func(k, _ []byte) error { ids[string(k)] = true; return nil })
		}
		return nil
	})
	if d.log != nil {
		for _, o := range d.log.overlays() {
			for id, sp := range o.recs[smallBucket] {
				ids[id] = !sp.deleted()
			}
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for id := range b.pending {
		ids[id] = true
	}
	n := 0
	for _, ok := range ids {
		if ok {
			n++
		}
	}
	return n
}

// take marks every pending blob as being written by a flush and returns
// them in id order. It runs under the DB's flushMu.
func (b *SmallBlobs) take() []smallPut {
	b.mu.Lock()
	defer b.mu.Unlock()
	puts := make([]smallPut, 0, len(b.pending))
	for id, p := range b.pending {
		p.taken = true
		puts = append(puts, smallPut{id, p.data})
	}
	slices.SortFunc(puts, func(a, c smallPut) int { return cmp.Compare(a.id, c.id) })
	return puts
}

// done ends the flush of puts: committed, they leave memory (readers find
// them in the database); else they wait for the next commit.
func (b *SmallBlobs) done(puts []smallPut, committed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, put := range puts {
		p, ok := b.pending[put.id]
		if !ok {
			continue // deleted meanwhile: the delete is queued
		}
		if committed {
			delete(b.pending, put.id)
		} else {
			p.taken = false
		}
	}
}

// nopCloser is a ReadSeeker with a Close that does nothing.
type nopCloser struct{ io.ReadSeeker }

func (nopCloser) Close() error { return nil }

// sweepSmall deletes the small blobs that no record names: written by a
// commit that the records naming them never followed (the process died
// first, or a failed request's delete was not committed yet). keep is the
// blobs the state names (ReferencedBlobs).
func (d *DB) sweepSmall(keep map[string]bool) error {
	var gone [][]byte
	err := d.Bolt.View(func(tx *bolt.Tx) error {
		bk := tx.Bucket([]byte(smallBucket))
		if bk == nil {
			return nil
		}
		return bk.ForEach(func(k, _ []byte) error {
			if !keep[string(k)] {
				gone = append(gone, bytes.Clone(k))
			}
			return nil
		})
	})
	if err != nil || len(gone) == 0 {
		return err
	}
	err = d.Bolt.Update(func(tx *bolt.Tx) error {
		bk := tx.Bucket([]byte(smallBucket))
		for _, k := range gone {
			if err := bk.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("refserver: sweeping the small blobs: %w", err)
	}
	return nil
}

// missingSmall lists the small blobs of named that are not committed (the
// check mode: a record committed without its content).
func (d *DB) missingSmall(named map[string]bool) []error {
	var errs []error
	for _, id := range slices.Sorted(maps.Keys(named)) {
		if IsSmallBlob(id) {
			if _, ok, _ := d.StoredValue(smallBucket, id); !ok {
				errs = append(errs, fmt.Errorf("%s/%s: named by a record but not stored", smallBucket, id))
			}
		}
	}
	return errs
}

// liveContent is every blob the live items' versions name. Records of
// purged files that governance keeps name blobs too, but their content
// was deleted with the file (ReferencedBlobs keeps those from a sweep).
func liveContent(s *state.ReadTx) map[string]bool {
	named := map[string]bool{}
	for _, it := range s.Items.All() {
		for _, v := range it.Versions {
			named[v.Blob.ID()] = true
		}
	}
	return named
}
