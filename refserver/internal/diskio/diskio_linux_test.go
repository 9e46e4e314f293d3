package diskio

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestPreallocateReservesBlocksAndKeepsTheSize: the blocks of the
// whole file are reserved while its size stays what was written; data
// written later reads back and survives SyncData.
func TestPreallocateReservesBlocksAndKeepsTheSize(t *testing.T) {
	t.Parallel()
	f := tempFile(t)
	const size = 1 << 20
	if err := Preallocate(f, size); err != nil {
		t.Skipf("the file system of the temporary directory reserves no blocks: %v", err)
	}
	st, err := f.Stat()
	require.NoError(t, err)
	assert.Zero(t, st.Size(), "the size is left as it is")
	assert.GreaterOrEqual(t, st.Sys().(*syscall.Stat_t).Blocks*512, int64(size), "the blocks are reserved")
	require.NoError(t, Preallocate(f, 0), "nothing to reserve")

	_, err = f.WriteAt([]byte("tail"), size-4)
	require.NoError(t, err)
	require.NoError(t, SyncData(f))
	st, err = f.Stat()
	require.NoError(t, err)
	assert.Equal(t, int64(size), st.Size(), "the writes set the size")
	got := make([]byte, 4)
	_, err = f.ReadAt(got, size-4)
	require.NoError(t, err)
	assert.Equal(t, "tail", string(got))
}

// TestReadAheadCachesTheWholeFile: a file of several read-ahead chunks,
// dropped from the page cache, is cached whole after ReadAhead, its last
// partial chunk included, and reads back as written.
func TestReadAheadCachesTheWholeFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f")
	want := make([]byte, 3*readAheadChunk+12345)
	for i := range want {
		want[i] = byte(i * 7)
	}
	require.NoError(t, os.WriteFile(path, want, 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, f.Sync())
	require.NoError(t, unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED))
	m, err := unix.Mmap(int(f.Fd()), 0, len(want), unix.PROT_READ, unix.MAP_SHARED)
	require.NoError(t, err)
	defer unix.Munmap(m)
	resident := func() int {
		vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
		_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0])))
		require.Zero(t, errno)
		n := 0
		for _, v := range vec {
			n += int(v & 1)
		}
		return n
	}
	pages := (len(want) + os.Getpagesize() - 1) / os.Getpagesize()
	if resident() > pages/2 {
		t.Skip("the temporary directory's file system keeps the file cached (tmpfs?)")
	}

	ReadAhead(f)
	// The reads are issued, not done: wait for the disk (no fixed sleep).
	deadline := time.Now().Add(20 * time.Second)
	for resident() < pages && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, pages, resident(), "every page of the file is cached")
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got))
}
