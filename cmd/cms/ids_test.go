package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rewritingProxy stands in front of the API root at target: it rewrites
// response bodies with body, and returns the root to use instead of
// target.
func rewritingProxy(t *testing.T, target string, body func(reqPath string, b []byte) []byte) string {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(&url.URL{Scheme: u.Scheme, Host: u.Host})
			r.Out.URL.Path = r.In.URL.Path
			r.Out.URL.RawPath = ""
			r.Out.Host = u.Host
		},
		ModifyResponse: func(resp *http.Response) error {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			b = body(resp.Request.URL.Path, b)
			resp.Body = io.NopCloser(bytes.NewReader(b))
			resp.ContentLength = int64(len(b))
			resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
			return nil
		},
	}
	ps := httptest.NewServer(rp)
	t.Cleanup(ps.Close)
	return ps.URL + u.Path
}

// twinIDs makes, on a server whose files and folders have id spaces of
// their own (Options.SeparateIDSpaces), as on Box, a folder and a file in
// the root that share an id, and returns the CLI, a client and the id.
// A file draws two ids (its own, its version's), a folder one: folders
// are made until their counter meets the files'.
func twinIDs(t *testing.T) (*cli, *cms.Client, string) {
	srv := cmstest.NewServer(t, cmstest.Options{SeparateIDSpaces: true})
	api := srv.Client(t)
	ctx := context.Background()
	num := func(id string) int64 {
		n, err := strconv.ParseInt(id, 10, 64)
		require.NoError(t, err)
		return n
	}
	var folder, file int64
	for i := 0; folder == 0 || folder != file; i++ {
		require.Less(t, i, 1000, "the id counters never met")
		if folder <= file {
			f, _, err := api.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "precious-" + strconv.Itoa(i), Parent: cms.FolderRef{ID: "0"}}, nil)
			require.NoError(t, err)
			folder = num(f.ID)
		} else {
			f, _, err := api.Files.Upload(ctx, "0", "scratch-"+strconv.Itoa(i)+".txt", strings.NewReader("scratch"), 7, nil)
			require.NoError(t, err)
			file = num(f.ID)
		}
	}
	return newCLI(t, srv), api, strconv.FormatInt(file, 10)
}

