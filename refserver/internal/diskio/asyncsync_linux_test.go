package diskio

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyncerSyncs: a Syncer's syncs (asynchronous where the kernel offers
// them) complete without error, one after the other and from concurrent
// goroutines, of one file and then of another, and what was written reads
// back; a closed file's sync fails, as fdatasync does; Close releases the
// Syncer, not the files.
func TestSyncerSyncs(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	require.NoError(t, err)
	g, err := os.Create(filepath.Join(t.TempDir(), "g"))
	require.NoError(t, err)
	defer g.Close()
	s := NewSyncer()
	for i := range 5 {
		_, err := f.WriteAt([]byte{byte('a' + i)}, int64(i))
		require.NoError(t, err)
		require.NoError(t, s.Sync(f))
	}
	var wg sync.WaitGroup
	for k := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, s.Sync([]*os.File{f, g}[k%2]))
		}()
	}
	wg.Wait()
	_, err = g.Write([]byte("other"))
	require.NoError(t, err)
	require.NoError(t, s.Sync(g), "one Syncer syncs another file")
	for file, want := range map[*os.File]string{f: "abcde", g: "other"} {
		got := make([]byte, 5)
		_, err = file.ReadAt(got, 0)
		require.NoError(t, err)
		assert.Equal(t, want, string(got))
	}

	require.NoError(t, s.Close())
	require.NoError(t, s.Close(), "a second Close does nothing")
	require.NoError(t, s.Sync(f), "a closed Syncer syncs blocking")
	_, err = f.Write([]byte("x"))
	require.NoError(t, err, "the file stays open")

	s = NewSyncer()
	defer s.Close()
	require.NoError(t, f.Close())
	assert.Error(t, s.Sync(f), "a closed file's sync fails")
}

// TestSyncerIsAsynchronous: where the kernel offers aio, the syncs go
// through it (the blocking fallback would hide a broken submission).
func TestSyncerIsAsynchronous(t *testing.T) {
	t.Parallel()
	f := tempFile(t)
	s := NewSyncer()
	defer s.Close()
	for range 3 {
		_, err := f.Write([]byte("data"))
		require.NoError(t, err)
		require.NoError(t, s.Sync(f))
		if s.ctx == 0 {
			t.Skip("no asynchronous I/O here (io_setup failed)")
		}
	}
	assert.Equal(t, 3, s.async)
}

// TestSyncerSetsUpOnFirstSync: a Syncer holds no aio context until it
// syncs (destroying one takes tens of milliseconds: a server that never
// synced under load closes at once), and a closed one sets none up.
func TestSyncerSetsUpOnFirstSync(t *testing.T) {
	t.Parallel()
	f := tempFile(t)
	s := NewSyncer()
	assert.Zero(t, s.ctx, "no context before the first sync")
	require.NoError(t, s.Close())
	require.NoError(t, s.Sync(f))
	assert.Zero(t, s.ctx, "a closed Syncer sets up no context")
	assert.Zero(t, s.async)
}

// tempFile is a new empty file, closed at the end of the test.
func tempFile(t *testing.T) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}
