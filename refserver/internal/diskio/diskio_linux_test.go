package diskio

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPreallocateReservesBlocksAndKeepsTheSize: the blocks of the
// whole file are reserved while its size stays what was written; data
// written later reads back and survives SyncData.
func TestPreallocateReservesBlocksAndKeepsTheSize(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	require.NoError(t, err)
	defer f.Close()
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
