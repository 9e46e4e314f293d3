package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cli runs the command against srv and returns the exit status, stdout
// and stderr.
type cli struct {
	t   *testing.T
	env map[string]string
}

func newCLI(t *testing.T, srv *cmstest.Server) *cli {
	return &cli{t: t, env: map[string]string{"CMS_BASE_URL": srv.BaseURL(), "CMS_UPLOAD_URL": srv.UploadURL(), "CMS_TOKEN": srv.UserToken(),
		"CMS_HASH_CACHE": filepath.Join(t.TempDir(), "hashes.json"), "CMS_UPLOAD_SESSIONS": filepath.Join(t.TempDir(), "sessions.json")}}
}

func (c *cli) run(args ...string) (int, string, string) {
	c.t.Helper()
	return c.runStdin("", args...)
}

// runStdin runs the command with stdin as its standard input.
func (c *cli) runStdin(stdin string, args ...string) (int, string, string) {
	c.t.Helper()
	var out, errOut bytes.Buffer
	a := &app{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return c.env[k] }}
	code := a.run(context.Background(), args)
	return code, out.String(), errOut.String()
}

// lastJSON decodes the last line of stdout.
func lastJSON(t *testing.T, stdout string) summary {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var s summary
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &s), "stdout: %s", stdout)
	return s
}

func put(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func TestUploadDownloadRoundTrip(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	ctx := context.Background()
	root, _, err := api.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "cli", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)

	src := t.TempDir()
	put(t, filepath.Join(src, "readme.md"), "# hello")
	put(t, filepath.Join(src, "docs", "résumé ✓.txt"), "unicode name")
	put(t, filepath.Join(src, "docs", "deep", "empty.txt"), "")
	require.NoError(t, os.MkdirAll(filepath.Join(src, "empty dir"), 0o755))

	code, out, errOut := c.run("upload", src, root.ID, "--json") // --json after the arguments
	require.Equal(t, 0, code, "stderr: %s", errOut)
	s := lastJSON(t, out)
	assert.Equal(t, summary{Files: 3, Bytes: 19, Created: 3, Folders: 3}, s)

	code, out, errOut = c.run("--json", "upload", src, root.ID)
	require.Equal(t, 0, code, "global flags go before the command too: %s", errOut)
	assert.Equal(t, summary{Skipped: 3, SkippedBytes: 19}, lastJSON(t, out), "a re-run moves nothing")
	code, out, errOut = c.run("upload", "--json", src, root.ID)
	require.Equal(t, 0, code, "stderr: %s", errOut)
	assert.Equal(t, summary{Skipped: 3, SkippedBytes: 19}, lastJSON(t, out), "a re-run moves nothing")
	cache, err := cms.LoadFileHashCache(c.env["CMS_HASH_CACHE"])
	require.NoError(t, err)
	assert.Equal(t, 3, cache.Len(), "the hashes are remembered for the next run")
	code, out, _ = c.run("upload", "--json", "--no-hash-cache", src, root.ID)
	require.Equal(t, 0, code)
	assert.Equal(t, summary{Skipped: 3, SkippedBytes: 19}, lastJSON(t, out), "and the same without the cache")

	// A conflict (a local file where the folder has a folder) fails, a
	// symlink is skipped with a notice; the rest completes; the exit status
	// says so.
	put(t, filepath.Join(src, "docs", "new.txt"), "new")
	put(t, filepath.Join(src, "clash"), "a file")
	_, _, err = api.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "clash", Parent: cms.FolderRef{ID: root.ID}}, nil)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(filepath.Join(src, "readme.md"), filepath.Join(src, "link")))
	code, out, errOut = c.run("upload", src, root.ID, "--json")
	assert.Equal(t, exitPartial, code)
	s = lastJSON(t, out)
	assert.Equal(t, 1, s.Files)
	assert.Equal(t, 1, s.Failed)
	assert.Equal(t, 1, s.Symlinks)
	assert.Contains(t, errOut, "failed: clash")
	assert.Contains(t, errOut, "skipped symlink: link")
	assert.NotContains(t, errOut, "failed: link")
	require.NoError(t, os.Remove(filepath.Join(src, "link")))
	require.NoError(t, os.Remove(filepath.Join(src, "clash")))

	// Down, and back byte for byte; an edit that keeps size and mtime is
	// still seen (SHA-1, not size and time).
	dst := filepath.Join(t.TempDir(), "copy")
	code, out, errOut = c.run("download", root.ID, dst, "--json")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	s = lastJSON(t, out)
	assert.Equal(t, 4, s.Files)
	assert.DirExists(t, filepath.Join(dst, "empty dir"))
	assert.DirExists(t, filepath.Join(dst, "clash"))
	for _, p := range []string{"readme.md", "docs/résumé ✓.txt", "docs/deep/empty.txt", "docs/new.txt"} {
		want, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(p)))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(p)))
		require.NoError(t, err)
		assert.Equal(t, want, got, p)
	}
	fi, err := os.Stat(filepath.Join(src, "readme.md"))
	require.NoError(t, err)
	put(t, filepath.Join(src, "readme.md"), "# HELLO")
	require.NoError(t, os.Chtimes(filepath.Join(src, "readme.md"), fi.ModTime(), fi.ModTime()))
	code, out, _ = c.run("upload", src, root.ID, "--json")
	require.Equal(t, 0, code)
	assert.Equal(t, 1, lastJSON(t, out).Files, "same size and mtime, other content: sent")

	// One file, both ways.
	one := filepath.Join(t.TempDir(), "one.txt")
	put(t, one, "single")
	code, out, errOut = c.run("upload", one, root.ID, "--json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 1, lastJSON(t, out).Files)
	code, out, _ = c.run("upload", one, root.ID, "--json")
	require.Equal(t, 0, code)
	assert.Equal(t, 1, lastJSON(t, out).Skipped)
	var oneID string
	for it, err := range api.Folders.ListItemsByMarkerIter(ctx, root.ID, nil) {
		require.NoError(t, err)
		if it.Name == "one.txt" {
			oneID = it.ID
		}
	}
	back := t.TempDir()
	code, out, errOut = c.run("download", oneID, back, "--json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 1, lastJSON(t, out).Files)
	b, err := os.ReadFile(filepath.Join(back, "one.txt"))
	require.NoError(t, err)
	assert.Equal(t, "single", string(b))

	// ls, flat and recursive.
	code, out, _ = c.run("ls", "-r", root.ID, "--json")
	require.Equal(t, 0, code)
	var items []listed
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &items))
	var paths []string
	for _, it := range items {
		paths = append(paths, it.Path)
	}
	assert.Contains(t, paths, "docs/deep/empty.txt")
	code, out, _ = c.run("ls", root.ID)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "readme.md")
	assert.NotContains(t, out, "empty.txt")
}

