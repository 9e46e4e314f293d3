package cms_test

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pathRecorder counts the requests by method and path.
type pathRecorder struct {
	mu   sync.Mutex
	seen map[string]int
}

func (r *pathRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	if r.seen == nil {
		r.seen = map[string]int{}
	}
	r.seen[req.Method+" "+req.URL.Path]++
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (r *pathRecorder) count(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[key]
}

func (r *pathRecorder) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.seen {
		n += c
	}
	return n
}

// remoteTreePaths is every path below a folder ("/" after a folder's name).
func remoteTreePaths(t *testing.T, c *cms.Client, folderID string) []string {
	t.Helper()
	var out []string
	for e, err := range c.Folders.Walk(context.Background(), folderID, nil) {
		require.NoError(t, err)
		p := e.Path
		if e.Item.Type == "folder" {
			p += "/"
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// localPaths is every path below a directory ("/" after a directory's
// name).
func localPaths(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	}))
	sort.Strings(out)
	return out
}

func entryPaths(res *cms.TreeResult) []string {
	var out []string
	for _, e := range res.Entries {
		out = append(out, e.Path)
	}
	return out
}

// TestTreeFilter: TreeOptions.Filter leaves items out on both sides —
// never read, listed, sent, fetched, made or deleted (Mirror keeps them,
// and keeps what matches them on the other side, compared
// case-insensitively), absent from the result — and PruneEmptyDirs makes
// only the folders that will hold a file.
func TestTreeFilter(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	rec := &pathRecorder{}
	c := srv.Client(t, cms.WithHTTPClient(&http.Client{Transport: rec}))
	ctx := context.Background()
	root, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "filtered", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)

	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	src := t.TempDir()
	for _, p := range []string{"README.md", "src/a.go", "src/a_test.go", "node_modules/x/x.js", "tmp.log", "Keep.TXT"} {
		writeFile(t, filepath.Join(src, filepath.FromSlash(p)), p, when)
	}
	var calls []string
	var mu sync.Mutex
	filter := func(p string, isDir bool) bool {
		mu.Lock()
		calls = append(calls, p)
		mu.Unlock()
		name := path.Base(p)
		switch {
		case isDir:
			return name != "node_modules"
		case strings.HasSuffix(name, "_test.go"), strings.HasSuffix(name, ".log"), name == "Keep.TXT":
			return false
		}
		return true
	}
	opts := &cms.TreeOptions{Filter: filter}

	res, err := c.Transfers.UploadDir(ctx, src, root.ID, opts)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Created)
	assert.Equal(t, 1, res.Folders)
	assert.Equal(t, []string{"README.md", "src", "src/a.go"}, entryPaths(res), "what is left out is not in the result")
	assert.Equal(t, []string{"README.md", "src/", "src/a.go"}, remoteTreePaths(t, c, root.ID))
	mu.Lock()
	assert.NotContains(t, calls, "node_modules/x", "a directory left out is never read")
	mu.Unlock()

	// Remote items the filter leaves out, one matching a local item it
	// leaves out by case only, and one the local tree lacks.
	upload := func(folderID, name string) string {
		f, _, err := c.Files.Upload(ctx, folderID, name, strings.NewReader(name), int64(len(name)), nil)
		require.NoError(t, err)
		return f.ID
	}
	nm, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "node_modules", Parent: cms.FolderRef{ID: root.ID}}, nil)
	require.NoError(t, err)
	upload(nm.ID, "keep.js")
	debugLog := upload(root.ID, "debug.log")
	upload(root.ID, "keep.txt") // local Keep.TXT is left out: this one stays
	upload(root.ID, "old.txt")
	srcFolder, ok := res.Entry("src")
	require.True(t, ok)
	upload(srcFolder.ID, "b_test.go")

	opts.Mirror = true
	nmList := "GET /2.0/folders/" + nm.ID + "/items"
	res, err = c.Transfers.UploadDir(ctx, src, root.ID, opts)
	require.NoError(t, err)
	assert.Zero(t, rec.count(nmList), "a folder left out is never listed")
	assert.Equal(t, 1, res.Deleted)
	gone, _ := res.Entry("old.txt")
	assert.Equal(t, cms.OutcomeDeleted, gone.Outcome)
	assert.Equal(t, []string{"README.md", "debug.log", "keep.txt", "node_modules/", "node_modules/keep.js", "src/", "src/a.go", "src/b_test.go"},
		remoteTreePaths(t, c, root.ID), "Mirror trashes only what the filter keeps")

	// Down: the same filter on the remote tree and on the local one.
	dst := t.TempDir()
	writeFile(t, filepath.Join(dst, "local.log"), "left out: stays", when)
	writeFile(t, filepath.Join(dst, "debug.LOG"), "matches a remote path left out: stays", when)
	writeFile(t, filepath.Join(dst, "node_modules", "y.js"), "left out: stays", when)
	writeFile(t, filepath.Join(dst, "extra.txt"), "kept by the filter, not remote: deleted", when)
	listed := rec.count(nmList)
	res, err = c.Transfers.DownloadDir(ctx, root.ID, dst, opts)
	require.NoError(t, err)
	assert.Equal(t, listed, rec.count(nmList), "a folder left out is never listed")
	assert.Equal(t, 3, res.Created)
	assert.Equal(t, 1, res.Deleted)
	assert.Equal(t, []string{"README.md", "debug.LOG", "keep.txt", "local.log", "node_modules/", "node_modules/y.js", "src/", "src/a.go"},
		localPaths(t, dst))

	// One file: left out, nothing is read or sent.
	n := rec.total()
	res, err = c.Transfers.UploadFile(ctx, filepath.Join(src, "tmp.log"), root.ID, opts)
	require.NoError(t, err)
	assert.Zero(t, res.Created+res.Updated+res.Skipped+len(res.Failures))
	assert.Empty(t, res.Entries)
	assert.Equal(t, n, rec.total(), "nothing was sent")
	one := t.TempDir()
	res, err = c.Transfers.DownloadFile(ctx, debugLog, one, opts)
	require.NoError(t, err)
	assert.Empty(t, res.Entries)
	assert.Empty(t, localPaths(t, one), "a file left out is not fetched")
}

