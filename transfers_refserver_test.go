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
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	require.NoError(t, os.Chtimes(path, mtime, mtime))
}

func failurePaths(res *cms.TreeResult) []string {
	var out []string
	for _, f := range res.Failures {
		out = append(out, f.Path)
	}
	return out
}

// TestTreeTransfers: a local tree goes up (folders made, a big file in
// chunks, mtimes carried, a symlink skipped with a notice and a refused
// name reported), a re-run
// sends nothing, a change becomes a new version, the folder comes down
// (mtimes, atomic replace, skips), and Mirror alone deletes.
func TestTreeTransfers(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{ChunkedMinSize: 100, PartSize: 64})
	c := srv.Client(t)
	ctx := context.Background()
	root, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "tree", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)

	src := t.TempDir()
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	writeFile(t, filepath.Join(src, "top.txt"), "top", when)
	writeFile(t, filepath.Join(src, "a", "b.txt"), "bee", when.Add(time.Hour))
	writeFile(t, filepath.Join(src, "a", "c", "d.txt"), "dee", when)
	writeFile(t, filepath.Join(src, "big.bin"), strings.Repeat("0123456789", 30), when)
	writeFile(t, filepath.Join(src, "bad "), "trailing space", when)
	require.NoError(t, os.Symlink(filepath.Join(src, "top.txt"), filepath.Join(src, "link.txt")))

	var last cms.Progress
	opts := &cms.TreeOptions{ChunkedThreshold: 100, Progress: func(p cms.Progress) { last = p }}
	res, err := c.Transfers.UploadDir(ctx, src, root.ID, opts)
	require.NoError(t, err)
	assert.Equal(t, 4, res.Created)
	assert.Equal(t, 2, res.Folders)
	assert.ElementsMatch(t, []string{"bad "}, failurePaths(res))
	link, ok := res.Entry("link.txt")
	require.True(t, ok)
	assert.Equal(t, cms.OutcomeSymlink, link.Outcome, "a symlink inside the tree is skipped, not a failure")
	assert.ErrorIs(t, link.Err, cms.ErrSymlinkSkipped)
	assert.Equal(t, 1, res.Symlinks)
	assert.Equal(t, 4, last.FilesDone)
	assert.Equal(t, 4, last.TotalFiles)
	assert.EqualValues(t, 309, last.Bytes)
	sessions := 0
	for _, r := range srv.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/files/upload_sessions") {
			sessions++
		}
	}
	assert.Equal(t, 1, sessions, "the big file went in chunks")

	got := map[string]*cms.Item{}
	for e, err := range c.Folders.Walk(ctx, root.ID, &cms.WalkOptions{Fields: []string{"name", "content_modified_at", "sha1"}}) {
		require.NoError(t, err)
		got[e.Path] = e.Item
	}
	require.Contains(t, got, "a/c/d.txt")
	assert.Equal(t, when.Add(time.Hour), got["a/b.txt"].File.ContentModifiedAt.UTC(), "mtime → content_modified_at")
	assert.Equal(t, when, got["big.bin"].File.ContentModifiedAt.UTC(), "on the chunked path too")

	// A re-run sends no content; a change becomes a new version.
	srv.ResetRequests()
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, opts)
	require.NoError(t, err)
	assert.Equal(t, 4, res.Skipped)
	assert.Zero(t, res.Created+res.Updated)
	for _, r := range srv.Requests() {
		assert.NotEqual(t, "upload", r.Role, "nothing reached the upload root: %s %s", r.Method, r.Path)
	}
	writeFile(t, filepath.Join(src, "a", "b.txt"), "bee, changed", when.Add(2*time.Hour))
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, opts)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Updated)
	versions, _, err := c.FileVersions.ListByFile(ctx, got["a/b.txt"].ID, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, versions.TotalCount, "the old content is a version now")

	// Down: the tree, with mtimes; a re-run skips everything.
	dst := t.TempDir()
	res, err = c.Transfers.DownloadDir(ctx, root.ID, dst, nil)
	require.NoError(t, err)
	assert.Equal(t, 4, res.Created)
	assert.Empty(t, res.Failures)
	b, err := os.ReadFile(filepath.Join(dst, "a", "b.txt"))
	require.NoError(t, err)
	assert.Equal(t, "bee, changed", string(b))
	fi, err := os.Stat(filepath.Join(dst, "a", "b.txt"))
	require.NoError(t, err)
	assert.Equal(t, when.Add(2*time.Hour), fi.ModTime().UTC(), "content_modified_at → mtime")
	res, err = c.Transfers.DownloadDir(ctx, root.ID, dst, nil)
	require.NoError(t, err)
	assert.Equal(t, 4, res.Skipped)

	// A remote change replaces the local file, leaving no temporary file.
	_, _, err = c.Files.UploadVersion(ctx, got["top.txt"].ID, strings.NewReader("new top"), 7, nil)
	require.NoError(t, err)
	res, err = c.Transfers.DownloadDir(ctx, root.ID, dst, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Updated)
	entries, err := os.ReadDir(dst)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.HasSuffix(e.Name(), ".part"), e.Name())
	}

	// Nothing is deleted unless Mirror asks.
	writeFile(t, filepath.Join(dst, "local-only.txt"), "x", when)
	_, err = c.Transfers.DownloadDir(ctx, root.ID, dst, nil)
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dst, "local-only.txt"))
	res, err = c.Transfers.DownloadDir(ctx, root.ID, dst, &cms.TreeOptions{Mirror: true})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Deleted)
	assert.NoFileExists(t, filepath.Join(dst, "local-only.txt"))

	require.NoError(t, os.Remove(filepath.Join(src, "top.txt")))
	require.NoError(t, os.Remove(filepath.Join(src, "link.txt")))
	require.NoError(t, os.Remove(filepath.Join(src, "bad ")))
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, opts)
	require.NoError(t, err)
	assert.Zero(t, res.Deleted)
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, &cms.TreeOptions{Mirror: true, ChunkedThreshold: 100})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Deleted, "top.txt went to the trash")

	_, err = c.Transfers.UploadDir(ctx, src, root.ID, &cms.TreeOptions{Concurrency: -1})
	var argErr *cms.ArgError
	require.ErrorAs(t, err, &argErr)
}

