//go:build linux || darwin || freebsd || netbsd || openbsd

package cms_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingCache counts the hits of a HashCache.
type countingCache struct {
	cms.HashCache
	hits atomic.Int32
}

func (c *countingCache) Get(path string, fi os.FileInfo) (string, bool) {
	sum, ok := c.HashCache.Get(path, fi)
	if ok {
		c.hits.Add(1)
	}
	return sum, ok
}

// TestFileHashCache: the SHA-1 of an unchanged file is remembered across
// runs (saved and loaded), an edit that keeps the size and puts the mtime
// back is still seen, and a corrupt file is an empty cache.
func TestFileHashCache(t *testing.T) {
	dir := t.TempDir()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	f := filepath.Join(dir, "f.txt")
	writeFile(t, f, "abc", when)
	cachePath := filepath.Join(dir, "cache", "hashes.json")
	c, err := cms.LoadFileHashCache(cachePath)
	require.NoError(t, err, "a missing file is an empty cache")
	fi, err := os.Stat(f)
	require.NoError(t, err)
	c.Put(f, fi, "a9993e364706816aba3e25717850c26c9cd0d89d")
	sum, ok := c.Get(f, fi)
	require.True(t, ok)
	assert.Equal(t, "a9993e364706816aba3e25717850c26c9cd0d89d", sum)
	require.NoError(t, c.Save())
	st, err := os.Stat(cachePath)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	c, err = cms.LoadFileHashCache(cachePath)
	require.NoError(t, err)
	assert.Equal(t, 1, c.Len())
	_, ok = c.Get(f, fi)
	assert.True(t, ok, "remembered across runs")
	time.Sleep(10 * time.Millisecond) // the kernel stamps ctime from a coarse clock: let it tick (no fake clock reaches it)
	writeFile(t, f, "xyz", when)      // same size, same mtime, other content
	fi2, err := os.Stat(f)
	require.NoError(t, err)
	require.Equal(t, fi.ModTime(), fi2.ModTime())
	_, ok = c.Get(f, fi2)
	assert.False(t, ok, "the change time tells the edit")

	require.NoError(t, os.WriteFile(cachePath, []byte("{not json"), 0o600))
	c, err = cms.LoadFileHashCache(cachePath)
	assert.Error(t, err)
	require.NotNil(t, c)
	assert.Zero(t, c.Len())

	// As TreeOptions.Hashes: the second run reads no unchanged file again.
	srv := cmstest.NewServer(t, cmstest.Options{})
	client := srv.Client(t)
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "a"), "1", when)
	writeFile(t, filepath.Join(src, "d", "b"), "2", when)
	cache, err := cms.LoadFileHashCache(filepath.Join(dir, "tree.json"))
	require.NoError(t, err)
	cc := &countingCache{HashCache: cache}
	_, err = client.Transfers.UploadDir(context.Background(), src, "0", &cms.TreeOptions{Hashes: cc})
	require.NoError(t, err)
	assert.Zero(t, cc.hits.Load())
	require.NoError(t, cache.Save())
	cache, err = cms.LoadFileHashCache(filepath.Join(dir, "tree.json"))
	require.NoError(t, err)
	cc = &countingCache{HashCache: cache}
	res, err := client.Transfers.UploadDir(context.Background(), src, "0", &cms.TreeOptions{Hashes: cc})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Skipped)
	assert.EqualValues(t, 2, cc.hits.Load(), "both hashes came from the cache")
}
