package blob

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/contentapi/cms/refserver/internal/diskio"
)

// Assembler is an optional interface of a Store: it builds one blob from
// the parts of an upload session as they arrive, so that committing the
// session neither copies nor hashes the content again. Both stores of this
// package implement it; with a Store that does not, each part is kept as a
// blob of its own and the parts are concatenated into a new blob at commit.
type Assembler interface {
	// NewAssembly starts a blob of size bytes that is written in parts.
	NewAssembly(ctx context.Context, size int64) (Assembly, error)
	// OpenAssembly reopens the assembly with the ID of an earlier one after
	// a restart (Options.DataDir keeps open upload sessions); an unknown id
	// is an error wrapping ErrNotFound.
	OpenAssembly(ctx context.Context, id string, size int64) (Assembly, error)
}

// Assembly is a blob being written in parts. WriteAt and ReadAt may be
// called concurrently for ranges that do not overlap.
type Assembly interface {
	// ID names the assembly for Assembler.OpenAssembly ("" when it cannot
	// be reopened).
	ID() string
	// WriteAt stores what r yields, at most n bytes, at offset off of the
	// blob, and returns how many bytes it stored. It stops at r's EOF.
	WriteAt(ctx context.Context, r io.Reader, off, n int64) (int64, error)
	// Drop forgets the part written at off: the server rejected it (a
	// digest or length that does not match), and a later WriteAt at the
	// same offset replaces it.
	Drop(off int64) error
	// ReadAt reads stored bytes back (io.ReaderAt).
	ReadAt(p []byte, off int64) (int, error)
	// Finish makes the written content a blob whose SHA1 (lower-case hex)
	// the caller computed; the assembly is then used up.
	Finish(ctx context.Context, sha1 string) (Info, error)
	// Discard drops the content; the assembly is then used up.
	Discard() error
}

// memAssembly collects the parts of a blob of the memory store as separate
// byte slices; Finish makes a blob of them without copying.
type memAssembly struct {
	m    *Memory
	id   string
	size int64

	mu     sync.Mutex
	chunks map[int64][]byte // by offset
	done   bool
}

// NewAssembly starts an assembly in memory whose parts are kept as they
// come (Assembler).
func (m *Memory) NewAssembly(_ context.Context, size int64) (Assembly, error) {
	a := &memAssembly{m: m, id: NewID(), size: size, chunks: map[int64][]byte{}}
	m.mu.Lock()
	m.pending[a] = struct{}{}
	m.mu.Unlock()
	return a, nil
}

// OpenAssembly finds nothing: memory does not outlive the process.
func (m *Memory) OpenAssembly(_ context.Context, id string, _ int64) (Assembly, error) {
	return nil, fmt.Errorf("assembly %q: %w", id, ErrNotFound)
}

// ID is the assembly's id (OpenAssembly never finds it again).
func (a *memAssembly) ID() string { return a.id }

// WriteAt reads the part (at most n bytes) into a chunk of its own at off.
func (a *memAssembly) WriteAt(ctx context.Context, r io.Reader, off, n int64) (int64, error) {
	if off < 0 || n < 0 || off+n > a.size {
		return 0, fmt.Errorf("refserver: write of %d bytes at %d outside a blob of %d", n, off, a.size)
	}
	buf := make([]byte, n)
	got, err := io.ReadFull(ctxReader{ctx, r}, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return int64(got), err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done {
		return int64(got), errAssemblyDone
	}
	a.chunks[off] = buf[:got]
	return int64(got), nil
}

// Drop forgets the chunk at off.
func (a *memAssembly) Drop(off int64) error {
	a.mu.Lock()
	delete(a.chunks, off)
	a.mu.Unlock()
	return nil
}

// ReadAt reads across the chunks; io.EOF where no chunk holds a byte.
func (a *memAssembly) ReadAt(p []byte, off int64) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for n < len(p) {
		c, start, ok := a.chunkAt(off + int64(n))
		if !ok {
			return n, io.EOF
		}
		n += copy(p[n:], c[off+int64(n)-start:])
	}
	return n, nil
}

// chunkAt finds the chunk holding byte pos. It runs under a.mu, which its callers take.
func (a *memAssembly) chunkAt(pos int64) ([]byte, int64, bool) {
	for start, c := range a.chunks {
		if pos >= start && pos < start+int64(len(c)) {
			return c, start, true
		}
	}
	return nil, 0, false
}

// Finish makes the chunks, which must leave no gap, a blob of the store
// without copying them.
func (a *memAssembly) Finish(_ context.Context, sha1 string) (Info, error) {
	a.mu.Lock()
	if a.done {
		a.mu.Unlock()
		return Info{}, errAssemblyDone
	}
	a.done = true
	offsets := make([]int64, 0, len(a.chunks))
	for off := range a.chunks {
		offsets = append(offsets, off)
	}
	slices.Sort(offsets)
	var segs [][]byte
	var size int64
	for _, off := range offsets {
		if off != size {
			a.mu.Unlock()
			return Info{}, fmt.Errorf("refserver: assembly has a gap at %d", size)
		}
		segs = append(segs, a.chunks[off])
		size += int64(len(a.chunks[off]))
	}
	a.mu.Unlock()
	id := NewID()
	a.m.mu.Lock()
	delete(a.m.pending, a)
	a.m.blobs[id] = segs
	a.m.mu.Unlock()
	return Info{ID: id, Size: size, SHA1: sha1}, nil
}

