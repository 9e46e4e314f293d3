package blob

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/contentapi/cms/refserver/internal/diskio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDirAssemblyReservesItsBlocks: a directory store's assembly reserves
// the blocks of the whole blob when it starts, without giving the file
// that size; parts written out of order then make a blob of exactly the
// written bytes.
func TestDirAssemblyReservesItsBlocks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := &Dir{dir: t.TempDir(), durable: true}
	const part = 256 << 10
	content := bytes.Repeat([]byte("0123456789abcdef"), 3*part/16+7) // 3 parts and a short one
	a, err := d.NewAssembly(ctx, int64(len(content)))
	require.NoError(t, err)
	st, err := os.Stat(filepath.Join(d.dir, AssemblyFile(a.ID())))
	require.NoError(t, err)
	assert.Zero(t, st.Size(), "nothing written yet")
	if reserves(t, d.dir) {
		assert.GreaterOrEqual(t, st.Sys().(*syscall.Stat_t).Blocks*512, int64(len(content)), "the whole blob's blocks are reserved")
	}

	for _, off := range []int64{3 * part, part, 0, 2 * part} {
		end := min(off+part, int64(len(content)))
		n, err := a.WriteAt(ctx, bytes.NewReader(content[off:end]), off, end-off)
		require.NoError(t, err)
		assert.Equal(t, end-off, n)
	}
	info, err := a.Finish(ctx, sha1Hex(content))
	require.NoError(t, err)
	assert.Equal(t, int64(len(content)), info.Size)
	rc, err := d.Open(ctx, info.ID)
	require.NoError(t, err)
	defer rc.Close()
	got, err := io.ReadAll(rc)
	require.NoError(t, err)
	assert.Equal(t, content, got)
}

// reserves reports whether the file system of dir reserves blocks
// (diskio.Preallocate); one that does not only costs speed.
func reserves(t *testing.T, dir string) bool {
	f, err := os.CreateTemp(dir, "probe-")
	require.NoError(t, err)
	defer os.Remove(f.Name())
	defer f.Close()
	if err := diskio.Preallocate(f, 1); err != nil {
		t.Logf("the file system reserves no blocks (%v): not checked", err)
		return false
	}
	return true
}
