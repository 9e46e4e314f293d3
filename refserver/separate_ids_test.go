package refserver

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twinItems makes, on a server with Options.SeparateIDSpaces, a folder and
// a file in token's root that carry the same id, and returns it. Files
// draw two ids (the file's, its version's) and folders one, so new
// folders catch up with the file's counter exactly.
func twinItems(t *testing.T, e *env, token string) string {
	t.Helper()
	num := func(m map[string]any) int64 {
		n, err := strconv.ParseInt(m["id"].(string), 10, 64)
		require.NoError(t, err)
		return n
	}
	folder := num(e.createFolder(token, "0", "twin folder"))
	file := num(e.uploadFile(token, "0", "twin.txt", []byte("file twin")))
	for i := 0; file < folder; i++ {
		require.Less(t, i, 1000, "the file counter never reached the folder's")
		file = num(e.uploadFile(token, "0", "pad"+strconv.Itoa(i)+".txt", nil))
	}
	for i := 0; folder < file; i++ {
		require.Less(t, i, 1000, "the folder counter never reached the file's")
		folder = num(e.createFolder(token, "0", "pad"+strconv.Itoa(i)))
	}
	id := strconv.FormatInt(file, 10)
	// The twins are the last ones made; rename them to known names.
	resp, m := e.put(token, "/folders/"+id, map[string]any{"name": "twin folder"}, nil)
	if resp.StatusCode == http.StatusConflict { // "twin folder" is the first folder, not this one
		e.deleteOK(token, "/folders/"+m["context_info"].(map[string]any)["conflicts"].(map[string]any)["id"].(string))
		resp, m = e.put(token, "/folders/"+id, map[string]any{"name": "twin folder"}, nil)
	}
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	resp, m = e.put(token, "/files/"+id, map[string]any{"name": "twin.txt"}, nil)
	if resp.StatusCode == http.StatusConflict {
		e.deleteOK(token, "/files/"+m["context_info"].(map[string]any)["conflicts"].(map[string]any)["id"].(string))
		resp, m = e.put(token, "/files/"+id, map[string]any{"name": "twin.txt"}, nil)
	}
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	return id
}

// requireTwins checks that GET reaches the file and the folder with id
// each by its own route.
func requireTwins(t *testing.T, e *env, token, id, fileName, folderName string) {
	t.Helper()
	f := e.getJSON(token, "/files/"+id+"?fields=name,type")
	assert.Equal(t, []any{"file", fileName}, []any{f["type"], f["name"]})
	d := e.getJSON(token, "/folders/"+id+"?fields=name,type")
	assert.Equal(t, []any{"folder", folderName}, []any{d["type"], d["name"]})
}