// Discard drops the chunks.
func (a *memAssembly) Discard() error {
	a.mu.Lock()
	a.done, a.chunks = true, nil
	a.mu.Unlock()
	a.m.mu.Lock()
	delete(a.m.pending, a)
	a.m.mu.Unlock()
	return nil
}

// chunkCount is how many parts the memory store holds in assemblies.
func (m *Memory) chunkCount() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	for a := range m.pending {
		a.mu.Lock()
		n += len(a.chunks)
		a.mu.Unlock()
	}
	return n
}

var errAssemblyDone = errors.New("refserver: assembly already finished or discarded")

// dirAssembly writes the parts of a blob of the directory store into one
// file at their offsets; Finish renames it into place.
type dirAssembly struct {
	d    *Dir
	id   string
	f    *os.File
	size int64
}

// AssemblyFile is the file name of the assembly with id.
func AssemblyFile(id string) string { return "assembly-" + id + ".tmp" }

// AssemblyID returns the id of an assembly file name.
func AssemblyID(name string) (string, bool) {
	id, ok := strings.CutPrefix(name, "assembly-")
	id, ok2 := strings.CutSuffix(id, ".tmp")
	if !ok || !ok2 || len(id) != 32 {
		return "", false
	}
	_, err := hex.DecodeString(id)
	return id, err == nil
}

