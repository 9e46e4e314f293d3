package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.json")
	require.NoError(t, WriteFile(p, []byte("one"), 0o600))
	require.NoError(t, WriteFile(p, []byte("two"), 0o600), "replaces an existing file")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "two", string(b))
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")

	// A target that cannot be replaced (a directory) leaves no temporary file.
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(sub, "x"), nil, 0o600))
	assert.Error(t, WriteFile(sub, []byte("x"), 0o600))
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2)
	assert.Error(t, WriteFile(filepath.Join(dir, "missing", "f"), nil, 0o600), "the directory must exist")
}

func TestCreateTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seen := map[string]bool{}
	for range 20 {
		f, err := CreateTemp(dir, ".x.", ".part", 0o600)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		assert.False(t, seen[f.Name()])
		seen[f.Name()] = true
		assert.Equal(t, dir, filepath.Dir(f.Name()))
		base := filepath.Base(f.Name())
		assert.True(t, len(base) > len(".x..part"), base)
		if runtime.GOOS != "windows" {
			fi, err := os.Stat(f.Name())
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
		}
	}
}
