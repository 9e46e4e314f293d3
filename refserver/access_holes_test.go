package refserver

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// The access holes of issue 31, each through the API (the table itself is
// tested in the state package: TestAccessMatrix).

// collabEnv is an admin-owned folder shared with the managed user in role.
func collabEnv(t *testing.T, role string) (e *env, admin, user, dir string) {
	e = newEnv(t, Options{})
	admin, user = e.s.AdminToken(), e.s.UserToken()
	dir = e.createFolder(admin, "0", "team")["id"].(string)
	resp, c := e.collaborate(admin, "folder", dir, collabUser(e.s.UserID()), role)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	return e, admin, user, dir
}

// TestTrashIsTheOwners: no collaborator, whatever the role, sees, restores
// (into their own root, taking the file) or purges the owner's trash.
func TestTrashIsTheOwners(t *testing.T) {
	for _, role := range []string{"previewer", "uploader", "editor", "co-owner"} {
		e, admin, user, dir := collabEnv(t, role)
		f := e.uploadFile(admin, dir, "secret.txt", []byte("secret"))["id"].(string)
		e.deleteOK(admin, "/files/"+f)
		require.Equal(t, http.StatusNotFound, e.statusOf(user, "/files/"+f+"/trash"), role)
		list := e.getJSON(user, "/folders/trash/items")
		require.Empty(t, list["entries"], role)
		before := snapshot(e.s)
		resp, m := e.post(user, "/files/"+f, map[string]any{"parent": map[string]any{"id": "0"}})
		requireAPIError(t, resp, m, http.StatusNotFound, wire.CodeNotFound)
		resp, body := e.do("DELETE", e.api("/files/"+f+"/trash"), user, nil, nil)
		require.Equal(t, http.StatusNotFound, resp.StatusCode, "%s: %s", role, body)
		require.Equal(t, before, snapshot(e.s), "refused trash calls change nothing")
		require.Equal(t, http.StatusOK, e.statusOf(admin, "/files/"+f+"/trash"), "the owner's trash")
	}
	// What an editor deletes goes to the owner's trash: the owner restores it.
	e, admin, user, dir := collabEnv(t, "editor")
	f := e.uploadFile(admin, dir, "draft.txt", []byte("d"))["id"].(string)
	e.deleteOK(user, "/files/"+f)
	require.Equal(t, http.StatusNotFound, e.statusOf(user, "/files/"+f+"/trash"))
	resp, m := e.post(admin, "/files/"+f, map[string]any{})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	require.Equal(t, "admin@cms.test", m["owned_by"].(map[string]any)["login"])
}

