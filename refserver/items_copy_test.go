package refserver

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func (e *env) post(token, path string, body any) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.doJSON("POST", e.api(path), token, body, nil)
}

// download returns the content of a file (or of a version) as token sees it.
func (e *env) download(token, path string) []byte {
	e.t.Helper()
	resp, b := e.do("GET", e.api(path), token, nil, nil)
	require.Equal(e.t, http.StatusFound, resp.StatusCode, "%s", b)
	resp, err := e.hc.Get(resp.Header.Get("Location"))
	require.NoError(e.t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	return body
}

func TestCopyFilesAndFolders(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	md := &mdEnv{env: e, admin: admin, user: user}
	md.createTemplate("kept", []any{map[string]any{"type": "string", "key": "k", "displayName": "K"}})
	resp, m := e.put(admin, "/metadata_templates/enterprise/kept/schema", []any{map[string]any{"op": "editTemplate", "data": map[string]any{"copyInstanceOnItemCopy": true}}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	md.createTemplate("dropped", []any{map[string]any{"type": "string", "key": "k", "displayName": "K"}})

	src := e.createFolder(user, "0", "src")["id"].(string)
	sub := e.createFolder(user, src, "sub")["id"].(string)
	f := e.uploadFile(user, sub, "f.txt", []byte("one"))["id"].(string)
	e.newVersion(user, f, []byte("two"))
	gone := e.uploadFile(user, src, "trashed.txt", []byte("x"))["id"].(string)
	e.deleteOK(user, "/files/"+gone)
	for _, key := range []string{"kept", "dropped"} {
		resp, m := e.post(user, "/files/"+f+"/metadata/enterprise/"+key, map[string]any{"k": "v"})
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	}
	dst := e.createFolder(user, "0", "dst")["id"].(string)

	// A file, at an earlier version, under a new name.
	versions := e.getJSON(user, "/files/"+f+"/versions")["entries"].([]any)
	first := versions[0].(map[string]any)["id"].(string)
	resp, c := e.post(user, "/files/"+f+"/copy", map[string]any{"parent": map[string]any{"id": dst}, "name": "copy.txt", "version": first})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	require.Equal(t, "copy.txt", c["name"])
	require.NotEqual(t, f, c["id"])
	require.Equal(t, []byte("one"), e.download(user, "/files/"+c["id"].(string)+"/content"))
	require.EqualValues(t, 200, e.statusOf(user, "/files/"+c["id"].(string)+"/metadata/enterprise/kept"))
	require.EqualValues(t, 404, e.statusOf(user, "/files/"+c["id"].(string)+"/metadata/enterprise/dropped"))

	// A folder with its subtree (not what is in the trash).
	resp, cf := e.post(user, "/folders/"+src+"/copy", map[string]any{"parent": map[string]any{"id": dst}})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", cf)
	require.Equal(t, "src", cf["name"])
	items := e.getJSON(user, "/folders/"+cf["id"].(string)+"/items")
	require.EqualValues(t, 1, items["total_count"], "the trashed file stays behind")
	subCopy := items["entries"].([]any)[0].(map[string]any)["id"].(string)
	inner := e.getJSON(user, "/folders/"+subCopy+"/items")["entries"].([]any)[0].(map[string]any)
	require.Equal(t, "f.txt", inner["name"])
	require.Equal(t, []byte("two"), e.download(user, "/files/"+inner["id"].(string)+"/content"))
	require.EqualValues(t, 200, e.statusOf(user, "/files/"+inner["id"].(string)+"/metadata/enterprise/kept"))
	require.EqualValues(t, 6, e.getJSON(user, "/folders/"+dst)["size"])

	// The source stays as it was; purging it leaves the copies' content.
	e.deleteOK(user, "/folders/"+src+"?recursive=true")
	resp, _ = e.do("DELETE", e.api("/folders/"+src+"/trash"), user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	require.Equal(t, []byte("two"), e.download(user, "/files/"+inner["id"].(string)+"/content"))

	before := snapshot(e.s)
	hidden := e.createFolder(admin, "0", "admin's")["id"].(string)
	before = snapshot(e.s)
	for _, c := range []struct {
		path   string
		body   any
		status int
		code   string
	}{
		{"/files/" + c["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": dst}}, http.StatusConflict, wire.CodeItemNameInUse},
		{"/files/" + c["id"].(string) + "/copy", map[string]any{}, http.StatusBadRequest, wire.CodeBadRequest},
		{"/files/" + c["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": hidden}}, http.StatusNotFound, wire.CodeNotFound},
		{"/files/" + c["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": dst}, "name": "v.txt", "version": "123"}, http.StatusNotFound, wire.CodeNotFound},
		{"/files/" + c["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": dst}, "name": "/./"}, http.StatusBadRequest, wire.CodeItemNameInvalid},
		{"/files/" + c["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": dst}, "name": "trailing "}, http.StatusBadRequest, wire.CodeItemNameInvalid},
		{"/folders/" + cf["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": dst}, "name": "a/b"}, http.StatusBadRequest, wire.CodeItemNameInvalid},
		{"/folders/" + cf["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": subCopy}, "name": "loop"}, http.StatusBadRequest, wire.CodeBadRequest},
		{"/folders/" + cf["id"].(string) + "/copy", map[string]any{"parent": map[string]any{"id": dst}, "version": "1"}, http.StatusBadRequest, wire.CodeBadRequest},
		{"/folders/0/copy", map[string]any{"parent": map[string]any{"id": dst}}, http.StatusInternalServerError, wire.CodeInternalServerError},
		{"/folders/" + hidden + "/copy", map[string]any{"parent": map[string]any{"id": dst}}, http.StatusNotFound, wire.CodeNotFound},
	} {
		resp, m := e.post(user, c.path, c.body)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	require.Equal(t, before, snapshot(e.s), "refused copies change nothing")
}