// TestTreeTransferFaultAndInterruption: a file the service refuses fails
// alone (the report names it) while the rest completes; a run cancelled
// half-way leaves the rest to a re-run, which sends only what is left.
func TestTreeTransferFaultAndInterruption(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	root, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "faults", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	src := t.TempDir()
	when := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 6 {
		writeFile(t, filepath.Join(src, "d", string(rune('a'+i))+".txt"), strings.Repeat("x", i+1), when)
	}

	// Interrupted after two files (one at a time, so the count is exact).
	cctx, cancel := context.WithCancel(ctx)
	res, err := c.Transfers.UploadDir(cctx, src, root.ID, &cms.TreeOptions{Concurrency: 1, Progress: func(p cms.Progress) {
		if p.FilesDone >= 2 {
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)
	done := res.Created
	require.GreaterOrEqual(t, done, 2)
	require.Less(t, done, 6)
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, 6-done, res.Created, "the re-run sends only what is left")
	assert.Equal(t, done, res.Skipped)

	// Two changed files, one of which the service refuses.
	var ids = map[string]string{}
	for e, err := range c.Folders.Walk(ctx, root.ID, nil) {
		require.NoError(t, err)
		ids[e.Path] = e.Item.ID
	}
	writeFile(t, filepath.Join(src, "d", "a.txt"), "changed a", when)
	writeFile(t, filepath.Join(src, "d", "b.txt"), "changed b", when)
	srv.Inject(refserver.Fault{Role: "upload", Path: "/files/" + ids["d/a.txt"] + "/content", Status: 400, Count: 10})
	var last cms.Progress
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, &cms.TreeOptions{Progress: func(p cms.Progress) { last = p }})
	require.NoError(t, err)
	require.Len(t, res.Failures, 1)
	assert.Equal(t, "d/a.txt", res.Failures[0].Path)
	assert.Contains(t, res.Failures[0].Error(), "400", "the report says what the service answered")
	assert.Equal(t, 1, res.Updated, "b.txt went through")
	assert.Equal(t, 6, last.FilesDone+len(res.Failures), "every file counted, the failed one aside")
	srv.ClearFaults()
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Updated, "the re-run sends the one that failed")
	assert.EqualValues(t, len("changed a"), res.Bytes, "progress and totals count the bytes moved")
}

// TestSingleFileTransfers: UploadFile and DownloadFile follow the tree
// rules for one file.
func TestSingleFileTransfers(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "one.txt")
	when := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	writeFile(t, src, "one", when)
	res, err := c.Transfers.UploadFile(ctx, src, "0", nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Created)
	res, err = c.Transfers.UploadFile(ctx, src, "0", nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Skipped)
	writeFile(t, src, "one, changed", when)
	res, err = c.Transfers.UploadFile(ctx, src, "0", nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Updated)

	var id string
	for it, err := range c.Folders.ListItemsByMarkerIter(ctx, "0", nil) {
		require.NoError(t, err)
		if it.Name == "one.txt" {
			id = it.ID
		}
	}
	dir := t.TempDir()
	res, err = c.Transfers.DownloadFile(ctx, id, dir, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Created)
	b, err := os.ReadFile(filepath.Join(dir, "one.txt"))
	require.NoError(t, err)
	assert.Equal(t, "one, changed", string(b))
	fi, err := os.Stat(filepath.Join(dir, "one.txt"))
	require.NoError(t, err)
	assert.Equal(t, when, fi.ModTime().UTC())
	res, err = c.Transfers.DownloadFile(ctx, id, filepath.Join(dir, "one.txt"), nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Skipped)

	// The file the caller names is followed when it is a symlink; a
	// special file is refused.
	require.NoError(t, os.Symlink(src, filepath.Join(dir, "link")))
	res, err = c.Transfers.UploadFile(ctx, filepath.Join(dir, "link"), "0", nil)
	require.NoError(t, err)
	assert.Empty(t, res.Failures)
	assert.Equal(t, 1, res.Created, "the link's target, under the link's name")
	res, err = c.Transfers.UploadFile(ctx, os.DevNull, "0", nil)
	require.NoError(t, err)
	require.Len(t, res.Failures, 1)
	assert.ErrorIs(t, res.Failures[0], cms.ErrNotRegularFile)
}
