// Package blob keeps the reference server's file content: the Store
// interface, a store in memory and one in a directory, and assemblies that
// build one blob from the parts of an upload session as they arrive. It
// imports nothing of the server; refserver's Store, BlobInfo, Assembler
// and Assembly are aliases of its types.
package blob

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// ErrNotFound is returned by a Store for an unknown blob id.
var ErrNotFound = errors.New("refserver: blob not found")

// Info describes a stored blob.
type Info struct {
	ID   string // opaque id chosen by the store
	Size int64  // bytes
	SHA1 string // lower-case hex SHA1 of the bytes
}

// Store keeps file content. Blobs are immutable once written. Implementations
// must be safe for concurrent use.
type Store interface {
	// Put streams r into a new blob, hashing it on the way, and returns its
	// description. On error nothing is kept.
	Put(ctx context.Context, r io.Reader) (Info, error)
	// Open returns a reader over the blob; Seek supports Range requests.
	// It returns an error wrapping ErrNotFound for an unknown id.
	Open(ctx context.Context, id string) (io.ReadSeekCloser, error)
	// Delete removes the blob. Deleting an unknown id is not an error.
	// Readers opened before Delete may keep reading.
	Delete(ctx context.Context, id string) error
}

// NewID returns a random 32-hex-digit id: a blob's or an assembly's.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ctxReader fails reads once ctx is done, so a Put stops with its request.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Read reads from r unless ctx is done.
func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Memory keeps blobs in memory, each as a list of segments: a blob
// assembled from upload parts keeps the parts' memory without copying it.
type Memory struct {
	mu      sync.RWMutex
	blobs   map[string][][]byte
	pending map[*memAssembly]struct{} // assemblies not finished yet
}

// NewMemory returns a Store that keeps blobs in memory.
func NewMemory() *Memory {
	return &Memory{blobs: make(map[string][][]byte), pending: make(map[*memAssembly]struct{})}
}

// memSegment is the size of the segments Put reads into: a growing blob is
// never copied to a larger buffer. A full segment is kept as it is; the
// last, partly filled one is copied to a slice of its own size and the
// segment goes back to memSegments, so a blob keeps what was sent at its
// size (a 1 KB blob holds 1 KB, not a 1 MiB segment).
const memSegment = 1 << 20

// memSegments recycles the segments Put reads into.
var memSegments = sync.Pool{New: func() any { return new([memSegment]byte) }}

// Put reads r to its end. Only io.EOF ends a blob: any other error of r,
// io.ErrUnexpectedEOF of a truncated multipart body included, fails the Put
// and keeps nothing.
func (m *Memory) Put(ctx context.Context, r io.Reader) (Info, error) {
	h := sha1.New()
	var segs [][]byte
	var n int64
	r = ctxReader{ctx, r}
	seg := memSegments.Get().(*[memSegment]byte)
	filled := 0
	for {
		got, err := r.Read(seg[filled:])
		filled += got
		if filled == memSegment {
			segs = append(segs, seg[:])
			h.Write(seg[:])
			n += memSegment
			seg, filled = memSegments.Get().(*[memSegment]byte), 0
		}
		if err == io.EOF { //nolint:errorlint // a reader's end, as io.Reader documents it
			break
		}
		if err != nil {
			memSegments.Put(seg)
			return Info{}, err
		}
	}
	if filled > 0 {
		last := bytes.Clone(seg[:filled])
		segs = append(segs, last)
		h.Write(last)
		n += int64(filled)
	}
	memSegments.Put(seg)
	id := NewID()
	m.mu.Lock()
	m.blobs[id] = segs
	m.mu.Unlock()
	return Info{ID: id, Size: n, SHA1: hex.EncodeToString(h.Sum(nil))}, nil
}

// Open reads the blob's segments as one stream; ErrNotFound for an
// unknown id.
func (m *Memory) Open(_ context.Context, id string) (io.ReadSeekCloser, error) {
	m.mu.RLock()
	segs, ok := m.blobs[id]
	m.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("open %q: %w", id, ErrNotFound)
	}
	return newSegmentReader(segs), nil
}

// Delete forgets the blob (readers already open keep its segments).
func (m *Memory) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	delete(m.blobs, id)
	m.mu.Unlock()
	return nil
}

// segmentReader reads a list of byte slices as one stream, with Seek.
type segmentReader struct {
	segs      [][]byte
	starts    []int64 // offset of each segment
	size, pos int64
}

func newSegmentReader(segs [][]byte) *segmentReader {
	r := &segmentReader{segs: segs, starts: make([]int64, len(segs))}
	for i, s := range segs {
		r.starts[i] = r.size
		r.size += int64(len(s))
	}
	return r
}