func TestUsageAndErrors(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	code, _, errOut := c.run()
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "Usage:\n  cms")
	code, out, _ := c.run("upload", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "--delete", "help goes to stdout")
	code, _, _ = c.run("upload", "only-one-arg")
	assert.Equal(t, 2, code)
	code, _, _ = c.run("frobnicate")
	assert.Equal(t, 2, code)
	code, _, errOut = c.run("ls", "999999")
	assert.Equal(t, exitNotFound, code)
	assert.Contains(t, errOut, "not_found", "errors name the service's code")
	delete(c.env, "CMS_TOKEN")
	code, _, errOut = c.run("ls", "0")
	assert.Equal(t, exitAuth, code)
	assert.Contains(t, errOut, "CMS_TOKEN")
	c.env["CMS_TOKEN"] = srv.UserToken()
	delete(c.env, "CMS_UPLOAD_URL")
	code, _, errOut = c.run("ls", "0")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "CMS_UPLOAD_URL")
}

func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan int)
	go func() { done <- run(ctx, []string{"serve"}, &out, &bytes.Buffer{}, os.Getenv) }()
	var line map[string]any
	require.Eventually(t, func() bool { return json.Unmarshal([]byte(strings.TrimSpace(out.String())), &line) == nil }, 10*time.Second, 10*time.Millisecond)
	assert.Contains(t, line, "base_url")
	assert.Contains(t, line, "webhook_keys")
	cancel()
	assert.Equal(t, 0, <-done)
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestItemCommands: mkdir, info, share (with a password, then removed) and
// rm, with --json.
func TestItemCommands(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	code, out, errOut := c.run("mkdir", "0", "made here", "--json")
	require.Equal(t, 0, code, errOut)
	var made map[string]string
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &made))
	assert.Equal(t, "made here", made["name"])
	id := made["id"]

	code, out, _ = c.run("info", id)
	require.Equal(t, 0, code)
	var rec map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &rec))
	assert.Equal(t, "folder", rec["type"])

	code, out, errOut = c.run("share", "--password", "Secret-123", "folder:"+id, "--json")
	require.Equal(t, 0, code, errOut)
	var link map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &link))
	assert.Equal(t, true, link["is_password_enabled"])
	assert.NotContains(t, out, "Secret-123", "the password is never printed")
	code, _, _ = c.run("share", "--remove", "folder:"+id)
	require.Equal(t, 0, code)
	code, _, errOut = c.run("share", "--access", "everyone", "folder:"+id)
	assert.Equal(t, exitFailed, code)
	assert.NotEmpty(t, errOut)

	code, out, _ = c.run("rm", "folder:"+id)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "moved to the trash")
	code, _, errOut = c.run("info", id)
	assert.Equal(t, exitNotFound, code)
	assert.Contains(t, errOut, "not_found")
	code, _, _ = c.run("mkdir", "0")
	assert.Equal(t, 2, code)
}
