package refserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func (e *env) collaborate(token, typ, id string, by map[string]any, role string) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.post(token, "/collaborations", map[string]any{"item": map[string]any{"type": typ, "id": id}, "accessible_by": by, "role": role})
}

func collabUser(id string) map[string]any { return map[string]any{"type": "user", "id": id} }

// TestCollaborationRoles: each role gives the collaborator what Box's
// permission levels list, on the folder and everything below it, and
// nothing once removed.
func TestCollaborationRoles(t *testing.T) {
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	want := map[string]map[string]bool{ // role → action → allowed
		"previewer":          {"see": true},
		"uploader":           {"see": true, "upload": true},
		"previewer uploader": {"see": true, "upload": true},
		"viewer":             {"see": true, "download": true, "share": true},
		"viewer uploader":    {"see": true, "download": true, "upload": true, "share": true},
		"editor":             {"see": true, "download": true, "upload": true, "share": true, "edit": true, "delete": true, "invite": true},
		"co-owner":           {"see": true, "download": true, "upload": true, "share": true, "edit": true, "delete": true, "invite": true, "manage": true},
	}
	n := 0
	for role, allowed := range want {
		n++
		dir := e.createFolder(admin, "0", fmt.Sprintf("shared %d", n))["id"].(string)
		f := e.uploadFile(admin, dir, "f.txt", []byte("content"))["id"].(string)
		doomed := e.uploadFile(admin, dir, "doomed.txt", []byte("x"))["id"].(string)
		require.Equal(t, http.StatusNotFound, e.statusOf(user, "/files/"+f), "before the collaboration")

		resp, c := e.collaborate(admin, "folder", dir, collabUser(e.s.UserID()), role)
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
		require.Equal(t, "accepted", c["status"], "a user of the enterprise is accepted at once")

		got := map[string]bool{}
		got["see"] = e.statusOf(user, "/files/"+f) == http.StatusOK && e.statusOf(user, "/folders/"+dir+"/items") == http.StatusOK
		resp, _ = e.do("GET", e.api("/files/"+f+"/content"), user, nil, nil)
		got["download"] = resp.StatusCode == http.StatusFound
		resp, _ = e.uploadRaw(user, e.upload("/files/content"), fmt.Sprintf(`{"name":"up.txt","parent":{"id":%q}}`, dir), []byte("u"), nil)
		got["upload"] = resp.StatusCode == http.StatusCreated
		resp, _ = e.put(user, "/files/"+f, map[string]any{"shared_link": map[string]any{"access": "collaborators"}}, nil)
		got["share"] = resp.StatusCode == http.StatusOK
		resp, _ = e.put(user, "/files/"+f, map[string]any{"description": "changed"}, nil)
		got["edit"] = resp.StatusCode == http.StatusOK
		resp, _ = e.do("DELETE", e.api("/files/"+doomed), user, nil, nil)
		got["delete"] = resp.StatusCode == http.StatusNoContent
		resp, _ = e.collaborate(user, "file", f, map[string]any{"type": "user", "login": "someone@example.com"}, "viewer")
		got["invite"] = resp.StatusCode == http.StatusCreated
		_, other := e.collaborate(admin, "file", f, map[string]any{"type": "user", "login": "other@example.com"}, "viewer")
		resp, _ = e.put(user, "/collaborations/"+other["id"].(string), map[string]any{"role": "editor"}, nil)
		got["manage"] = resp.StatusCode == http.StatusOK
		for _, a := range []string{"see", "download", "upload", "share", "edit", "delete", "invite", "manage"} {
			require.Equal(t, allowed[a], got[a], "role %s, action %s", role, a)
		}
		if !allowed["download"] {
			resp, m := e.doJSON("GET", e.api("/files/"+f+"/content"), user, nil, nil)
			requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		}

		resp, _ = e.do("DELETE", e.api("/collaborations/"+c["id"].(string)), admin, nil, nil)
		require.Equal(t, http.StatusNoContent, resp.StatusCode)
		require.Equal(t, http.StatusNotFound, e.statusOf(user, "/files/"+f), "a removed collaboration removes the access")
	}
}

