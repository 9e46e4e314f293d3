package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runOK runs a command that must succeed and returns its stdout.
func (c *cli) runOK(args ...string) string {
	c.t.Helper()
	code, out, errOut := c.run(args...)
	require.Equal(c.t, exitOK, code, "%v: %s", args, errOut)
	return out
}

// TestMoveCopyRenameCat: mv, cp, rename (with --dry-run) and cat.
func TestMoveCopyRenameCat(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	ctx := context.Background()
	c.runOK("mkdir", "-p", "/a/deep")
	c.runOK("mkdir", "/b")
	f, _, err := api.Files.Upload(ctx, "0", "doc.txt", strings.NewReader("hello, cat"), 10, nil)
	require.NoError(t, err)

	assert.Equal(t, "hello, cat", c.runOK("cat", "/doc.txt"))
	assert.Equal(t, "hello, cat", c.runOK("cat", f.ID), "cat takes a bare id as a file's")
	code, _, _ := c.run("cat", "/a")
	assert.Equal(t, exitUsage, code, "a folder is no file")

	out := c.runOK("mv", "--dry-run", "/doc.txt", "/a")
	assert.Contains(t, out, "dry run: moved file:"+f.ID)
	c.runOK("info", "/doc.txt")
	c.runOK("mv", "/doc.txt", "/a", "--name", "moved.txt")
	c.runOK("info", "/a/moved.txt")
	code, _, _ = c.run("info", "/doc.txt")
	assert.Equal(t, exitNotFound, code)

	c.runOK("rename", "--dry-run", "file:"+f.ID, "renamed.txt")
	c.runOK("info", "/a/moved.txt")
	c.runOK("rename", "file:"+f.ID, "renamed.txt")
	assert.Equal(t, "hello, cat", c.runOK("cat", "/A/RENAMED.TXT"))

	out = c.runOK("cp", "/a", "/b", "--json")
	var m moved
	require.NoError(t, json.Unmarshal([]byte(out), &m))
	assert.Equal(t, "folder", m.Type)
	assert.NotEmpty(t, m.ID)
	assert.Equal(t, "hello, cat", c.runOK("cat", "/b/a/renamed.txt"))
	c.runOK("info", "/b/a/deep")
	c.runOK("cp", "--dry-run", "/a/renamed.txt", "/b")
	code, _, _ = c.run("info", "/b/renamed.txt")
	assert.Equal(t, exitNotFound, code, "--dry-run copied nothing")

	// A name taken: conflict.
	c.runOK("mkdir", "/b/x")
	code, _, errOut := c.run("rename", "/b/x", "a")
	assert.Equal(t, exitConflict, code, errOut)
}

// TestSearchTrashVersions: search, trash ls and restore, versions and
// promote, whoami.
func TestSearchTrashVersions(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	ctx := context.Background()
	c.runOK("mkdir", "/reports")
	f, _, err := api.Files.Upload(ctx, "0", "quarterly report.txt", strings.NewReader("v1"), 2, nil)
	require.NoError(t, err)
	_, _, err = api.Files.UploadVersion(ctx, f.ID, strings.NewReader("v2!"), 3, nil)
	require.NoError(t, err)

	out := c.runOK("search", "quarterly", "--json")
	var res []found
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.Len(t, res, 1)
	assert.Equal(t, found{Type: "file", ID: f.ID, Name: "quarterly report.txt"}, res[0])
	out = c.runOK("search", "reports", "--type", "folder")
	assert.Contains(t, out, "reports")
	assert.NotContains(t, out, "quarterly")
	code, _, _ := c.run("search", "x", "--type", "nope")
	assert.Equal(t, exitUsage, code)

	out = c.runOK("versions", "/quarterly report.txt", "--json")
	var vs []versionLine
	require.NoError(t, json.Unmarshal([]byte(out), &vs))
	require.Len(t, vs, 2)
	assert.True(t, vs[0].Current)
	assert.EqualValues(t, 3, vs[0].Size)
	assert.EqualValues(t, 2, vs[1].Size)
	c.runOK("versions", "promote", "file:"+f.ID, vs[1].ID)
	assert.Equal(t, "v1", c.runOK("cat", "file:"+f.ID))

	c.runOK("rm", "file:"+f.ID)
	c.runOK("rm", "/reports")
	out = c.runOK("trash", "ls")
	assert.Contains(t, out, "quarterly report.txt")
	assert.Contains(t, out, "reports")
	code, _, _ = c.run("trash", "restore", f.ID)
	assert.Equal(t, exitUsage, code, "a bare id is refused")
	code, _, _ = c.run("trash")
	assert.Equal(t, exitUsage, code)
	c.runOK("trash", "restore", "file:"+f.ID, "--name", "back.txt")
	assert.Equal(t, "v1", c.runOK("cat", "/back.txt"))

	out = c.runOK("whoami", "--json")
	var me map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &me))
	assert.Equal(t, srv.UserID(), me["id"])
}

