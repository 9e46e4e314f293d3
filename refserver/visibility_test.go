package refserver

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// What a caller is shown follows what they may read: the tests of
// paths.go, the user stream's rules (events_api.go), search's field gate
// and trash rule (search_run.go, search.go).

// as is a caller: a token, and the As-User header when the admin acts as
// another user.
type as struct {
	token string
	h     hdr
}

func (e *env) asUser(id string) as { return as{e.s.AdminToken(), hdr{"As-User": id}} }

func (e *env) getAs(c as, path string) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("GET", e.api(path), c.token, nil, c.h)
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "GET %s: %v", path, m)
	return m
}

// searchAs returns the names a search finds for c.
func (e *env) searchAs(c as, v url.Values) []string {
	e.t.Helper()
	m := e.getAs(c, "/search?"+v.Encode())
	names := []string{}
	for _, x := range m["entries"].([]any) {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	return names
}

// eventsAs returns the events of c's user stream after pos.
func (e *env) eventsAs(c as, pos string) []map[string]any {
	e.t.Helper()
	m := e.getAs(c, "/events?"+q("stream_position", pos).Encode())
	var out []map[string]any
	for _, x := range m["entries"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

func eventTypes(evs []map[string]any) []string {
	out := []string{}
	for _, ev := range evs {
		out = append(out, ev["event_type"].(string))
	}
	return out
}

// pathIDs are the ids of a record's path_collection.
func pathIDs(rec map[string]any) []string {
	out := []string{}
	for _, x := range rec["path_collection"].(map[string]any)["entries"].([]any) {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	return out
}

// TestUploaderReadsNoCommentsOrContent: an uploader sees a file's name but
// not its comments (events) nor its content or comments (search), where a
// previewer does; nobody but the owner finds the owner's trash by search.
func TestUploaderReadsNoCommentsOrContent(t *testing.T) {
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	owner := as{admin, nil}
	uploader := as{e.s.UserToken(), nil}
	previewer := e.asUser(e.newUser("Pat", "pat@cms.test"))
	dir := e.createFolder(admin, "0", "shared")["id"].(string)
	f := e.uploadFile(admin, dir, "plan.txt", []byte("zebra crossing"))["id"].(string)
	old := e.uploadFile(admin, dir, "old.txt", []byte("quokka"))["id"].(string)
	for who, role := range map[string]string{e.s.UserID(): "uploader", previewer.h["As-User"]: "previewer"} {
		resp, m := e.collaborate(admin, "folder", dir, collabUser(who), role)
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	}
	_, _, pos := e.events(admin, q("stream_position", "now"))
	resp, m := e.post(admin, "/comments", map[string]any{"message": "walrus remark", "item": map[string]any{"type": "file", "id": f}})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	e.deleteOK(admin, "/files/"+old)

	require.NotContains(t, eventTypes(e.eventsAs(uploader, pos)), "COMMENT_CREATE", "an uploader does not read comments through /events")
	require.Contains(t, eventTypes(e.eventsAs(previewer, pos)), "COMMENT_CREATE")

	for _, c := range []struct {
		query, types string
		uploader     []string
		previewer    []string
	}{
		{"zebra", "", []string{}, []string{"plan.txt"}},
		{"zebra", "file_content", []string{}, []string{"plan.txt"}},
		{"walrus", "comments", []string{}, []string{"plan.txt"}},
		{"walrus OR plan", "", []string{"plan.txt"}, []string{"plan.txt"}},
		{"plan", "name", []string{"plan.txt"}, []string{"plan.txt"}},
		// NOT is matched in the same fields: the uploader's query cannot
		// tell the content by an item left out.
		{"plan AND NOT zebra", "", []string{"plan.txt"}, []string{}},
		{"plan AND NOT walrus", "", []string{"plan.txt"}, []string{}},
	} {
		v := q("query", c.query)
		if c.types != "" {
			v.Set("content_types", c.types)
		}
		require.Equal(t, c.uploader, e.searchAs(uploader, v), "uploader: %s in %q", c.query, c.types)
		require.Equal(t, c.previewer, e.searchAs(previewer, v), "previewer: %s in %q", c.query, c.types)
	}

	trashed := q("query", "old", "trash_content", "trashed_only")
	require.Equal(t, []string{"old.txt"}, e.searchAs(owner, trashed))
	require.Empty(t, e.searchAs(uploader, trashed), "a collaborator does not search the owner's trash")
	require.Empty(t, e.searchAs(previewer, trashed))
	require.Empty(t, e.searchAs(previewer, q("query", "old", "trash_content", "all_items")))
}

// TestCollaboratorSeesPathFromTheSharedFolder: without can_view_path a
// collaborator's path starts at their All Files, then the collaborated
// folder: records, listings, search, event sources. With can_view_path
// the whole path; the owner sees it all.
func TestCollaboratorSeesPathFromTheSharedFolder(t *testing.T) {
	e := newEnv(t, Options{})
	user := e.s.UserToken()
	owner := as{user, nil}
	private := e.createFolder(user, "0", "Private plans")["id"].(string)
	deep := e.createFolder(user, private, "Layoffs 2026")["id"].(string)
	shared := e.createFolder(user, deep, "Shared")["id"].(string)
	f := e.uploadFile(user, shared, "x.txt", []byte("x"))["id"].(string)
	bob := e.newUser("Bob", "bob@cms.test")
	carol := e.newUser("Carol", "carol@cms.test")
	resp, m := e.collaborate(user, "folder", shared, collabUser(bob), "editor")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	resp, m = e.post(user, "/collaborations", map[string]any{"item": map[string]any{"type": "folder", "id": shared},
		"accessible_by": collabUser(carol), "role": "viewer", "can_view_path": true})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	asBob, asCarol := e.asUser(bob), e.asUser(carol)
	_, _, pos := e.events(user, q("stream_position", "now"))

	full := []string{"0", private, deep, shared}
	require.Equal(t, full, pathIDs(e.getAs(owner, "/files/"+f)))
	require.Equal(t, full, pathIDs(e.getAs(asCarol, "/files/"+f)), "can_view_path shows the whole path")
	rec := e.getAs(asBob, "/files/"+f)
	require.Equal(t, []string{"0", shared}, pathIDs(rec), "the owner's private folders are not shown")
	require.Equal(t, "All Files", rec["path_collection"].(map[string]any)["entries"].([]any)[0].(map[string]any)["name"])
	require.EqualValues(t, 2, rec["path_collection"].(map[string]any)["total_count"])
	top := e.getAs(asBob, "/folders/"+shared)
	require.Equal(t, []string{"0"}, pathIDs(top))
	require.Equal(t, "0", top["parent"].(map[string]any)["id"], "a parent Bob may not see is his All Files")
	require.Equal(t, deep, e.getAs(asCarol, "/folders/"+shared)["parent"].(map[string]any)["id"])

	items := e.getAs(asBob, "/folders/"+shared+"/items?fields=name,path_collection")["entries"].([]any)
	require.Equal(t, []string{"0", shared}, pathIDs(items[0].(map[string]any)), "listings")
	hits := e.getAs(asBob, "/search?query=x")["entries"].([]any)
	require.Len(t, hits, 1)
	require.Equal(t, []string{"0", shared}, pathIDs(hits[0].(map[string]any)), "search results")

	resp, m = e.put(user, "/files/"+f, map[string]any{"name": "y.txt"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	evs := e.eventsAs(asBob, pos)
	require.Equal(t, []string{"ITEM_RENAME"}, eventTypes(evs))
	require.Equal(t, []string{"0", shared}, pathIDs(evs[0]["source"].(map[string]any)), "event sources")
	evs = e.eventsAs(owner, pos)
	require.Equal(t, full, pathIDs(evs[0]["source"].(map[string]any)))
}

// TestUserStreamFromTheGrant: a collaborator's stream starts when the
// collaboration grants (not the item's earlier, private history); a
// download or a preview is the content owner's notification only.
func TestUserStreamFromTheGrant(t *testing.T) {
	e := newEnv(t, Options{})
	user := e.s.UserToken()
	owner := as{user, nil}
	dir := e.createFolder(user, "0", "d")["id"].(string)
	f := e.uploadFile(user, dir, "salary cuts draft.txt", []byte("x"))["id"].(string)
	resp, m := e.put(user, "/files/"+f, map[string]any{"name": "notes.txt"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	bob := e.newUser("Bob", "bob@cms.test")
	asBob := e.asUser(bob)
	resp, m = e.collaborate(user, "folder", dir, collabUser(bob), "editor")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)

	evs := e.eventsAs(asBob, "0")
	require.Equal(t, []string{"COLLAB_ADD_COLLABORATOR"}, eventTypes(evs), "the file's earlier names are not in Bob's history")
	require.NotContains(t, eventTypes(e.eventsAs(owner, "0")), "COLLAB_ROLE_CHANGE")

	// A file the owner kept private until after the grant: its private
	// history is not Bob's once it moves in (from a folder, or the root).
	for _, parent := range []string{e.createFolder(user, "0", "private")["id"].(string), "0"} {
		g := e.uploadFile(user, parent, "layoffs "+parent+".txt", []byte("x"))["id"].(string)
		resp, m = e.put(user, "/files/"+g, map[string]any{"name": "memo " + parent + ".txt"}, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
		_, _, moved := e.events(user, q("stream_position", "now"))
		resp, m = e.put(user, "/files/"+g, map[string]any{"parent": map[string]any{"id": dir}}, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
		evs = e.eventsAs(asBob, "0")
		for _, ev := range evs {
			if src, ok := ev["source"].(map[string]any); ok && src["id"] == g {
				require.Equal(t, "ITEM_MOVE", ev["event_type"], "only the move into the shared folder: %v", src["name"])
			}
		}
		require.Contains(t, eventTypes(e.eventsAs(asBob, moved)), "ITEM_MOVE")
	}

	_, _, pos := e.events(user, q("stream_position", "now"))
	resp, _ = e.do("GET", e.api("/files/"+f+"/content"), user, nil, nil) // the owner's download
	require.Equal(t, http.StatusFound, resp.StatusCode)
	resp, _ = e.do("GET", e.api("/files/"+f+"/content"), asBob.token, nil, asBob.h) // Bob's
	require.Equal(t, http.StatusFound, resp.StatusCode)
	embed := e.getAs(asBob, "/files/"+f+"?fields=expiring_embed_link")["expiring_embed_link"].(map[string]any)["url"].(string)
	resp, _ = e.do("GET", embed, "", nil, nil) // Bob opens the preview
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Empty(t, eventTypes(e.eventsAs(asBob, pos)), "only the content owner is notified of downloads and previews")
	require.Equal(t, []string{"ITEM_DOWNLOAD", "ITEM_DOWNLOAD", "ITEM_PREVIEW"}, eventTypes(e.eventsAs(owner, pos)))
}

// TestEventsOfSharedLinksAndRoles: a shared link's creation, change and
// removal are ITEM_SHARED_CREATE, ITEM_SHARED_UPDATE, ITEM_SHARED_UNSHARE;
// a new role is COLLAB_ROLE_CHANGE (COLLABORATION_ROLE_CHANGE in the
// enterprise stream).
func TestEventsOfSharedLinksAndRoles(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	dir := e.createFolder(user, "0", "d")["id"].(string)
	f := e.uploadFile(user, dir, "f.txt", []byte("x"))["id"].(string)
	bob := e.newUser("Bob", "bob@cms.test")
	_, c := e.collaborate(user, "folder", dir, collabUser(bob), "viewer")
	_, _, pos := e.events(user, q("stream_position", "now"))
	_, _, adminPos := e.events(admin, q("stream_position", "now", "stream_type", "admin_logs"))
	for _, link := range []any{map[string]any{"access": "open"}, map[string]any{"access": "collaborators"}, nil} {
		resp, m := e.put(user, "/files/"+f, map[string]any{"shared_link": link}, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	}
	resp, m := e.put(user, "/files/"+f, map[string]any{"shared_link": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m) // no link to remove: no event
	resp, m = e.put(user, "/collaborations/"+c["id"].(string), map[string]any{"role": "editor"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Equal(t, []string{"ITEM_SHARED_CREATE", "ITEM_SHARED_UPDATE", "ITEM_SHARED_UNSHARE", "COLLAB_ROLE_CHANGE"}, eventTypes(e.eventsAs(as{user, nil}, pos)))
	types, _, _ := e.events(user, q("stream_position", pos, "stream_type", "changes"))
	require.Equal(t, []string{"COLLAB_ROLE_CHANGE"}, types, "a role change is a change of the tree's access")
	types, _, _ = e.events(admin, q("stream_position", adminPos, "stream_type", "admin_logs"))
	require.Equal(t, []string{"SHARE", "ITEM_SHARED_UPDATE", "UNSHARE", "COLLABORATION_ROLE_CHANGE"}, types)
}

// TestCollaborationRecordsAsBoxShowsThem: a pending invitee's name is
// empty (the spec's User--Collaborations); an expired collaboration is
// gone (not listed, 404), and its user may be invited again.
func TestCollaborationRecordsAsBoxShowsThem(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	dir := e.createFolder(user, "0", "d")["id"].(string)

	resp, inv := e.collaborate(user, "folder", dir, map[string]any{"type": "user", "login": "later@cms.test"}, "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", inv)
	e.newUser("Later", "later@cms.test")
	got := e.getJSON(user, "/collaborations/"+inv["id"].(string))
	require.Equal(t, "pending", got["status"])
	ab := got["accessible_by"].(map[string]any)
	require.Equal(t, "", ab["name"], "a pending invitee's name is an empty string")
	require.Equal(t, "later@cms.test", ab["login"])

	bob := e.newUser("Bob", "bob@cms.test")
	expires := e.clock.Now().Add(48 * 3600e9).Format("2006-01-02T15:04:05Z07:00")
	resp, c := e.post(user, "/collaborations", map[string]any{"item": map[string]any{"type": "folder", "id": dir},
		"accessible_by": collabUser(bob), "role": "editor", "expires_at": expires})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	require.Len(t, e.getJSON(user, "/folders/"+dir+"/collaborations")["entries"], 2)
	e.clock.Advance(72 * 3600e9)
	entries := e.getJSON(user, "/folders/"+dir+"/collaborations")["entries"].([]any)
	require.Len(t, entries, 1, "an expired collaboration is no longer listed")
	require.Equal(t, inv["id"], entries[0].(map[string]any)["id"])
	resp, m := e.doJSON("GET", e.api("/collaborations/"+c["id"].(string)), user, nil, nil)
	requireAPIError(t, resp, m, http.StatusNotFound, wire.CodeNotFound)
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/folders/"+dir, hdr{"As-User": bob}))
	resp, m = e.collaborate(user, "folder", dir, collabUser(bob), "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "invited again: %v", m)
}
