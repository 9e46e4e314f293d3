package blob

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryStoreTruncatedReaderKeepsNothing: a Put whose reader fails
// (io.ErrUnexpectedEOF included) fails and keeps nothing.
func TestMemoryStoreTruncatedReaderKeepsNothing(t *testing.T) {
	t.Parallel()
	m := NewMemory()
	for _, size := range []int{10, memSegment, memSegment + 10} {
		_, err := m.Put(context.Background(), io.MultiReader(bytes.NewReader(make([]byte, size)), errReader{io.ErrUnexpectedEOF}))
		require.ErrorIs(t, err, io.ErrUnexpectedEOF, "size %d", size)
	}
	assert.Empty(t, m.blobs)
	for _, size := range []int{0, 1, memSegment - 1, memSegment, 2*memSegment + 7} {
		data := bytes.Repeat([]byte{byte(size)}, size)
		info, err := m.Put(context.Background(), bytes.NewReader(data))
		require.NoError(t, err)
		assert.Equal(t, int64(size), info.Size)
		assert.Equal(t, sha1Hex(data), info.SHA1)
		r, err := m.Open(context.Background(), info.ID)
		require.NoError(t, err)
		got, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got), "size %d read back", size)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestMemoryStoreKeepsSmallBlobsAtTheirSize: 200 blobs of 1 KB hold about
// 200 KB, not a 1 MiB segment each (200 MiB). Not parallel: it reads the
// heap of the whole process.
func TestMemoryStoreKeepsSmallBlobsAtTheirSize(t *testing.T) {
	m := NewMemory()
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	ids := make([]string, 200)
	for i := range ids {
		info, err := m.Put(context.Background(), strings.NewReader(fmt.Sprintf("%01000d", i)))
		require.NoError(t, err)
		ids[i] = info.ID
	}
	grown := int64(heap()) - int64(before)
	assert.Less(t, grown, int64(20<<20), "200 blobs of 1 KB grew the heap by %d bytes", grown)
	runtime.KeepAlive(m)
}

// TestDurableDirSyncsWhatItWrote: a durable store (a persisted server's) notes
// what it writes — a blob's bytes and its directory entry, an assembly's
// entry when it is made and when it becomes a blob — and SyncPending fsyncs
// all of it; an upload part's bytes are synced by its write itself; a store
// without persistence notes nothing.
func TestDurableDirSyncsWhatItWrote(t *testing.T) {
	t.Parallel()
	plain, err := NewDir(t.TempDir())
	require.NoError(t, err)
	assert.False(t, plain.durable)
	_, err = plain.Put(context.Background(), strings.NewReader("content"))
	require.NoError(t, err)
	assert.Empty(t, plain.unsynced)

	var mu sync.Mutex
	var events []string
	record := func(ev string) {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	}
	taken := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := events
		events = nil
		return out
	}
	d2 := &Dir{dir: t.TempDir(), durable: true, onSync: func(kind, name string) { record(kind + ":" + name) }}
	dirEvent := "dir:" + filepath.Base(d2.dir)
	ctx := context.Background()
	info, err := d2.Put(ctx, strings.NewReader("content"))
	require.NoError(t, err)
	assert.Empty(t, taken(), "Put leaves the syncs to the commit")
	require.NoError(t, d2.SyncPending())
	assert.ElementsMatch(t, []string{"file:" + info.ID + ".blob", dirEvent}, taken())
	require.NoError(t, d2.SyncPending())
	assert.Empty(t, taken(), "synced once")

	a, err := d2.NewAssembly(ctx, 8)
	require.NoError(t, err)
	_, err = a.WriteAt(ctx, strings.NewReader("abcd"), 0, 4)
	require.NoError(t, err)
	assert.Equal(t, []string{"file:" + AssemblyFile(a.ID())}, taken(), "a part is synced by its own write")
	require.NoError(t, d2.SyncPending())
	assert.Equal(t, []string{dirEvent}, taken(), "the assembly's entry, with the commit")
	_, err = a.WriteAt(ctx, strings.NewReader("efgh"), 4, 4)
	require.NoError(t, err)
	assert.Equal(t, []string{"file:" + AssemblyFile(a.ID())}, taken())
	blob, err := a.Finish(ctx, sha1Hex([]byte("abcdefgh")))
	require.NoError(t, err)
	require.NoError(t, d2.SyncPending())
	assert.ElementsMatch(t, []string{dirEvent, "file:" + blob.ID + ".blob"}, taken(),
		"the finished blob and its entry are synced with the commit")
}

func sha1Hex(b []byte) string { s := sha1.Sum(b); return hex.EncodeToString(s[:]) }