// TestSeparateIDSpaces: with Options.SeparateIDSpaces a file and a folder
// share an id, and each route, body reference and index reaches the one
// of its type only: reads, updates, moves, copies, metadata,
// collaborations, shared links, search, events, webhooks, the trash; and
// so after a restart, which keeps the id spaces without the option.
func TestSeparateIDSpaces(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t, func(int) int { return http.StatusOK })
	e := newEnv(t, Options{SeparateIDSpaces: true, DataDir: dir})
	user := e.s.UserToken()
	id := twinItems(t, e, user)
	requireTwins(t, e, user, id, "twin.txt", "twin folder")

	// Updates: a rename of one leaves the other.
	resp, m := e.put(user, "/folders/"+id, map[string]any{"name": "Twin Dir", "description": "the folder"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	requireTwins(t, e, user, id, "twin.txt", "Twin Dir")
	assert.Empty(t, e.getJSON(user, "/files/"+id+"?fields=description")["description"])

	// Metadata on both, each its own.
	for typ, v := range map[string]string{"files": "on the file", "folders": "on the folder"} {
		resp, m = e.post(user, "/"+typ+"/"+id+"/metadata/global/properties", map[string]any{"k": v})
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%s: %v", typ, m)
	}
	assert.Equal(t, "on the file", e.getJSON(user, "/files/"+id+"/metadata/global/properties")["k"])
	assert.Equal(t, "on the folder", e.getJSON(user, "/folders/"+id+"/metadata/global/properties")["k"])

	// A collaboration with item {type, id}.
	resp, m = e.collaborate(user, "folder", id, collabUser(e.s.AdminUserID()), "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	assert.Len(t, e.getJSON(user, "/folders/"+id+"/collaborations")["entries"], 1)
	assert.Empty(t, e.getJSON(user, "/files/"+id+"/collaborations")["entries"])
	assert.Equal(t, false, e.getJSON(user, "/files/"+id+"?fields=has_collaborations")["has_collaborations"])

	// A shared link on the folder: the shared item is the folder.
	resp, m = e.put(user, "/folders/"+id+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	link := m["shared_link"].(map[string]any)["url"].(string)
	assert.Nil(t, e.getJSON(user, "/files/"+id+"?fields=shared_link")["shared_link"])
	resp, m = e.doJSON("GET", e.api("/shared_items"), e.s.AdminToken(), nil, hdr{"boxapi": "shared_link=" + link})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	assert.Equal(t, []any{"folder", id}, []any{m["type"], m["id"]})

	// A webhook on the folder: a new version of the file (in the root) is
	// not below it; an upload into the folder is.
	resp, hook := e.createWebhook(user, hookBody(id, "folder", rcv.srv.URL+"/hook", "FILE.UPLOADED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", hook)
	resp, m = e.uploadRaw(user, e.upload("/files/"+id+"/content"), `{"name":"twin.txt"}`, []byte("file twin v2"), nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	inside := e.uploadFile(user, id, "inside.txt", []byte("inside"))
	_, _, payload := rcv.next(t)
	assert.Equal(t, inside["id"], payload["source"].(map[string]any)["id"], "the file's new version fired the folder's webhook")

	// Search finds each under its own type.
	found := e.getJSON(user, "/search?query=twin&fields=name,type")["entries"].([]any)
	types := map[string]string{}
	for _, x := range found {
		if x := x.(map[string]any); x["id"] == id {
			types[x["type"].(string)] = x["name"].(string)
		}
	}
	assert.Equal(t, map[string]string{"file": "twin.txt", "folder": "Twin Dir"}, types)

	// Copy the file into the folder, then move the file there too.
	resp, m = e.post(user, "/files/"+id+"/copy", map[string]any{"parent": map[string]any{"id": id}, "name": "copy.txt"})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	assert.Equal(t, id, m["parent"].(map[string]any)["id"])
	resp, m = e.put(user, "/files/"+id, map[string]any{"parent": map[string]any{"id": id}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	assert.Equal(t, []any{"folder", id}, []any{m["parent"].(map[string]any)["type"], m["parent"].(map[string]any)["id"]})
	assert.EqualValues(t, 3, e.getJSON(user, "/folders/"+id+"/items")["total_count"], "inside.txt, copy.txt, twin.txt")

	// Events: each event about the twins names the right type.
	evs := e.getJSON(user, "/events?stream_position=0&limit=500")["entries"].([]any)
	kinds := map[string]bool{}
	for _, x := range evs {
		ev := x.(map[string]any)
		if src, ok := ev["source"].(map[string]any); ok && src["id"] == id {
			kinds[ev["event_type"].(string)+" "+src["type"].(string)] = true
		}
	}
	assert.True(t, kinds["ITEM_UPLOAD file"], "%v", kinds)
	assert.True(t, kinds["ITEM_CREATE folder"], "%v", kinds)
	assert.False(t, kinds["ITEM_UPLOAD folder"] || kinds["ITEM_CREATE file"], "%v", kinds)

	// The trash: the file back to the root, then trashed on its own.
	resp, m = e.put(user, "/files/"+id, map[string]any{"parent": map[string]any{"id": "0"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	e.deleteOK(user, "/files/"+id)
	assert.Equal(t, http.StatusNotFound, e.getStatus(user, "/files/"+id))
	requireTwinTrash(t, e, user, id, "file")
	assert.EqualValues(t, 2, e.getJSON(user, "/folders/"+id+"/items")["total_count"], "the folder's content stays")
	resp, m = e.post(user, "/files/"+id, map[string]any{})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	assert.Equal(t, "file", m["type"])
	requireTwins(t, e, user, id, "twin.txt", "Twin Dir")

	// Restart without the option: the spaces stay separate.
	require.NoError(t, e.s.Close())
	e = newEnv(t, Options{DataDir: dir})
	requireTwins(t, e, user, id, "twin.txt", "Twin Dir")
	assert.Equal(t, "on the file", e.getJSON(user, "/files/"+id+"/metadata/global/properties")["k"])
	assert.Equal(t, "on the folder", e.getJSON(user, "/folders/"+id+"/metadata/global/properties")["k"])
	assert.Len(t, e.getJSON(user, "/folders/"+id+"/collaborations")["entries"], 1)
	assert.Empty(t, e.getJSON(user, "/files/"+id+"/collaborations")["entries"])
	next := e.createFolder(user, "0", "after the restart")["id"].(string)
	nextN, _ := strconv.ParseInt(next, 10, 64)
	idN, _ := strconv.ParseInt(id, 10, 64)
	assert.Greater(t, nextN, idN, "the folder counter resumes")
	assert.Less(t, nextN, idN+100, "folders still draw from their own counter")

	// The folder now goes to the trash (with its content); the file stays.
	e.deleteOK(user, "/folders/"+id+"?recursive=true")
	requireTwinTrash(t, e, user, id, "folder")
	assert.Equal(t, http.StatusOK, e.getStatus(user, "/files/"+id))
	resp, _ = e.do("DELETE", e.api("/folders/"+id+"/trash"), user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, http.StatusOK, e.getStatus(user, "/files/"+id), "purging the folder leaves the file")
	assert.Equal(t, "on the file", e.getJSON(user, "/files/"+id+"/metadata/global/properties")["k"])
}

// requireTwinTrash checks that the twin of type typ (only) is in the trash.
func requireTwinTrash(t *testing.T, e *env, token, id, typ string) {
	t.Helper()
	other := map[string]string{"file": "folder", "folder": "file"}[typ]
	assert.Equal(t, http.StatusOK, e.getStatus(token, "/"+typ+"s/"+id+"/trash"))
	assert.Equal(t, http.StatusNotFound, e.getStatus(token, "/"+other+"s/"+id+"/trash"))
	var inTrash []string
	for _, x := range e.getJSON(token, "/folders/trash/items?limit=1000")["entries"].([]any) {
		if x := x.(map[string]any); x["id"] == id {
			inTrash = append(inTrash, x["type"].(string))
		}
	}
	assert.Equal(t, []string{typ}, inTrash)
}

// TestOneIDSpaceDataDirStaysShared: a data directory made with one id
// space (as by earlier servers) keeps it when reopened with the option,
// so its item records keep their keys and no new folder takes a file's
// id.
func TestOneIDSpaceDataDirStaysShared(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	user := e.s.UserToken()
	d := e.createFolder(user, "0", "d")["id"].(string)
	f := e.uploadFile(user, d, "f.txt", []byte("f"))["id"].(string)
	require.NoError(t, e.s.Close())

	e = newEnv(t, Options{DataDir: dir, SeparateIDSpaces: true})
	assert.Equal(t, "f.txt", e.getJSON(user, "/files/"+f)["name"])
	assert.Equal(t, "d", e.getJSON(user, "/folders/"+d)["name"])
	n := e.createFolder(user, "0", "n")["id"].(string)
	assert.Equal(t, http.StatusNotFound, e.getStatus(user, "/files/"+n), "a new folder's id is no file's")
	nN, _ := strconv.ParseInt(n, 10, 64)
	fN, _ := strconv.ParseInt(f, 10, 64)
	assert.Greater(t, nN, fN, "one counter: the new folder comes after the file")
}