func TestCollaborationRules(t *testing.T) {
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	dir := e.createFolder(admin, "0", "team")["id"].(string)
	f := e.uploadFile(admin, dir, "plan.txt", []byte("p"))["id"].(string)
	wl := e.createWebLink(admin, dir, "https://example.com", "link")["id"].(string)

	resp, c := e.collaborate(admin, "folder", dir, collabUser(e.s.UserID()), "editor")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	require.Equal(t, dir, c["item"].(map[string]any)["id"])
	require.Equal(t, "user@cms.test", c["accessible_by"].(map[string]any)["login"])
	require.Equal(t, false, c["can_view_path"])

	before := snapshot(e.s)
	for _, tc := range []struct {
		token  string
		body   map[string]any
		status int
		code   string
	}{
		{admin, map[string]any{"item": map[string]any{"type": "folder", "id": dir}, "accessible_by": collabUser(e.s.UserID()), "role": "viewer"}, 400, state.CodeAlreadyCollaborator},
		{admin, map[string]any{"item": map[string]any{"type": "folder", "id": dir}, "accessible_by": collabUser(e.s.AdminUserID()), "role": "viewer"}, 400, state.CodeAlreadyCollaborator},
		{admin, map[string]any{"item": map[string]any{"type": "folder", "id": "0"}, "accessible_by": collabUser(e.s.UserID()), "role": "viewer"}, 400, state.CodeCollabOnRoot},
		{admin, map[string]any{"item": map[string]any{"type": "web_link", "id": wl}, "accessible_by": collabUser(e.s.UserID()), "role": "viewer"}, 400, state.CodeInvalidCollaborationItem},
		{admin, map[string]any{"item": map[string]any{"type": "file", "id": f}, "accessible_by": collabUser(e.s.UserID()), "role": "owner"}, 400, wire.CodeBadRequest},
		{admin, map[string]any{"item": map[string]any{"type": "file", "id": f}, "accessible_by": collabUser("99999"), "role": "viewer"}, 404, wire.CodeNotFound},
		{admin, map[string]any{"item": map[string]any{"type": "file", "id": f}, "accessible_by": map[string]any{"type": "user", "id": e.s.UserID(), "login": "x@y.z"}, "role": "viewer"}, 400, wire.CodeBadRequest},
		{admin, map[string]any{"item": map[string]any{"type": "file", "id": f}, "accessible_by": map[string]any{"type": "user", "login": "not-an-address"}, "role": "viewer"}, 400, wire.CodeBadRequest},
		{admin, map[string]any{"item": map[string]any{"type": "file", "id": f}, "accessible_by": collabUser(e.s.UserID()), "role": "viewer", "can_view_path": true}, 400, wire.CodeBadRequest},
		{user, map[string]any{"item": map[string]any{"type": "folder", "id": dir}, "accessible_by": map[string]any{"type": "user", "login": "a@b.c"}, "role": "co-owner"}, 403, wire.CodeAccessDenied},
		{admin, map[string]any{"item": map[string]any{"type": "file", "id": f}, "role": "viewer"}, 400, wire.CodeBadRequest},
	} {
		resp, m := e.post(tc.token, "/collaborations", tc.body)
		requireAPIError(t, resp, m, tc.status, tc.code)
	}
	require.Equal(t, before, snapshot(e.s), "refused collaborations change nothing")

	// A task assigned to the collaborator works; to a stranger it does not.
	task := e.createTask(admin, f, nil)
	resp, m := e.post(admin, "/task_assignments", map[string]any{"task": map[string]any{"id": task["id"], "type": "task"}, "assign_to": map[string]any{"id": e.s.UserID()}})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	stranger := e.ok(http.MethodPost, "/users", admin, map[string]any{"name": "Stranger", "login": "stranger@cms.test"}, http.StatusCreated)["id"].(string)
	resp, m = e.post(admin, "/task_assignments", map[string]any{"task": map[string]any{"id": task["id"], "type": "task"}, "assign_to": map[string]any{"id": stranger}})
	requireAPIError(t, resp, m, http.StatusBadRequest, state.CodeTaskAssigneeNotAllowed)

	// An invitation by e-mail is pending until its user exists and accepts;
	// nobody else may accept it.
	resp, inv := e.collaborate(admin, "file", f, map[string]any{"type": "user", "login": "newcomer@cms.test"}, "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", inv)
	require.Equal(t, "pending", inv["status"])
	require.Nil(t, inv["accessible_by"])
	require.Nil(t, inv["item"], "a pending collaboration's item is null")
	require.Equal(t, "newcomer@cms.test", inv["invite_email"])
	invPath := "/collaborations/" + inv["id"].(string)
	resp, m = e.put(user, invPath, map[string]any{"status": "accepted"}, nil)
	requireAPIError(t, resp, m, http.StatusBadRequest, state.CodeInvalidStatus)
	newcomer := e.ok(http.MethodPost, "/users", admin, map[string]any{"name": "New", "login": "newcomer@cms.test"}, http.StatusCreated)["id"].(string)
	asNew := hdr{"As-User": newcomer}
	resp, m = e.doJSON("GET", e.api("/collaborations?status=pending"), admin, nil, asNew)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.EqualValues(t, 1, m["total_count"])
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/files/"+f, asNew), "pending grants nothing")
	resp, m = e.put(admin, invPath, map[string]any{"status": "accepted"}, asNew)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Equal(t, "accepted", m["status"])
	require.NotNil(t, m["acknowledged_at"])
	require.Equal(t, http.StatusOK, e.statusWith(admin, "/files/"+f, asNew))
	resp, m = e.put(admin, invPath, map[string]any{"status": "rejected"}, asNew)
	requireAPIError(t, resp, m, http.StatusBadRequest, state.CodeInvalidStatus)

	// The item's collaborations, two pages by marker.
	var ids []string
	marker := ""
	for range 3 {
		page := e.getJSON(admin, "/files/"+f+"/collaborations?limit=1&marker="+marker)
		for _, x := range page["entries"].([]any) {
			ids = append(ids, x.(map[string]any)["id"].(string))
		}
		if page["next_marker"] == nil {
			break
		}
		marker = page["next_marker"].(string)
	}
	require.Equal(t, []string{inv["id"].(string)}, ids, "a file lists its own collaborations")
	require.EqualValues(t, 1, len(e.getJSON(admin, "/folders/"+dir+"/collaborations")["entries"].([]any)))

	// Ownership goes to the editor: 204, and the old owner is a co-owner.
	resp, _ = e.put(admin, "/collaborations/"+c["id"].(string), map[string]any{"role": "owner"}, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	require.Equal(t, "user@cms.test", e.getJSON(user, "/folders/"+dir)["owned_by"].(map[string]any)["login"])
	require.Equal(t, "user@cms.test", e.getJSON(user, "/files/"+f)["owned_by"].(map[string]any)["login"])
	entries := e.getJSON(user, "/folders/"+dir+"/collaborations")["entries"].([]any)
	require.Len(t, entries, 1)
	require.Equal(t, "co-owner", entries[0].(map[string]any)["role"])
	require.Equal(t, "admin@cms.test", entries[0].(map[string]any)["accessible_by"].(map[string]any)["login"])
}

func (e *env) statusWith(token, path string, h hdr) int {
	e.t.Helper()
	resp, _ := e.do("GET", e.api(path), token, nil, h)
	return resp.StatusCode
}

func TestGroupCollaboration(t *testing.T) {
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	g := e.newGroup("readers", nil)
	dir := e.createFolder(admin, "0", "for readers")["id"].(string)
	resp, c := e.collaborate(admin, "folder", dir, map[string]any{"type": "group", "id": g}, "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	require.Equal(t, "group", c["accessible_by"].(map[string]any)["type"])
	require.Equal(t, http.StatusNotFound, e.statusOf(user, "/folders/"+dir), "not a member yet")
	e.join(e.s.UserID(), g, nil)
	require.Equal(t, http.StatusOK, e.statusOf(user, "/folders/"+dir), "members see it")
	page := e.getJSON(admin, "/groups/"+g+"/collaborations")
	require.EqualValues(t, 1, page["total_count"])
	page = e.getJSON(user, "/groups/"+g+"/collaborations")
	require.EqualValues(t, 1, page["total_count"], "members list it too")
	resp, m := e.doJSON("GET", e.api("/collaborations"), user, nil, nil)
	requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
}

// TestDeletedCollaboratorsEndTheirCollaborations: deleting a group or a
// user ends their collaborations (404, not listed on the item), and a
// persisted server restarts after it (a collaboration of a deleted group
// made the restore fail).
func TestDeletedCollaboratorsEndTheirCollaborations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	admin := e.s.AdminToken()
	folder := e.createFolder(admin, "0", "shared")["id"].(string)
	g := e.newGroup("readers", nil)
	resp, gc := e.collaborate(admin, "folder", folder, map[string]any{"type": "group", "id": g}, "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", gc)
	resp, u := e.post(admin, "/users", map[string]any{"name": "Vera", "login": "vera@cms.test"})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", u)
	resp, uc := e.collaborate(admin, "folder", folder, map[string]any{"type": "user", "id": u["id"]}, "editor")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", uc)

	resp, _ = e.do("DELETE", e.api("/groups/"+g), admin, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	resp, _ = e.do("DELETE", e.api("/users/"+u["id"].(string)), admin, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	for _, c := range []map[string]any{gc, uc} {
		assert.Equal(t, http.StatusNotFound, e.statusOf(admin, "/collaborations/"+c["id"].(string)))
	}
	page := e.getJSON(admin, "/folders/"+folder+"/collaborations")
	assert.Empty(t, page["entries"], "the folder lists no collaboration of a deleted collaborator")

	require.NoError(t, e.s.Close())
	s2, err := New(Options{DataDir: dir})
	require.NoError(t, err, "the state restores")
	require.NoError(t, s2.Close())
}