// TestTopLevelItemIsTheOwners: an editor or co-owner neither moves the
// collaborated folder into their root, nor trashes it, nor copies it; they
// do all three to what is inside.
func TestTopLevelItemIsTheOwners(t *testing.T) {
	for _, role := range []string{"editor", "co-owner"} {
		e, admin, user, dir := collabEnv(t, role)
		sub := e.createFolder(admin, dir, "inside")["id"].(string)
		outer := e.createFolder(admin, "0", "outer")["id"].(string)
		nested := e.createFolder(admin, outer, "nested")["id"].(string)
		resp, c := e.collaborate(admin, "folder", nested, collabUser(e.s.UserID()), role)
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
		before := snapshot(e.s)
		resp, m := e.put(user, "/folders/"+nested, map[string]any{"parent": map[string]any{"id": "0"}}, nil)
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		resp, m = e.put(user, "/folders/"+dir, map[string]any{"parent": map[string]any{"id": "0"}}, nil)
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		resp, m = e.doJSON("DELETE", e.api("/folders/"+dir+"?recursive=true"), user, nil, nil)
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		resp, m = e.post(user, "/folders/"+dir+"/copy", map[string]any{"parent": map[string]any{"id": "0"}})
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		require.Equal(t, before, snapshot(e.s), role)
		require.Equal(t, "admin@cms.test", e.getJSON(admin, "/folders/"+dir)["owned_by"].(map[string]any)["login"])

		resp, m = e.post(user, "/folders/"+sub+"/copy", map[string]any{"parent": map[string]any{"id": dir}, "name": "copy"})
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%s: %v", role, m)
		resp, m = e.put(user, "/folders/"+m["id"].(string), map[string]any{"parent": map[string]any{"id": sub}}, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %v", role, m)
		e.deleteOK(user, "/folders/"+sub+"?recursive=true")
	}
}

// TestViewerGetsViewOnlyLinks: a viewer makes a view-only link where there
// is none, reads the current one, and changes or removes none.
func TestViewerGetsViewOnlyLinks(t *testing.T) {
	e, admin, user, dir := collabEnv(t, "viewer")
	f := e.uploadFile(admin, dir, "plan.txt", []byte("p"))["id"].(string)
	resp, m := e.put(admin, "/files/"+f+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "collaborators"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	before := snapshot(e.s)
	for _, link := range []any{
		map[string]any{"access": "open"},
		map[string]any{"access": "company", "permissions": map[string]any{"can_download": true}},
		map[string]any{"access": "open", "password": "Secret-123"},
		map[string]any{"vanity_name": "a-long-vanity-name"},
		nil,
	} {
		resp, m := e.put(user, "/files/"+f, map[string]any{"shared_link": link}, nil)
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	}
	resp, m = e.put(user, "/files/"+f, map[string]any{"parent": map[string]any{"id": dir}}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied) // a "move" in place still changes the etag
	require.Equal(t, before, snapshot(e.s), "a viewer changes no link")
	resp, m = e.put(user, "/files/"+f+"?fields=shared_link", map[string]any{"shared_link": map[string]any{}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "the current link, unchanged: %v", m)
	require.Equal(t, "collaborators", m["shared_link"].(map[string]any)["access"])
	require.Equal(t, before, snapshot(e.s), "reading the current link changes nothing")

	// The owner's password stays.
	locked := e.uploadFile(admin, dir, "locked.txt", []byte("l"))["id"].(string)
	resp, m = e.put(admin, "/files/"+locked, map[string]any{"shared_link": map[string]any{"access": "open", "password": "Secret-123"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	resp, m = e.put(user, "/files/"+locked, map[string]any{"shared_link": map[string]any{"access": "open", "password": nil}}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	require.Equal(t, true, e.getJSON(admin, "/files/"+locked+"?fields=shared_link")["shared_link"].(map[string]any)["is_password_enabled"])

	// A new link: view-only.
	g := e.uploadFile(admin, dir, "other.txt", []byte("o"))["id"].(string)
	resp, m = e.put(user, "/files/"+g, map[string]any{"shared_link": map[string]any{"access": "open", "permissions": map[string]any{"can_download": true}}}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	resp, m = e.put(user, "/files/"+g+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	link := m["shared_link"].(map[string]any)
	require.Equal(t, false, link["permissions"].(map[string]any)["can_download"], "a viewer's link is view-only")
	require.Equal(t, "can_preview", link["effective_permission"])
	require.Nil(t, link["download_url"])

	// A viewer of a web link reads its link too, and changes it not.
	wl := e.createWebLink(admin, dir, "https://example.com", "site")["id"].(string)
	e.shareWebLink(admin, wl, map[string]any{"access": "collaborators"})
	resp, m = e.put(user, "/web_links/"+wl, map[string]any{"shared_link": map[string]any{"access": "open"}}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	resp, m = e.put(user, "/web_links/"+wl, map[string]any{"shared_link": map[string]any{"access": "collaborators"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
}

// TestVanityNamesAreUnique: a vanity name another link has is refused
// (400, case ignored); an item keeps its own.
func TestVanityNamesAreUnique(t *testing.T) {
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	a := e.uploadFile(admin, "0", "a.txt", []byte("a"))["id"].(string)
	b := e.uploadFile(user, "0", "b.txt", []byte("b"))["id"].(string)
	resp, m := e.put(admin, "/files/"+a, map[string]any{"shared_link": map[string]any{"access": "open", "vanity_name": "quarterly-plan"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	for _, name := range []string{"quarterly-plan", "Quarterly-Plan"} {
		resp, m = e.put(user, "/files/"+b, map[string]any{"shared_link": map[string]any{"access": "open", "vanity_name": name}}, nil)
		requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
	}
	resp, m = e.put(admin, "/files/"+a, map[string]any{"shared_link": map[string]any{"access": "open", "vanity_name": "quarterly-plan"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "the item's own vanity name: %v", m)
}

// TestLockedDownloadIsNotCopied: a lock that prevents downloads prevents
// copies too, of the file and of a folder holding it.
func TestLockedDownloadIsNotCopied(t *testing.T) {
	e, admin, user, dir := collabEnv(t, "editor")
	inner := e.createFolder(admin, dir, "inner")["id"].(string)
	f := e.uploadFile(admin, inner, "locked.txt", []byte("x"))["id"].(string)
	resp, m := e.put(admin, "/files/"+f, map[string]any{"lock": map[string]any{"access": "lock", "is_download_prevented": true}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	before := snapshot(e.s)
	resp, m = e.post(user, "/files/"+f+"/copy", map[string]any{"parent": map[string]any{"id": "0"}})
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	resp, m = e.post(user, "/folders/"+inner+"/copy", map[string]any{"parent": map[string]any{"id": "0"}})
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeItemLocked)
	require.Equal(t, before, snapshot(e.s))
	resp, m = e.post(admin, "/files/"+f+"/copy", map[string]any{"parent": map[string]any{"id": "0"}})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "the locker copies: %v", m)
}

// TestFolderCollaborationSettings: only the owner sets them, and they hold:
// non-owners invite nobody and list no collaborators when they say so, and
// nobody invites outside the enterprise when it is restricted. Only the
// owner changes can_view_path.
func TestFolderCollaborationSettings(t *testing.T) {
	for _, role := range []string{"editor", "co-owner"} {
		e, admin, user, dir := collabEnv(t, role)
		for _, body := range []map[string]any{
			{"can_non_owners_invite": false}, {"can_non_owners_view_collaborators": false},
			{"is_collaboration_restricted_to_enterprise": true},
		} {
			resp, m := e.put(user, "/folders/"+dir, body, nil)
			requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		}
		invite := func(token, login string) (*http.Response, map[string]any) {
			return e.collaborate(token, "folder", dir, map[string]any{"type": "user", "login": login}, "viewer")
		}
		resp, m := invite(user, "first@cms.test")
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%s invites by default: %v", role, m)
		if role == "co-owner" {
			resp, m = e.put(user, "/collaborations/"+m["id"].(string), map[string]any{"can_view_path": true}, nil)
			requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		}

		resp, m = e.put(admin, "/folders/"+dir, map[string]any{"can_non_owners_view_collaborators": false}, nil)
		requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest) // the spec: invitations off first
		e.ok(http.MethodPut, "/folders/"+dir, admin, map[string]any{"can_non_owners_invite": false}, http.StatusOK)
		resp, m = invite(user, "second@cms.test")
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		resp, m = invite(admin, "second@cms.test")
		require.Equal(t, http.StatusCreated, resp.StatusCode, "the owner invites: %v", m)
		require.Equal(t, http.StatusOK, e.statusOf(user, "/folders/"+dir+"/collaborations"))

		e.ok(http.MethodPut, "/folders/"+dir, admin, map[string]any{"can_non_owners_view_collaborators": false}, http.StatusOK)
		resp, body := e.do("GET", e.api("/folders/"+dir+"/collaborations"), user, nil, nil)
		require.Equal(t, http.StatusForbidden, resp.StatusCode, "%s", body)
		require.Equal(t, http.StatusOK, e.statusOf(admin, "/folders/"+dir+"/collaborations"))

		e.ok(http.MethodPut, "/folders/"+dir, admin, map[string]any{"is_collaboration_restricted_to_enterprise": true}, http.StatusOK)
		resp, m = invite(admin, "outsider@example.com")
		requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
		other := e.newUser("Colleague", "colleague@cms.test")
		resp, m = e.collaborate(admin, "folder", dir, collabUser(other), "viewer")
		require.Equal(t, http.StatusCreated, resp.StatusCode, "a user of the enterprise: %v", m)
	}
}

// TestPermissionsAreTheCallers: permissions says what the caller may do.
func TestPermissionsAreTheCallers(t *testing.T) {
	for role, want := range map[string]map[string]bool{
		"viewer":    {"can_delete": false, "can_download": true, "can_rename": false, "can_upload": false, "can_set_share_access": false, "can_share": true},
		"previewer": {"can_delete": false, "can_download": false, "can_preview": true, "can_share": false},
		"editor":    {"can_delete": true, "can_download": true, "can_rename": true, "can_invite_collaborator": true},
	} {
		e, admin, user, dir := collabEnv(t, role)
		f := e.uploadFile(admin, dir, "f.txt", []byte("f"))["id"].(string)
		perms := e.getJSON(user, "/files/"+f+"?fields=permissions")["permissions"].(map[string]any)
		for k, v := range want {
			require.Equal(t, v, perms[k], "%s: %s", role, k)
		}
		list := e.getJSON(user, "/folders/"+dir+"/items?fields=permissions")["entries"].([]any)
		require.Equal(t, want["can_delete"], list[0].(map[string]any)["permissions"].(map[string]any)["can_delete"], role)
		require.Equal(t, true, e.getJSON(admin, "/files/"+f+"?fields=permissions")["permissions"].(map[string]any)["can_delete"])
	}
}

// TestServiceAccountIsAUserOfItsOwn: a client-credentials token of the
// service account reaches its own content and what is shared with it, and
// others' content only As-User.
func TestServiceAccountIsAUserOfItsOwn(t *testing.T) {
	e := newEnv(t, Options{})
	user := e.s.UserToken()
	_, tok := e.ccg(e.registerApp(App{}), "enterprise", e.s.EnterpriseID())
	sa := tok["access_token"].(string)
	f := e.uploadFile(user, "0", "mine.txt", []byte("m"))["id"].(string)
	require.Equal(t, http.StatusNotFound, e.statusOf(sa, "/files/"+f))
	require.Equal(t, http.StatusOK, e.statusWith(sa, "/files/"+f, hdr{"As-User": e.s.UserID()}))
	own := e.createFolder(sa, "0", "service folder")
	require.Equal(t, "automation@cms.test", own["owned_by"].(map[string]any)["login"])
	require.Equal(t, http.StatusNotFound, e.statusOf(user, "/folders/"+own["id"].(string)))
	resp, c := e.collaborate(user, "file", f, map[string]any{"type": "user", "login": "automation@cms.test"}, "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	require.Equal(t, http.StatusOK, e.statusOf(sa, "/files/"+f), "shared with it")
}

// TestRootListsCollaboratedItems: All Files shows the folders and files
// collaborated with the user (once, at their top), among their own.
func TestRootListsCollaboratedItems(t *testing.T) {
	e, admin, user, dir := collabEnv(t, "viewer")
	sub := e.createFolder(admin, dir, "sub")["id"].(string)
	resp, c := e.collaborate(admin, "folder", sub, collabUser(e.s.UserID()), "editor")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	alone := e.uploadFile(admin, "0", "alone.txt", []byte("a"))["id"].(string)
	resp, c = e.collaborate(admin, "file", alone, collabUser(e.s.UserID()), "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	mine := e.createFolder(user, "0", "mine")["id"].(string)
	var ids []string
	for _, x := range e.getJSON(user, "/folders/0/items?sort=name")["entries"].([]any) {
		ids = append(ids, x.(map[string]any)["id"].(string))
	}
	require.Equal(t, []string{mine, dir, alone}, ids, "folders by name, then files")
	page := e.getJSON(user, "/folders/0/items?limit=1&offset=1")
	require.EqualValues(t, 3, page["total_count"])
	require.Equal(t, dir, page["entries"].([]any)[0].(map[string]any)["id"])
	require.Len(t, e.getJSON(admin, "/folders/0/items")["entries"], 2, "the owner's root is unchanged")
}

// TestHasCollaborations: true for an item with collaborations of its own.
func TestHasCollaborations(t *testing.T) {
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	dir := e.createFolder(admin, "0", "team")["id"].(string)
	require.Equal(t, false, e.getJSON(admin, "/folders/"+dir+"?fields=has_collaborations")["has_collaborations"])
	resp, c := e.collaborate(admin, "folder", dir, collabUser(e.s.UserID()), "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	require.Equal(t, true, e.getJSON(admin, "/folders/"+dir+"?fields=has_collaborations")["has_collaborations"])
}

// TestSharedLinkDownloadURL: a file's link that lets its holders download
// has effective_permission can_download and a download_url anyone fetches;
// a view-only link has can_preview and none.
func TestSharedLinkDownloadURL(t *testing.T) {
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	f := e.uploadFile(admin, "0", "report.pdf", []byte("%PDF report"))["id"].(string)
	resp, m := e.put(admin, "/files/"+f+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	link := m["shared_link"].(map[string]any)
	require.Equal(t, "can_download", link["effective_permission"])
	dl, _ := link["download_url"].(string)
	require.Regexp(t, `/shared/static/[0-9a-f]+\.pdf$`, dl)
	resp, err := e.hc.Get(dl)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode)
	resp, err = e.hc.Get(resp.Header.Get("Location"))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, "%PDF report", string(body))

	resp, m = e.put(admin, "/files/"+f+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open", "permissions": map[string]any{"can_download": false}}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	link = m["shared_link"].(map[string]any)
	require.Equal(t, "can_preview", link["effective_permission"])
	require.Nil(t, link["download_url"])
	resp, err = e.hc.Get(dl)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "the old download_url no longer downloads")

	resp, m = e.put(admin, "/files/"+f+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open", "password": "Secret-123", "permissions": map[string]any{"can_download": true}}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Equal(t, dl, m["shared_link"].(map[string]any)["download_url"], "a password link has its download_url")
	resp, err = e.hc.Get(dl)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "which the content host does not serve without the password")

	resp, m = e.put(admin, "/files/"+f+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open", "permissions": map[string]any{"can_download": true, "can_edit": true}}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Equal(t, "can_edit", m["shared_link"].(map[string]any)["effective_permission"])

	dir := e.createFolder(admin, "0", "shared dir")["id"].(string)
	resp, m = e.put(admin, "/folders/"+dir+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Equal(t, "can_download", m["shared_link"].(map[string]any)["effective_permission"])
	require.Nil(t, m["shared_link"].(map[string]any)["download_url"], "a folder's download_url is null")
}
