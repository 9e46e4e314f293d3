package cms_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTreeResultEntries: a tree transfer returns, per path and in path
// order, the remote id and what it did, so a program can act on the files
// without walking again; progress counts unchanged bytes apart from the
// bytes sent.
func TestTreeResultEntries(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "results", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	src := t.TempDir()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	writeFile(t, filepath.Join(src, "a.txt"), "aaaa", when)
	writeFile(t, filepath.Join(src, "d", "b.txt"), "bb", when)
	writeFile(t, filepath.Join(src, "d", "e", "c.txt"), "c", when)
	writeFile(t, filepath.Join(src, "bad "), "refused", when)

	remoteIDs := func() map[string]string {
		out := map[string]string{}
		for e, err := range c.Folders.Walk(ctx, folder.ID, nil) {
			require.NoError(t, err)
			out[e.Path] = e.Item.ID
		}
		return out
	}
	outcomes := func(res *cms.TreeResult) map[string]cms.TreeOutcome {
		out := map[string]cms.TreeOutcome{}
		for p, e := range res.All() {
			out[p] = e.Outcome
		}
		return out
	}

	res, err := c.Transfers.UploadDir(ctx, src, folder.ID, nil)
	require.NoError(t, err)
	ids := remoteIDs()
	require.True(t, slices.IsSortedFunc(res.Entries, func(a, b cms.TreeEntry) int { return strings.Compare(a.Path, b.Path) }))
	assert.Equal(t, map[string]cms.TreeOutcome{
		"a.txt": cms.OutcomeCreated, "bad ": cms.OutcomeFailed, "d": cms.OutcomeCreated,
		"d/b.txt": cms.OutcomeCreated, "d/e": cms.OutcomeCreated, "d/e/c.txt": cms.OutcomeCreated,
	}, outcomes(res))
	for _, e := range res.Entries {
		if e.Outcome == cms.OutcomeFailed {
			assert.Error(t, e.Err)
			assert.Empty(t, e.ID)
			continue
		}
		assert.Equal(t, ids[e.Path], e.ID, "%s: the remote id", e.Path)
	}
	b, ok := res.Entry("d/b.txt")
	require.True(t, ok)
	assert.Equal(t, cms.ItemTypeFile, b.Type)
	assert.EqualValues(t, 2, b.Size)
	d, _ := res.Entry("d")
	assert.Equal(t, cms.ItemTypeFolder, d.Type)
	_, ok = res.Entry("nope")
	assert.False(t, ok)

	// Unchanged bytes are not sent bytes.
	writeFile(t, filepath.Join(src, "a.txt"), "AAAAAA", when)
	var last cms.Progress
	res, err = c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{Progress: func(p cms.Progress) { last = p }})
	require.NoError(t, err)
	assert.Equal(t, map[string]cms.TreeOutcome{
		"a.txt": cms.OutcomeUpdated, "bad ": cms.OutcomeFailed, "d": cms.OutcomeUnchanged,
		"d/b.txt": cms.OutcomeUnchanged, "d/e": cms.OutcomeUnchanged, "d/e/c.txt": cms.OutcomeUnchanged,
	}, outcomes(res))
	a, _ := res.Entry("a.txt")
	assert.Equal(t, ids["a.txt"], a.ID, "a new version keeps the id")
	assert.EqualValues(t, 6, res.Bytes)
	assert.EqualValues(t, 3, res.SkippedBytes)
	assert.EqualValues(t, 6, last.Bytes, "only what was sent")
	assert.EqualValues(t, 3, last.SkippedBytes)
	assert.EqualValues(t, 9, last.TotalBytes)

	// Down, and Mirror's deletions, with the same shape.
	dst := t.TempDir()
	writeFile(t, filepath.Join(dst, "extra.txt"), "x", when)
	res, err = c.Transfers.DownloadDir(ctx, folder.ID, dst, &cms.TreeOptions{Mirror: true, Progress: func(p cms.Progress) { last = p }})
	require.NoError(t, err)
	assert.Equal(t, map[string]cms.TreeOutcome{
		"a.txt": cms.OutcomeCreated, "d": cms.OutcomeCreated, "d/b.txt": cms.OutcomeCreated,
		"d/e": cms.OutcomeCreated, "d/e/c.txt": cms.OutcomeCreated, "extra.txt": cms.OutcomeDeleted,
	}, outcomes(res))
	for _, e := range res.Entries {
		if e.Outcome != cms.OutcomeDeleted {
			assert.Equal(t, ids[e.Path], e.ID, e.Path)
		}
	}
	res, err = c.Transfers.DownloadDir(ctx, folder.ID, dst, &cms.TreeOptions{Progress: func(p cms.Progress) { last = p }})
	require.NoError(t, err)
	assert.Zero(t, last.Bytes, "nothing fetched")
	assert.EqualValues(t, 9, last.SkippedBytes)
	assert.EqualValues(t, 9, res.SkippedBytes)
	assert.Zero(t, res.Bytes)

	require.NoError(t, os.RemoveAll(filepath.Join(src, "d")))
	require.NoError(t, os.Remove(filepath.Join(src, "bad ")))
	res, err = c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{Mirror: true})
	require.NoError(t, err)
	gone, ok := res.Entry("d")
	require.True(t, ok)
	assert.Equal(t, cms.TreeEntry{Path: "d", Type: cms.ItemTypeFolder, ID: ids["d"], Outcome: cms.OutcomeDeleted}, gone)
	assert.Len(t, res.Entries, 2, "a.txt and d: what is below a trashed folder is not listed")
}