// TestTreeFilterPruneEmptyDirs: with a filter that chooses files, the
// folders walked into to find them are made only when they hold one
// (PruneEmptyDirs); without it every folder the filter keeps is made.
func TestTreeFilterPruneEmptyDirs(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	src := t.TempDir()
	for _, p := range []string{"README.md", "docs/guide.md", "docs/img/logo.png", "src/a.go", "src/deep/b.go"} {
		writeFile(t, filepath.Join(src, filepath.FromSlash(p)), p, when)
	}
	mdOnly := func(p string, isDir bool) bool { return isDir || strings.HasSuffix(p, ".md") }

	mk := func(name string) string {
		f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)
		return f.ID
	}
	all, pruned := mk("all"), mk("pruned")
	res, err := c.Transfers.UploadDir(ctx, src, all, &cms.TreeOptions{Filter: mdOnly})
	require.NoError(t, err)
	assert.Equal(t, 4, res.Folders)
	res, err = c.Transfers.UploadDir(ctx, src, pruned, &cms.TreeOptions{Filter: mdOnly, PruneEmptyDirs: true})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Folders)
	assert.Equal(t, []string{"README.md", "docs/", "docs/guide.md"}, remoteTreePaths(t, c, pruned))

	dst := t.TempDir()
	res, err = c.Transfers.DownloadDir(ctx, all, dst, &cms.TreeOptions{Filter: mdOnly, PruneEmptyDirs: true})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Created)
	assert.Equal(t, []string{"README.md", "docs/", "docs/guide.md"}, localPaths(t, dst))
	require.NoError(t, os.MkdirAll(filepath.Join(dst, "src"), 0o755))
	res, err = c.Transfers.DownloadDir(ctx, all, dst, &cms.TreeOptions{Filter: mdOnly, PruneEmptyDirs: true, Mirror: true})
	require.NoError(t, err)
	assert.Zero(t, res.Deleted, "a folder the remote has stays, pruned or not")
	assert.DirExists(t, filepath.Join(dst, "src"))
}