// TestCopyFileNameSanitized: a file copy's name loses its slashes,
// backslashes and non-printable ASCII characters, as Box's spec says
// (POST /files/{id}/copy: "automatically sanitized by removing the
// non-allowed characters"), instead of being refused.
func TestCopyFileNameSanitized(t *testing.T) {
	e := newEnv(t, Options{})
	user := e.s.UserToken()
	f := e.uploadFile(user, "0", "src.txt", []byte("x"))["id"].(string)
	dst := e.createFolder(user, "0", "dst")["id"].(string)
	for name, want := range map[string]string{"a/b.txt": "ab.txt", "re\\port\x01.txt": "report.txt", "tab\tbed.txt": "tabbed.txt", "..": ""} {
		resp, c := e.post(user, "/files/"+f+"/copy", map[string]any{"parent": map[string]any{"id": dst}, "name": name})
		if want == "" {
			requireAPIError(t, resp, c, http.StatusBadRequest, wire.CodeItemNameInvalid)
			continue
		}
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%q: %v", name, c)
		require.Equal(t, want, c["name"], "%q", name)
	}
}

func (e *env) statusOf(token, path string) int {
	e.t.Helper()
	resp, _ := e.do("GET", e.api(path), token, nil, nil)
	return resp.StatusCode
}

