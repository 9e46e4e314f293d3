package main

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// planOf decodes a --dry-run --json output: the steps by path, and the
// summary line.
func planOf(t *testing.T, out string) (map[string]string, summary) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	steps := map[string]string{}
	for _, l := range lines[:len(lines)-1] {
		var s step
		require.NoError(t, json.Unmarshal([]byte(l), &s), l)
		steps[s.Path] = s.Action
	}
	var last struct {
		summary
		DryRun bool `json:"dry_run"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &last))
	require.True(t, last.DryRun)
	return steps, last.summary
}

// remoteSnapshot is every path of a folder's tree with its SHA-1.
func remoteSnapshot(t *testing.T, api *cms.Client, id string) map[string]string {
	out := map[string]string{}
	for e, err := range api.Folders.Walk(context.Background(), id, &cms.WalkOptions{Fields: []string{"name", "sha1"}}) {
		require.NoError(t, err)
		sum := ""
		if e.Item.File != nil {
			sum = e.Item.File.SHA1
		}
		out[e.Path] = sum
	}
	return out
}

// localSnapshot is every path of a directory's tree with its content.
func localSnapshot(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	}))
	return out
}

// TestDryRunTransfers: upload and download --dry-run say what a run would
// do (the run then does exactly that) and change nothing on either side.
func TestDryRunTransfers(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	src := t.TempDir()
	put(t, filepath.Join(src, "same.txt"), "same")
	put(t, filepath.Join(src, "changed.txt"), "old")
	put(t, filepath.Join(src, "Docs", "gone.txt"), "gone")
	put(t, filepath.Join(src, "old", "x.txt"), "x")
	c.runOK("mkdir", "/t")
	c.runOK("upload", src, "/t")
	require.NoError(t, os.RemoveAll(filepath.Join(src, "old")))
	require.NoError(t, os.Remove(filepath.Join(src, "Docs", "gone.txt")))
	put(t, filepath.Join(src, "changed.txt"), "new content")
	put(t, filepath.Join(src, "new", "n.txt"), "n")
	require.NoError(t, os.Rename(filepath.Join(src, "Docs"), filepath.Join(src, "docs")))

	var tid map[string]any
	require.NoError(t, json.Unmarshal([]byte(c.runOK("info", "/t")), &tid))
	before := remoteSnapshot(t, api, tid["id"].(string))
	out := c.runOK("upload", "--dry-run", "--delete", "--json", src, "/t")
	steps, planned := planOf(t, out)
	assert.Equal(t, map[string]string{
		"changed.txt": actUpdate, "new": actMkdir, "new/n.txt": actUpload, "docs": actRename,
		"Docs/gone.txt": actTrash, "old": actTrash,
	}, steps)
	assert.Equal(t, before, remoteSnapshot(t, api, tid["id"].(string)), "a dry run changes nothing")

	code, out, errOut := c.run("upload", "--delete", "--json", src, "/t")
	require.Equal(t, exitOK, code, errOut)
	done := lastJSON(t, out)
	assert.Equal(t, planned.Files, done.Files)
	assert.Equal(t, planned.Created, done.Created)
	assert.Equal(t, planned.Updated, done.Updated)
	assert.Equal(t, planned.Folders, done.Folders)
	assert.Equal(t, planned.Deleted, done.Deleted)
	assert.Equal(t, planned.Skipped, done.Skipped)

	// Download: into a copy that differs.
	dst := t.TempDir()
	c.runOK("download", "/t", dst)
	put(t, filepath.Join(dst, "changed.txt"), "local edit")
	put(t, filepath.Join(dst, "extra", "e.txt"), "extra")
	require.NoError(t, os.RemoveAll(filepath.Join(dst, "new")))
	localBefore := localSnapshot(t, dst)
	out = c.runOK("download", "--dry-run", "--delete", "--json", "/t", dst)
	steps, planned = planOf(t, out)
	assert.Equal(t, map[string]string{"changed.txt": actUpdate, "new": actMkdir, "new/n.txt": actDownload, "extra": actDelete}, steps)
	assert.Equal(t, localBefore, localSnapshot(t, dst), "a dry run changes nothing")
	code, out, errOut = c.run("download", "--delete", "--json", "/t", dst)
	require.Equal(t, exitOK, code, errOut)
	done = lastJSON(t, out)
	assert.Equal(t, planned.Files, done.Files)
	assert.Equal(t, planned.Skipped, done.Skipped)

	// One file, both ways.
	out = c.runOK("upload", "--dry-run", filepath.Join(src, "same.txt"), "/t")
	assert.Contains(t, out, "0 files to send")
	out = c.runOK("download", "--dry-run", "/t/new/n.txt", t.TempDir())
	assert.Contains(t, out, "dry run: download")
}

// TestFilteredTransfers: --exclude and --include choose what upload and
// download move; what they leave out is never sent, fetched or deleted.
func TestFilteredTransfers(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	src := t.TempDir()
	for _, p := range []string{"README.md", "src/a.go", "src/a_test.go", "node_modules/x/x.js"} {
		put(t, filepath.Join(src, filepath.FromSlash(p)), p)
	}
	c.runOK("mkdir", "/t")
	var tid map[string]any
	require.NoError(t, json.Unmarshal([]byte(c.runOK("info", "/t")), &tid))
	id := tid["id"].(string)
	code, out, errOut := c.run("upload", "--exclude", "node_modules", "--exclude", "*_test.go", "--json", src, "/t")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 2, lastJSON(t, out).Files)
	assert.Equal(t, map[string]string{"README.md": sha("README.md"), "src": "", "src/a.go": sha("src/a.go")}, remoteSnapshot(t, api, id))

	// An extra remote file: --delete with an include trashes only what the
	// include covers.
	_, _, err := api.Files.Upload(context.Background(), id, "old.md", strings.NewReader("old"), 3, nil)
	require.NoError(t, err)
	code, out, errOut = c.run("upload", "--delete", "--include", "*.md", "--json", src, "/t")
	require.Equal(t, exitOK, code, errOut)
	s := lastJSON(t, out)
	assert.Equal(t, 1, s.Deleted)
	assert.Equal(t, 1, s.Skipped)
	assert.Equal(t, map[string]string{"README.md": sha("README.md"), "src": "", "src/a.go": sha("src/a.go")}, remoteSnapshot(t, api, id))

	// A changed file and the include: a new version.
	put(t, filepath.Join(src, "src", "a.go"), "changed")
	code, out, errOut = c.run("upload", "--include", "*.go", "--exclude", "*_test.go", "--json", src, "/t")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 1, lastJSON(t, out).Updated)
	assert.Equal(t, "changed", c.runOK("cat", "/t/src/a.go"))

	dst := t.TempDir()
	put(t, filepath.Join(dst, "keep.txt"), "local only")
	code, out, errOut = c.run("download", "--exclude", "src/**", "--delete", "--include", "*.md", "--json", "/t", dst)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 1, lastJSON(t, out).Files)
	assert.Equal(t, map[string]string{".": "/", "README.md": "README.md", "keep.txt": "local only"}, localSnapshot(t, dst),
		"keep.txt is outside the include: not deleted")
	code, out, errOut = c.run("download", "--include", "*.go", "--json", "/t", dst)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 1, lastJSON(t, out).Files)
	assert.FileExists(t, filepath.Join(dst, "src", "a.go"))
}

// sha is the SHA-1 of s, in hex.
func sha(s string) string {
	h := sha1.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// TestFilteredTransferIsATreeTransfer: with --exclude or --include, upload
// and download run the SDK's tree transfer with its filter — the progress
// line counts the chosen files, and each folder is listed once, not once
// per file sent — and a folder left out is never listed.
func TestFilteredTransferIsATreeTransfer(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	src := t.TempDir()
	for _, p := range []string{"a/1.txt", "a/2.txt", "a/3.txt", "b/4.txt", "b/5.txt", "b/skip.log", "cache/x.txt"} {
		put(t, filepath.Join(src, filepath.FromSlash(p)), p)
	}
	c.runOK("mkdir", "/t")
	listings := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Role == "api" && r.Method == "GET" && strings.HasSuffix(r.Path, "/items") {
				n++
			}
		}
		return n
	}
	before := listings()
	code, out, errOut := c.run("upload", "--exclude", "cache", "--exclude", "*.log", "--json", src, "/t")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 5, lastJSON(t, out).Files)
	assert.Contains(t, errOut, "upload: 5/5 files", "the progress of the tree transfer")
	assert.LessOrEqual(t, listings()-before, 2, "the folder's tree is listed once (a path lookup aside), not once per file")

	// The remote tree gets a folder the filter leaves out: never listed.
	c.runOK("mkdir", "-p", "/t/cache/deep")
	var cache map[string]any
	require.NoError(t, json.Unmarshal([]byte(c.runOK("info", "/t/cache")), &cache))
	cacheList := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Method == "GET" && strings.HasSuffix(r.Path, "/folders/"+cache["id"].(string)+"/items") {
				n++
			}
		}
		return n
	}
	listedCache := cacheList()
	dst := t.TempDir()
	code, out, errOut = c.run("download", "--exclude", "cache", "--include", "*.txt", "--delete", "--json", "/t", dst)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 5, lastJSON(t, out).Files)
	assert.Contains(t, errOut, "download: 5/5 files")
	assert.Equal(t, listedCache, cacheList(), "a folder left out is never listed")
	assert.NoDirExists(t, filepath.Join(dst, "cache"))
}
