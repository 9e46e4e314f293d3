package refserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func (e *env) put(token, path string, body any, h hdr) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.doJSON("PUT", e.api(path), token, body, h)
}

func TestUpdateRenameMoveAndRules(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	a := e.createFolder(user, "0", "a")["id"].(string)
	b := e.createFolder(user, "0", "b")["id"].(string)
	sub := e.createFolder(user, a, "sub")["id"].(string)
	f := e.uploadFile(user, a, "f.txt", []byte("12345"))
	fid := f["id"].(string)
	e.uploadFile(user, b, "taken.txt", []byte("x"))
	hidden := e.createFolder(admin, "0", "admin's")["id"].(string)

	// Rename and move in one call; folders' sizes and etags follow.
	aBefore := e.getJSON(user, "/folders/"+a)
	resp, got := e.put(user, "/files/"+fid+"?fields=name,parent,path_collection,etag,modified_by,description,tags", map[string]any{
		"name": "g.txt", "parent": map[string]any{"id": b}, "description": "moved", "tags": []string{"x", "y"},
	}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", got)
	require.Equal(t, "g.txt", got["name"])
	require.Equal(t, b, got["parent"].(map[string]any)["id"])
	require.Equal(t, "moved", got["description"])
	require.Equal(t, []any{"x", "y"}, got["tags"])
	require.NotEqual(t, f["etag"], got["etag"])
	aAfter := e.getJSON(user, "/folders/"+a)
	require.NotEqual(t, aBefore["etag"], aAfter["etag"])
	require.EqualValues(t, 0, aAfter["size"])
	require.EqualValues(t, 6, e.getJSON(user, "/folders/"+b)["size"])
	require.EqualValues(t, 1, e.getJSON(user, "/folders/"+a+"/items")["total_count"])

	before := snapshot(e.s)
	for _, c := range []struct {
		path   string
		body   any
		h      hdr
		status int
		code   string
	}{
		{"/files/" + fid, map[string]any{"name": "TAKEN.txt"}, nil, http.StatusConflict, wire.CodeItemNameInUse},
		{"/files/" + fid, map[string]any{"name": "bad/name"}, nil, http.StatusBadRequest, wire.CodeItemNameInvalid},
		{"/files/" + fid, map[string]any{"name": "x"}, hdr{"If-Match": "stale"}, http.StatusPreconditionFailed, wire.CodePreconditionFailed},
		{"/files/" + fid, map[string]any{"parent": map[string]any{"id": hidden}}, nil, http.StatusNotFound, wire.CodeNotFound},
		{"/files/" + fid, map[string]any{"parent": map[string]any{}}, nil, http.StatusBadRequest, wire.CodeBadRequest},
		{"/files/" + fid, map[string]any{"sync_state": "synced"}, nil, http.StatusBadRequest, wire.CodeBadRequest},
		{"/files/" + fid, map[string]any{"collections": []any{map[string]any{"id": "1"}}}, nil, http.StatusNotFound, wire.CodeNotFound}, // not the caller's collection (collections.go)
		{"/files/" + fid, map[string]any{"collections": []any{map[string]any{}}}, nil, http.StatusBadRequest, wire.CodeBadRequest},
		{"/files/" + fid, map[string]any{"disposition_at": "2030-01-01T00:00:00Z"}, nil, http.StatusForbidden, wire.CodeAccessDenied},
		{"/files/" + fid, map[string]any{"name": nil}, nil, http.StatusBadRequest, wire.CodeBadRequest},
		{"/files/" + fid, map[string]any{"unknown": 1}, nil, http.StatusBadRequest, wire.CodeBadRequest},
		{"/folders/" + a, map[string]any{"parent": map[string]any{"id": sub}}, nil, http.StatusBadRequest, wire.CodeCyclicalFolderStructure},
		{"/folders/" + a, map[string]any{"parent": map[string]any{"id": a}}, nil, http.StatusBadRequest, wire.CodeCyclicalFolderStructure},
		{"/folders/" + a, map[string]any{"lock": map[string]any{"access": "lock"}}, nil, http.StatusBadRequest, wire.CodeBadRequest},
		{"/folders/0", map[string]any{"name": "root"}, nil, http.StatusForbidden, wire.CodeAccessDenied},
		{"/folders/" + hidden, map[string]any{"name": "mine now"}, nil, http.StatusNotFound, wire.CodeNotFound},
	} {
		resp, m := e.put(user, c.path, c.body, c.h)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	require.Equal(t, before, snapshot(e.s), "refused updates change nothing")

	// A folder moves with its content; its settings stick.
	resp, got = e.put(user, "/folders/"+a+"?fields=parent,sync_state,can_non_owners_invite,folder_upload_email", map[string]any{
		"parent": map[string]any{"id": b}, "sync_state": "synced", "can_non_owners_invite": false,
		"folder_upload_email": map[string]any{"access": "open"},
	}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", got)
	require.Equal(t, "synced", got["sync_state"])
	require.Equal(t, false, got["can_non_owners_invite"])
	require.Equal(t, "open", got["folder_upload_email"].(map[string]any)["access"])
	path := e.getJSON(user, "/folders/"+sub)["path_collection"].(map[string]any)["entries"].([]any)
	require.Equal(t, []string{"0", b, a}, entryIDs(path))
	resp, got = e.put(user, "/folders/"+a+"?fields=folder_upload_email", map[string]any{"folder_upload_email": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Nil(t, got["folder_upload_email"])

	// A shared link on a file.
	resp, got = e.put(user, "/files/"+fid+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", got)
	require.Equal(t, "open", got["shared_link"].(map[string]any)["access"])
	resp, got = e.put(user, "/files/"+fid+"?fields=shared_link", map[string]any{"shared_link": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Nil(t, got["shared_link"])
}

func entryIDs(entries []any) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.(map[string]any)["id"].(string))
	}
	return out
}

func (e *env) getJSON(token, path string) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("GET", e.api(path), token, nil, nil)
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "%s: %v", path, m)
	return m
}

func TestFileLocks(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	f := e.uploadFile(user, "0", "locked.txt", []byte("x"))["id"].(string)

	resp, got := e.put(user, "/files/"+f+"?fields=lock", map[string]any{"lock": map[string]any{"access": "lock", "is_download_prevented": true}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", got)
	lock := got["lock"].(map[string]any)
	require.Equal(t, "lock", lock["type"])
	require.Equal(t, true, lock["is_download_prevented"])
	require.Equal(t, "user@cms.test", lock["created_by"].(map[string]any)["login"])

	// The locker goes on; the admin (another user) is refused.
	resp, _ = e.do("GET", e.api("/files/"+f+"/content"), user, nil, nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	before := snapshot(e.s)
	resp, m := e.doJSON("GET", e.api("/files/"+f+"/content"), admin, nil, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	resp, m = e.put(admin, "/files/"+f, map[string]any{"name": "renamed.txt"}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	resp, m = e.doJSON("DELETE", e.api("/files/"+f), admin, nil, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	resp, m = e.uploadRaw(admin, e.upload("/files/"+f+"/content"), `{}`, []byte("y"), nil)
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	resp, m = e.put(admin, "/files/"+f, map[string]any{"lock": map[string]any{"access": "lock"}}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	require.Equal(t, before, snapshot(e.s))
	resp, _ = e.put(admin, "/files/"+f, map[string]any{"description": "a description is no rename"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	// The admin may unlock; then everything works again.
	resp, got = e.put(admin, "/files/"+f+"?fields=lock", map[string]any{"lock": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", got)
	require.Nil(t, got["lock"])
	resp, _ = e.put(admin, "/files/"+f, map[string]any{"name": "renamed.txt"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	// A lock that expires stops holding.
	exp := e.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	resp, _ = e.put(user, "/files/"+f, map[string]any{"lock": map[string]any{"access": "lock", "expires_at": exp}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, _ = e.put(admin, "/files/"+f, map[string]any{"name": "again.txt"}, nil)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	e.clock.Advance(2 * time.Hour)
	resp, got = e.put(admin, "/files/"+f+"?fields=lock,name", map[string]any{"name": "again.txt"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Nil(t, got["lock"])

	for _, bad := range []any{
		map[string]any{"lock": map[string]any{"access": "unlock"}},
		map[string]any{"lock": map[string]any{"access": "lock", "expires_at": "soon"}},
		map[string]any{"lock": map[string]any{"access": "lock", "expires_at": "2000-01-01T00:00:00Z"}},
		map[string]any{"lock": map[string]any{"access": "lock", "color": "red"}},
	} {
		resp, m := e.put(user, "/files/"+f, bad, nil)
		requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
	}
}