// Read reads from the segment holding the position.
func (r *segmentReader) Read(p []byte) (int, error) {
	if r.pos >= r.size {
		return 0, io.EOF
	}
	// The segment holding pos: the last one starting at or before it.
	i := sort.Search(len(r.starts), func(i int) bool { return r.starts[i] > r.pos }) - 1
	n := copy(p, r.segs[i][r.pos-r.starts[i]:])
	r.pos += int64(n)
	return n, nil
}

// Seek moves the position (past the end reads io.EOF).
func (r *segmentReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += r.pos
	case io.SeekEnd:
		offset += r.size
	}
	if offset < 0 {
		return 0, errors.New("refserver: seek before the start of a blob")
	}
	r.pos = offset
	return offset, nil
}

// Close does nothing.
func (r *segmentReader) Close() error { return nil }

// Dir keeps each blob in a file of a directory.
type Dir struct {
	dir string
	// durable makes the store keep a list of what it writes — a blob's
	// bytes and its directory entry, an upload part's bytes, an assembly
	// file's entry — for the next commit of the state to fsync before it
	// commits (SyncPending). A persisted server (Options.DataDir) sets it,
	// so that content is on disk before the state that refers to it
	// commits, and one commit syncs the content of every request it
	// carries together; without persistence nothing survives a restart
	// anyway.
	durable bool
	// onSync, when set (tests), is called after each sync with "file" or
	// "dir" and the name synced; it may be called from several goroutines
	// at once.
	onSync func(kind, name string)

	unsyncedMu  sync.Mutex
	unsynced    map[string]struct{} // paths of files written since the last SyncPending
	dirUnsynced bool                // an entry was made or renamed since the last SyncPending
}

// NewDir returns a Store that keeps blobs as files in dir, creating it
// if needed. Use it for content too large for memory.
func NewDir(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("refserver: dir store: %w", err)
	}
	return &Dir{dir: dir}, nil
}

func (d *Dir) path(id string) (string, error) {
	if len(id) != 32 {
		return "", fmt.Errorf("blob %q: %w", id, ErrNotFound)
	}
	if _, err := hex.DecodeString(id); err != nil {
		return "", fmt.Errorf("blob %q: %w", id, ErrNotFound)
	}
	return filepath.Join(d.dir, id+".blob"), nil
}

// Put writes the blob under its final name: no one knows the id before Put
// returns, and a crash mid-write leaves a file no state names, which the
// sweep of the next start removes (internal/persist's SweepBlobs).
func (d *Dir) Put(ctx context.Context, r io.Reader) (info Info, err error) {
	id := NewID()
	p, _ := d.path(id)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return Info{}, err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(p)
		}
	}()
	h := sha1.New()
	n, err := io.Copy(io.MultiWriter(f, h), ctxReader{ctx, r})
	if err != nil {
		return Info{}, err
	}
	if err = f.Close(); err != nil {
		return Info{}, err
	}
	d.syncLater(p, true)
	return Info{ID: id, Size: n, SHA1: hex.EncodeToString(h.Sum(nil))}, nil
}

// Open opens the blob's file; ErrNotFound for an unknown or malformed id.
func (d *Dir) Open(_ context.Context, id string) (io.ReadSeekCloser, error) {
	p, err := d.path(id)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("open %q: %w", id, ErrNotFound)
	}
	return f, err
}

// Delete removes the blob's file; an unknown id is no error.
func (d *Dir) Delete(_ context.Context, id string) error {
	p, err := d.path(id)
	if err != nil {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Len is how many blobs the store holds, counting each part written to an
// unfinished assembly as one (tests compare it before and after a failure).
func (m *Memory) Len() int {
	m.mu.RLock()
	n := len(m.blobs)
	m.mu.RUnlock()
	return n + m.chunkCount()
}

// Path is the directory the store keeps its files in.
func (d *Dir) Path() string { return d.dir }

// MakeDurable makes the store note what it writes — a blob's bytes and its
// directory entry, an upload part's bytes, an assembly file's entry — for
// SyncPending to fsync before the state that names it commits. A persisted
// server calls it once, before any write.
func (d *Dir) MakeDurable() { d.durable = true }

// Durable reports whether MakeDurable was called.
func (d *Dir) Durable() bool { return d.durable }

// SetOnSync sets a function called after each sync with "file" or "dir" and
// the name synced (tests); it may be called from several goroutines at once.
// Set it before the store is shared.
func (d *Dir) SetOnSync(f func(kind, name string)) { d.onSync = f }
