//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCaseOnlyRename: a local case-only rename syncs with --delete: the
// remote item is renamed, nothing trashed, no 409 loop.
func TestCaseOnlyRename(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	src := t.TempDir()
	put(t, filepath.Join(src, "Report.txt"), "r")
	put(t, filepath.Join(src, "docs", "a.txt"), "a")
	c.runOK("mkdir", "/t")
	c.runOK("upload", src, "/t")
	require.NoError(t, os.Rename(filepath.Join(src, "Report.txt"), filepath.Join(src, "report.txt")))
	require.NoError(t, os.Rename(filepath.Join(src, "docs"), filepath.Join(src, "Docs")))
	for range 2 {
		code, out, errOut := c.run("upload", "--delete", "--json", src, "/t")
		require.Equal(t, exitOK, code, errOut)
		s := lastJSON(t, out)
		assert.Equal(t, 0, s.Deleted)
		assert.Equal(t, 0, s.Failed)
	}
	out := c.runOK("ls", "-r", "/t")
	assert.Contains(t, out, " report.txt\n")
	assert.Contains(t, out, " Docs/a.txt\n")
	assert.NotContains(t, out, "Report.txt")
}

// TestDownloadModes: a new file gets 0666 less the umask; a replaced one
// keeps its mode (a script stays executable).
func TestDownloadModes(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	src := t.TempDir()
	put(t, filepath.Join(src, "run.sh"), "echo 1")
	c.runOK("mkdir", "/t")
	c.runOK("upload", src, "/t")
	dst := t.TempDir()
	c.runOK("download", "/t", dst)
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	fi, err := os.Stat(filepath.Join(dst, "run.sh"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o666&^umask), fi.Mode().Perm())

	require.NoError(t, os.Chmod(filepath.Join(dst, "run.sh"), 0o755))
	put(t, filepath.Join(src, "run.sh"), "echo 2")
	c.runOK("upload", src, "/t")
	c.runOK("download", "/t", dst)
	fi, err = os.Stat(filepath.Join(dst, "run.sh"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm(), "a replaced file keeps its mode")
	b, err := os.ReadFile(filepath.Join(dst, "run.sh"))
	require.NoError(t, err)
	assert.Equal(t, "echo 2", string(b))
}