// TestCollabAndAsUser: collab add, ls, rm; --as-user acts as another user;
// -v logs requests without the token.
func TestCollabAndAsUser(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	admin := newCLI(t, srv)
	admin.env["CMS_TOKEN"] = srv.AdminToken()
	user := newCLI(t, srv)
	out := admin.runOK("mkdir", "/shared", "--json")
	var made map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &made))

	me := map[string]string{}
	require.NoError(t, json.Unmarshal([]byte(user.runOK("whoami", "--json")), &me))
	code, _, errOut := admin.run("collab", "add", made["id"], me["login"])
	assert.Equal(t, exitUsage, code, "a bare id is refused: %s", errOut)
	out = admin.runOK("collab", "add", "folder:"+made["id"], me["login"], "--role", "viewer", "--json")
	var co collabLine
	require.NoError(t, json.Unmarshal([]byte(out), &co))
	assert.Equal(t, "viewer", co.Role)
	out = admin.runOK("collab", "ls", "/shared")
	assert.Contains(t, out, me["login"])
	admin.runOK("collab", "rm", co.ID)
	out = admin.runOK("collab", "ls", "/shared", "--json")
	assert.NotContains(t, out, me["login"])

	// --as-user: the admin acts as the user.
	out = admin.runOK("whoami", "--as-user", me["id"], "--json")
	var as map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &as))
	assert.Equal(t, me["id"], as["id"])

	code, _, errOut = admin.run("-v", "ls", "/")
	require.Equal(t, exitOK, code)
	assert.Contains(t, errOut, "GET", "-v logs the requests")
	assert.NotContains(t, errOut, srv.AdminToken(), "never the token")
	_ = cms.ErrNotFound
}

// TestExcludeInclude: the globs filter ls -r and search.
func TestExcludeInclude(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	api := srv.Client(t)
	ctx := context.Background()
	c.runOK("mkdir", "-p", "/p/node_modules/x")
	c.runOK("mkdir", "-p", "/p/src")
	for _, p := range []struct{ dir, name string }{{"/p/src", "a.go"}, {"/p/src", "a_test.go"}, {"/p", "README.md"}, {"/p/node_modules/x", "x.js"}} {
		var it map[string]any
		require.NoError(t, json.Unmarshal([]byte(c.runOK("info", p.dir)), &it))
		_, _, err := api.Files.Upload(ctx, it["id"].(string), p.name, strings.NewReader("x"), 1, nil)
		require.NoError(t, err)
	}
	paths := func(args ...string) []string {
		var items []listed
		require.NoError(t, json.Unmarshal([]byte(c.runOK(append([]string{"ls", "-r", "/p", "--json"}, args...)...)), &items))
		var ps []string
		for _, it := range items {
			ps = append(ps, it.Path)
		}
		return ps
	}
	assert.Equal(t, []string{"README.md", "src", "src/a.go", "src/a_test.go"}, paths("--exclude", "node_modules"))
	assert.Equal(t, []string{"node_modules", "node_modules/x", "src", "src/a.go"}, paths("--include", "*.go", "--exclude", "*_test.go"))
	assert.Equal(t, []string{"README.md", "node_modules", "node_modules/x", "node_modules/x/x.js"}, paths("--exclude", "src/**"))
	code, _, _ := c.run("ls", "--exclude", "[", "/")
	assert.Equal(t, exitUsage, code, "a bad pattern")
}
