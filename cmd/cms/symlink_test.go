package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUploadSymlinkSourceDelete: SRC a symlink to a directory uploads
// that directory; --delete never sees an empty tree and trashes nothing
// the directory has (it used to trash everything in the folder).
func TestUploadSymlinkSourceDelete(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	ctx := context.Background()
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	put(t, filepath.Join(real, "a.txt"), "a")
	put(t, filepath.Join(real, "sub", "b.txt"), "b")
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(real, link))
	code, _, errOut := c.run("mkdir", "/target")
	require.Equal(t, exitOK, code, errOut)
	code, out, errOut := c.run("upload", real, "/target", "--json")
	require.Equal(t, exitOK, code, errOut)
	require.Equal(t, 2, lastJSON(t, out).Files)

	code, out, errOut = c.run("upload", "--delete", link, "/target", "--json")
	require.Equal(t, exitOK, code, errOut)
	s := lastJSON(t, out)
	assert.Equal(t, 0, s.Deleted, "nothing trashed")
	assert.Equal(t, 2, s.Skipped, "the link's tree is the directory's")
	var names []string
	for e, err := range api.Folders.Walk(ctx, "0", nil) {
		require.NoError(t, err)
		names = append(names, e.Path)
	}
	assert.Contains(t, names, "target/a.txt")
	assert.Contains(t, names, "target/sub/b.txt")
}

// TestLsStableOrder: ls prints sorted by name, ls -r depth first by name,
// the same every run.
func TestLsStableOrder(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	src := t.TempDir()
	for _, p := range []string{"z.txt", "b/y.txt", "b/a.txt", "a/z/k.txt", "a/c.txt", "m.txt", "c/d/e/f.txt"} {
		put(t, filepath.Join(src, filepath.FromSlash(p)), p)
	}
	code, _, errOut := c.run("upload", src, "0")
	require.Equal(t, exitOK, code, errOut)
	var first string
	for i := range 5 {
		code, out, errOut := c.run("ls", "-r", "0", "--json")
		require.Equal(t, exitOK, code, errOut)
		var items []listed
		require.NoError(t, json.Unmarshal([]byte(out), &items))
		var paths []string
		for _, it := range items {
			paths = append(paths, it.Path)
		}
		assert.Equal(t, []string{"a", "a/c.txt", "a/z", "a/z/k.txt", "b", "b/a.txt", "b/y.txt", "c", "c/d", "c/d/e", "c/d/e/f.txt", "m.txt", "z.txt"}, paths)
		if i == 0 {
			first = out
		}
		assert.Equal(t, first, out, "the same every run")
	}
	code, out, _ := c.run("ls", "/")
	require.Equal(t, exitOK, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5)
	assert.True(t, strings.HasSuffix(lines[0], " a"), lines[0])
	assert.True(t, strings.HasSuffix(lines[4], " z.txt"), lines[4])
}

// TestSharePasswordSafely: the password from standard input or the
// environment, never on the command line; never printed.
func TestSharePasswordSafely(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	f, _, err := api.Files.Upload(context.Background(), "0", "s.txt", strings.NewReader("s"), 1, nil)
	require.NoError(t, err)
	code, out, errOut := c.runStdin("From-Stdin-123\n", "share", "--password-stdin", "file:"+f.ID, "--json")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"is_password_enabled":true`)
	assert.NotContains(t, out+errOut, "From-Stdin-123")

	c.env["CMS_SHARE_PASSWORD"] = "From-Env-456"
	code, out, errOut = c.run("share", "/s.txt", "--json")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"is_password_enabled":true`)
	delete(c.env, "CMS_SHARE_PASSWORD")

	code, _, errOut = c.runStdin("", "share", "--password-stdin", "file:"+f.ID)
	assert.Equal(t, exitUsage, code, errOut)
	code, _, errOut = c.runStdin("x\n", "share", "--password-stdin", "--password", "y", "file:"+f.ID)
	assert.Equal(t, exitUsage, code, errOut)
	_ = cms.ErrNotFound
}

// TestFollowSymlinksAndProgress: -L uploads what a link in the tree points
// at; a re-run's progress counts the unchanged bytes apart, never as sent.
func TestFollowSymlinksAndProgress(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	put(t, filepath.Join(src, "a.txt"), "aaaa")
	put(t, filepath.Join(dir, "outside.txt"), "outside")
	require.NoError(t, os.Symlink(filepath.Join(dir, "outside.txt"), filepath.Join(src, "link.txt")))
	c.runOK("mkdir", "/t")
	code, out, errOut := c.run("upload", src, "/t", "--json")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 1, lastJSON(t, out).Symlinks)
	assert.Contains(t, errOut, "skipped symlink: link.txt")
	code, _, _ = c.run("info", "/t/link.txt")
	assert.Equal(t, exitNotFound, code)

	code, out, errOut = c.run("upload", "-L", src, "/t", "--json")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 0, lastJSON(t, out).Symlinks)
	assert.Equal(t, "outside", c.runOK("cat", "/t/link.txt"))

	code, _, errOut = c.run("upload", "-L", src, "/t")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, "upload: 2/2 files, 0 bytes moved, 11 unchanged, of 11", "nothing sent")
}