func TestFileVersions(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	f := e.uploadFile(user, "0", "v.txt", []byte("v1"))["id"].(string)
	e.newVersion(user, f, []byte("v2"))
	e.newVersion(user, f, []byte("v3"))

	page := e.getJSON(user, "/files/"+f+"/versions")
	require.EqualValues(t, 2, page["total_count"], "the current version is not listed")
	entries := page["entries"].([]any)
	v2, v1 := entries[0].(map[string]any), entries[1].(map[string]any)
	require.Equal(t, "2", v2["version_number"], "newest first")
	require.Equal(t, "1", v1["version_number"])
	page = e.getJSON(user, "/files/"+f+"/versions?limit=1&offset=1")
	require.Equal(t, v1["id"], page["entries"].([]any)[0].(map[string]any)["id"])

	// Trash v1: listed with trashed_at, not downloadable; restore it.
	resp, _ := e.do("DELETE", e.api("/files/"+f+"/versions/"+v1["id"].(string)), user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	got := e.getJSON(user, "/files/"+f+"/versions/"+v1["id"].(string))
	require.NotNil(t, got["trashed_at"])
	require.Equal(t, "user@cms.test", got["trashed_by"].(map[string]any)["login"])
	require.Equal(t, http.StatusNotFound, e.statusOf(user, "/files/"+f+"/content?version="+v1["id"].(string)))
	resp, m := e.post(user, "/files/"+f+"/versions/current", map[string]any{"type": "file_version", "id": v1["id"]})
	requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
	resp, got = e.put(user, "/files/"+f+"/versions/"+v1["id"].(string), map[string]any{"trashed_at": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", got)
	require.Nil(t, got["trashed_at"])
	require.NotNil(t, got["restored_at"])
	require.Equal(t, []byte("v1"), e.download(user, "/files/"+f+"/content?version="+v1["id"].(string)))

	// Promote v1: a new current version with v1's content.
	resp, nv := e.post(user, "/files/"+f+"/versions/current", map[string]any{"type": "file_version", "id": v1["id"]})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", nv)
	require.Equal(t, "4", nv["version_number"])
	require.Equal(t, v1["sha1"], nv["sha1"])
	require.Equal(t, []byte("v1"), e.download(user, "/files/"+f+"/content"))
	require.EqualValues(t, 3, e.getJSON(user, "/files/"+f+"/versions")["total_count"])

	// Someone else's lock keeps a version where it is.
	resp, _ = e.put(user, "/files/"+f, map[string]any{"lock": map[string]any{"access": "lock"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, m = e.doJSON("DELETE", e.api("/files/"+f+"/versions/"+v2["id"].(string)), admin, nil, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	resp, m = e.post(admin, "/files/"+f+"/versions/current", map[string]any{"type": "file_version", "id": v2["id"]})
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	resp, _ = e.put(user, "/files/"+f, map[string]any{"lock": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	before := snapshot(e.s)
	cur := nv["id"].(string)
	for _, c := range []struct {
		method, path string
		body         any
		token        string
		status       int
		code         string
	}{
		{"DELETE", "/files/" + f + "/versions/" + cur, nil, user, http.StatusBadRequest, wire.CodeBadRequest},
		{"DELETE", "/files/" + f + "/versions/999", nil, user, http.StatusNotFound, wire.CodeNotFound},
		{"PUT", "/files/" + f + "/versions/" + cur, map[string]any{"trashed_at": "2025-01-01T00:00:00Z"}, user, http.StatusBadRequest, wire.CodeBadRequest},
		{"POST", "/files/" + f + "/versions/current", map[string]any{"type": "file_version", "id": cur}, user, http.StatusBadRequest, wire.CodeBadRequest},
		{"POST", "/files/" + f + "/versions/current", map[string]any{"type": "file", "id": v2["id"]}, user, http.StatusBadRequest, wire.CodeBadRequest},
		{"POST", "/files/" + f + "/versions/current", map[string]any{"type": "file_version", "id": "999"}, user, http.StatusNotFound, wire.CodeNotFound},
		{"GET", "/files/" + f + "/versions", nil, "", http.StatusUnauthorized, wire.CodeUnauthorized},
	} {
		resp, m := e.doJSON(c.method, e.api(c.path), c.token, c.body, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	resp, m = e.doJSON("DELETE", e.api("/files/"+f+"/versions/"+v2["id"].(string)), user, nil, hdr{"If-Match": "stale"})
	requireAPIError(t, resp, m, http.StatusPreconditionFailed, wire.CodePreconditionFailed)
	require.Equal(t, before, snapshot(e.s))
}

// TestFileVersionsUnderGovernance: a version under retention or a legal
// hold stays out of the trash (403); once neither holds, it goes.
func TestFileVersionsUnderGovernance(t *testing.T) {
	e := newEnv(t, Options{LegalHoldReleaseDelay: -1})
	user := e.s.UserToken()
	kept := e.createFolder(user, "0", "kept")["id"].(string)
	held := e.createFolder(user, "0", "held")["id"].(string)
	policy := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Keep", 30))["id"].(string)
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(policy, "folder", kept))
	hold := e.mustAdmin(201, "POST", "/legal_hold_policies", map[string]any{"policy_name": "Hold", "is_ongoing": true})["id"].(string)
	e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", map[string]any{"policy_id": hold, "assign_to": map[string]any{"type": "folder", "id": held}})

	for _, dir := range []string{kept, held} {
		f := e.uploadFile(user, dir, "v.txt", []byte("v1"))["id"].(string)
		e.newVersion(user, f, []byte("v2"))
		v1 := e.getJSON(user, "/files/"+f+"/versions")["entries"].([]any)[0].(map[string]any)["id"].(string)
		before := snapshot(e.s)
		resp, m := e.doJSON("DELETE", e.api("/files/"+f+"/versions/"+v1), user, nil, nil)
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		require.Equal(t, before, snapshot(e.s))
	}
	free := e.uploadFile(user, "0", "free.txt", []byte("v1"))["id"].(string)
	e.newVersion(user, free, []byte("v2"))
	v1 := e.getJSON(user, "/files/"+free+"/versions")["entries"].([]any)[0].(map[string]any)["id"].(string)
	resp, _ := e.do("DELETE", e.api("/files/"+free+"/versions/"+v1), user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode, "a version under nothing goes to the trash")
}