// TestRmNeverGuessesTheKind: a bare id to rm is a usage error naming the
// two forms, and nothing is trashed; file:ID trashes the file, never the
// folder with the same id.
func TestRmNeverGuessesTheKind(t *testing.T) {
	c, api, id := twinIDs(t)
	ctx := context.Background()
	code, _, errOut := c.run("rm", id)
	assert.Equal(t, exitUsage, code, errOut)
	assert.Contains(t, errOut, "file:"+id)
	assert.Contains(t, errOut, "folder:"+id)
	_, _, err := api.Folders.Get(ctx, id, nil)
	require.NoError(t, err, "the folder is not trashed")
	_, _, err = api.Files.Get(ctx, id, nil)
	require.NoError(t, err, "nor the file")

	for _, cmd := range []string{"share", "mv", "rename", "collab add"} {
		args := append(strings.Fields(cmd), id)
		if cmd != "share" {
			args = append(args, "x")
		}
		code, _, errOut := c.run(args...)
		if code == exitUsage && strings.Contains(errOut, "unknown command") {
			continue // not there yet
		}
		assert.Equal(t, exitUsage, code, "%s: %s", cmd, errOut)
		assert.Contains(t, errOut, "file:"+id, cmd)
	}

	code, out, errOut := c.run("rm", "file:"+id, "--json")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"type":"file"`)
	_, _, err = api.Folders.Get(ctx, id, nil)
	require.NoError(t, err, "the folder is still there")
	_, _, err = api.Files.Get(ctx, id, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound, "the file is in the trash")
}

// TestAmbiguousBareID: info and download take a bare id only when one
// kind has it.
func TestAmbiguousBareID(t *testing.T) {
	c, _, id := twinIDs(t)
	code, _, errOut := c.run("info", id)
	assert.Equal(t, exitUsage, code, errOut)
	assert.Contains(t, errOut, "both a file and a folder")
	code, _, errOut = c.run("download", id, t.TempDir())
	assert.Equal(t, exitUsage, code, errOut)
	code, out, errOut := c.run("info", "file:"+id)
	require.Equal(t, exitOK, code, errOut)
	var rec map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rec))
	assert.Equal(t, "file", rec["type"])
	code, out, _ = c.run("info", "folder:"+id)
	require.Equal(t, exitOK, code)
	require.NoError(t, json.Unmarshal([]byte(out), &rec))
	assert.Equal(t, "folder", rec["type"])
}

// TestPaths: items by path from the root, case-insensitively; mkdir -p
// and an existing folder.
func TestPaths(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	code, out, errOut := c.run("mkdir", "-p", "/Reports/2024/Q1", "--json")
	require.Equal(t, exitOK, code, errOut)
	var made map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &made))
	assert.Equal(t, "made", made["state"])
	q1 := made["id"].(string)

	// Again: the existing id, exit 0, as mkdir -p.
	code, out, errOut = c.run("mkdir", "/reports/2024/q1", "--json")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &made))
	assert.Equal(t, "exists", made["state"])
	assert.Equal(t, q1, made["id"])
	code, out, errOut = c.run("mkdir", "0", "Reports")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "(exists)")
	code, _, errOut = c.run("mkdir", "/Reports/a/b")
	assert.Equal(t, exitNotFound, code, "no -p: the parent must exist: %s", errOut)
	code, _, errOut = c.run("mkdir", "0", "a/b")
	assert.Equal(t, exitUsage, code, errOut)

	src := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(src, []byte("notes"), 0o644))
	code, _, errOut = c.run("upload", src, "/REPORTS/2024")
	require.Equal(t, exitOK, code, errOut)
	code, out, errOut = c.run("info", "/reports/2024/NOTES.TXT")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"name":"notes.txt"`)
	code, _, errOut = c.run("mkdir", "/Reports/2024/notes.txt")
	assert.Equal(t, exitConflict, code, "a file has the name: %s", errOut)
	code, _, errOut = c.run("ls", "/Reports/2024/notes.txt")
	assert.Equal(t, exitUsage, code, "ls needs a folder: %s", errOut)
	code, _, errOut = c.run("info", "/Reports/nope")
	assert.Equal(t, exitNotFound, code, errOut)
	code, out, errOut = c.run("ls", "/Reports/2024")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "notes.txt")
	assert.Contains(t, out, "Q1")

	code, _, errOut = c.run("mkdir", "--dry-run", "-p", "/Reports/2025/Q1")
	require.Equal(t, exitOK, code, errOut)
	code, _, _ = c.run("info", "/Reports/2025")
	assert.Equal(t, exitNotFound, code, "--dry-run made nothing")
	code, out, errOut = c.run("rm", "--dry-run", "/Reports")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "dry run")
	code, _, _ = c.run("info", "/Reports")
	assert.Equal(t, exitOK, code, "--dry-run trashed nothing")
	code, _, errOut = c.run("rm", "/Reports")
	require.Equal(t, exitOK, code, errOut)
	code, _, _ = c.run("info", "/Reports")
	assert.Equal(t, exitNotFound, code)
}

// TestDownloadFileNameEscape: a file name the server sends that would
// leave the target directory is refused, and nothing is written outside.
func TestDownloadFileNameEscape(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	api := srv.Client(t)
	file, _, err := api.Files.Upload(context.Background(), "0", "plain.txt", strings.NewReader("x"), 1, nil)
	require.NoError(t, err)
	c := newCLI(t, srv)
	c.env["CMS_BASE_URL"] = rewritingProxy(t, srv.BaseURL(), func(_ string, b []byte) []byte {
		return bytes.ReplaceAll(b, []byte(`"plain.txt"`), []byte(`"../escaped.txt"`))
	})
	parent := t.TempDir()
	dst := filepath.Join(parent, "dst")
	require.NoError(t, os.Mkdir(dst, 0o755))
	code, _, errOut := c.run("download", "file:"+file.ID, dst)
	assert.NotEqual(t, exitOK, code, errOut)
	assert.NoFileExists(t, filepath.Join(parent, "escaped.txt"))
}
