//go:build unix

package cms_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// remotePaths lists a folder's subtree by path.
func remotePaths(t *testing.T, c *cms.Client, folderID string) []string {
	t.Helper()
	var out []string
	for e, err := range c.Folders.Walk(context.Background(), folderID, &cms.WalkOptions{Ordered: true}) {
		require.NoError(t, err)
		out = append(out, e.Path)
	}
	return out
}

// TestUploadDirThroughSymlinkedRoot: a source directory named through a
// symbolic link is the directory's tree, for the decision and the walk
// alike, so Mirror never sees an empty tree and trashes the folder.
func TestUploadDirThroughSymlinkedRoot(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "linked", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	base := t.TempDir()
	src := filepath.Join(base, "real")
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	writeFile(t, filepath.Join(src, "a.txt"), "a", when)
	writeFile(t, filepath.Join(src, "sub", "b.txt"), "b", when)
	link := filepath.Join(base, "link")
	require.NoError(t, os.Symlink(src, link))

	res, err := c.Transfers.UploadDir(ctx, src, folder.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Created)

	res, err = c.Transfers.UploadDir(ctx, link, folder.ID, &cms.TreeOptions{Mirror: true})
	require.NoError(t, err)
	assert.Zero(t, res.Deleted, "nothing trashed")
	assert.Equal(t, 2, res.Skipped)
	assert.Equal(t, []string{"a.txt", "sub", "sub/b.txt"}, remotePaths(t, c, folder.ID))

	fresh, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "fresh", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	res, err = c.Transfers.UploadDir(ctx, link, fresh.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Created, "the link's directory is uploaded")
	assert.Equal(t, 1, res.Folders)
}

// TestUploadDirSymlinksInside: links inside the tree are skipped with a
// notice (not failures; Mirror keeps a remote item of their name), or with
// FollowSymlinks followed, a link to a directory above it failing as a
// loop instead of being followed forever.
func TestUploadDirSymlinksInside(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	base := t.TempDir()
	src, other := filepath.Join(base, "src"), filepath.Join(base, "other")
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	writeFile(t, filepath.Join(src, "plain.txt"), "p", when)
	writeFile(t, filepath.Join(src, "d", "x.txt"), "x", when)
	writeFile(t, filepath.Join(other, "o.txt"), "o", when)
	require.NoError(t, os.Symlink(other, filepath.Join(src, "outside")))
	require.NoError(t, os.Symlink(filepath.Join(src, "plain.txt"), filepath.Join(src, "flink")))
	require.NoError(t, os.Symlink(src, filepath.Join(src, "d", "loop")))
	require.NoError(t, os.Symlink(filepath.Join(base, "missing"), filepath.Join(src, "dangling")))

	t.Run("skipped by default", func(t *testing.T) {
		folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "skip", Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)
		_, _, err = c.Files.UploadInOneRequest(ctx, folder.ID, "flink", strings.NewReader("remote"), 6, nil)
		require.NoError(t, err)
		res, err := c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{Mirror: true})
		require.NoError(t, err)
		assert.Empty(t, res.Failures)
		assert.Equal(t, 4, res.Symlinks)
		for _, p := range []string{"outside", "flink", "d/loop", "dangling"} {
			e, ok := res.Entry(p)
			require.True(t, ok, p)
			assert.Equal(t, cms.OutcomeSymlink, e.Outcome, p)
			assert.ErrorIs(t, e.Err, cms.ErrSymlinkSkipped, p)
		}
		assert.Zero(t, res.Deleted, "a remote item named as a skipped link stays")
		assert.Equal(t, []string{"d", "d/x.txt", "flink", "plain.txt"}, remotePaths(t, c, folder.ID))
	})
	t.Run("followed with loop detection", func(t *testing.T) {
		folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "follow", Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)
		res, err := c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{FollowSymlinks: true})
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"d/loop", "dangling"}, failurePaths(res))
		loop, _ := res.Entry("d/loop")
		assert.ErrorIs(t, loop.Err, cms.ErrSymlinkLoop)
		assert.Equal(t, []string{"d", "d/x.txt", "flink", "outside", "outside/o.txt", "plain.txt"}, remotePaths(t, c, folder.ID))
	})
}