// NewAssembly starts an assembly in a temporary file of the directory
// (AssemblyFile), which OpenAssembly finds again after a restart.
func (d *Dir) NewAssembly(_ context.Context, size int64) (Assembly, error) {
	id := NewID()
	f, err := os.OpenFile(filepath.Join(d.dir, AssemblyFile(id)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	_ = diskio.Preallocate(f, size) // a hint: a store without it writes all the same
	d.syncLater("", true)           // the session's state names the file
	return &dirAssembly{d: d, id: id, f: f, size: size}, nil
}

// OpenAssembly reopens the assembly file with id; ErrNotFound when there
// is none.
func (d *Dir) OpenAssembly(_ context.Context, id string, size int64) (Assembly, error) {
	if _, ok := AssemblyID(AssemblyFile(id)); !ok {
		return nil, fmt.Errorf("assembly %q: %w", id, ErrNotFound)
	}
	f, err := os.OpenFile(filepath.Join(d.dir, AssemblyFile(id)), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("assembly %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &dirAssembly{d: d, id: id, f: f, size: size}, nil
}

// ID is the assembly's id, which names its file.
func (a *dirAssembly) ID() string { return a.id }

// WriteAt copies the part (at most n bytes) into the file at off and, in a
// durable store, syncs it before it returns: the part is acknowledged once
// the session's state lists it, so its bytes must be on disk first. The
// sync is of the data and what reading it back needs (SyncData), into
// blocks NewAssembly reserved.
//
// The sync runs here, in the part's own request, rather than with the
// commit (SyncPending): concurrent parts then reach the disk while others
// still arrive, as a hand-written receiver's do, instead of all of them
// waiting for one commit's sync of the whole file and arriving again
// together (a 256 MiB upload ran at 0.89x of the ceiling that way). A
// sync that fails is noted for the commit, which tries again and fails
// the request if it fails too.
func (a *dirAssembly) WriteAt(ctx context.Context, r io.Reader, off, n int64) (int64, error) {
	if off < 0 || n < 0 || off+n > a.size {
		return 0, fmt.Errorf("refserver: write of %d bytes at %d outside a blob of %d", n, off, a.size)
	}
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	got, err := io.CopyBuffer(io.NewOffsetWriter(a.f, off), io.LimitReader(ctxReader{ctx, r}, n), *buf)
	if err == nil && a.d.durable {
		if serr := diskio.SyncData(a.f); serr != nil {
			a.d.syncLater(a.f.Name(), false)
		} else if a.d.onSync != nil {
			a.d.onSync("file", filepath.Base(a.f.Name()))
		}
	}
	return got, err
}

// Drop leaves the bytes in place: nothing reads an offset whose part was
// rejected, and the next part written there overwrites them.
func (a *dirAssembly) Drop(int64) error { return nil }

// ReadAt reads the file.
func (a *dirAssembly) ReadAt(p []byte, off int64) (int, error) { return a.f.ReadAt(p, off) }

// Finish closes the file and renames it into place as a new blob.
func (a *dirAssembly) Finish(_ context.Context, sha1 string) (Info, error) {
	st, err := a.f.Stat()
	if err != nil {
		return Info{}, err
	}
	if err := a.f.Close(); err != nil {
		_ = os.Remove(a.f.Name())
		return Info{}, err
	}
	id := NewID()
	p, _ := a.d.path(id)
	if err := os.Rename(a.f.Name(), p); err != nil {
		_ = os.Remove(a.f.Name())
		return Info{}, err
	}
	// Its parts are noted under the assembly's name, which is gone now.
	a.d.syncLater(p, true)
	return Info{ID: id, Size: st.Size(), SHA1: sha1}, nil
}

// Discard closes and removes the file.
func (a *dirAssembly) Discard() error {
	_ = a.f.Close()
	if err := os.Remove(a.f.Name()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// copyBuffers are the buffers of the stores' copies: large enough that a
// part is written and hashed in few system calls.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// Parts keeps each part as a blob of a Store that is not an
// Assembler, and concatenates them into a new blob at Finish.
type Parts struct {
	store Store
	size  int64

	mu    sync.Mutex
	parts map[int64]Info // by offset
	done  bool
}

// ID is "": the parts are blobs of their own, which the session's records
// name (PartBlob, RestorePart).
func (a *Parts) ID() string { return "" }

// PartBlob is the blob holding the part at off ("" if none).
func (a *Parts) PartBlob(off int64) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.parts[off].ID
}

// RestorePart puts back a part blob named by a stored session.
func (a *Parts) RestorePart(off int64, info Info) {
	a.mu.Lock()
	a.parts[off] = info
	a.mu.Unlock()
}

// Blobs are the ids of the part blobs.
func (a *Parts) Blobs() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := make([]string, 0, len(a.parts))
	for _, pt := range a.parts {
		ids = append(ids, pt.ID)
	}
	return ids
}

// WriteAt stores the part as a blob (replacing one at off).
func (a *Parts) WriteAt(ctx context.Context, r io.Reader, off, n int64) (int64, error) {
	info, err := a.store.Put(ctx, io.LimitReader(r, n))
	if err != nil {
		return 0, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	old, had := a.parts[off]
	if a.done {
		_ = a.store.Delete(context.WithoutCancel(ctx), info.ID)
		return info.Size, errAssemblyDone
	}
	a.parts[off] = info
	if had {
		_ = a.store.Delete(context.WithoutCancel(ctx), old.ID)
	}
	return info.Size, nil
}

// Drop deletes the part blob at off.
func (a *Parts) Drop(off int64) error {
	a.mu.Lock()
	info, ok := a.parts[off]
	delete(a.parts, off)
	a.mu.Unlock()
	if !ok {
		return nil
	}
	return a.store.Delete(context.Background(), info.ID)
}

// ReadAt reads from the part blob holding off (within that part only).
func (a *Parts) ReadAt(p []byte, off int64) (int, error) {
	a.mu.Lock()
	var (
		start int64
		info  Info
		found bool
	)
	for o, pi := range a.parts {
		if off >= o && off < o+pi.Size {
			start, info, found = o, pi, true
			break
		}
	}
	a.mu.Unlock()
	if !found {
		return 0, io.EOF
	}
	rc, err := a.store.Open(context.Background(), info.ID)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	if _, err := rc.Seek(off-start, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(rc, p[:min(int64(len(p)), start+info.Size-off)])
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

// Finish concatenates the parts, in offset order, into a new blob (whose
// SHA1 the store computes) and deletes them.
func (a *Parts) Finish(ctx context.Context, _ string) (Info, error) {
	a.mu.Lock()
	if a.done {
		a.mu.Unlock()
		return Info{}, errAssemblyDone
	}
	offsets := make([]int64, 0, len(a.parts))
	for off := range a.parts {
		offsets = append(offsets, off)
	}
	sort.Slice(offsets, func(i, j int) bool { return offsets[i] < offsets[j] })
	parts := make([]Info, len(offsets))
	for i, off := range offsets {
		parts[i] = a.parts[off]
	}
	a.mu.Unlock()
	readers := make([]io.Reader, 0, len(parts))
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			_ = c.Close()
		}
	}()
	for _, pt := range parts {
		rc, err := a.store.Open(ctx, pt.ID)
		if err != nil {
			return Info{}, err
		}
		closers = append(closers, rc)
		readers = append(readers, rc)
	}
	info, err := a.store.Put(ctx, io.MultiReader(readers...))
	if err != nil {
		return Info{}, err
	}
	_ = a.Discard()
	return info, nil
}

// Discard deletes the part blobs.
func (a *Parts) Discard() error {
	a.mu.Lock()
	parts := a.parts
	a.parts, a.done = nil, true
	a.mu.Unlock()
	var errs []error
	for _, pt := range parts {
		errs = append(errs, a.store.Delete(context.Background(), pt.ID))
	}
	return errors.Join(errs...)
}

// NewParts starts an assembly of size bytes that keeps each part as a blob
// of store, for a Store that is not an Assembler.
func NewParts(store Store, size int64) *Parts {
	return &Parts{store: store, size: size, parts: map[int64]Info{}}
}

// GetBuffer lends a 256 KiB copy buffer; PutBuffer gives it back.
func GetBuffer() *[]byte { return copyBuffers.Get().(*[]byte) }

// PutBuffer gives back a buffer of GetBuffer.
func PutBuffer(b *[]byte) { copyBuffers.Put(b) }
