package refserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func TestComments(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	dir := e.createFolder(admin, "0", "reviewed")["id"].(string)
	f := e.uploadFile(admin, dir, "draft.txt", []byte("d"))["id"].(string)
	resp, _ := e.collaborate(admin, "folder", dir, collabUser(e.s.UserID()), "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode)

	fileRef := map[string]any{"type": "file", "id": f}
	resp, c := e.post(user, "/comments", map[string]any{"message": "Looks good", "item": fileRef})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)
	require.Equal(t, "Looks good", c["message"])
	require.Equal(t, false, c["is_reply_comment"])
	require.Equal(t, map[string]any{"type": "file", "id": f}, c["item"])
	cid := c["id"].(string)

	resp, m := e.post(user, "/comments", map[string]any{"message": "Looks good", "item": fileRef})
	requireAPIError(t, resp, m, http.StatusConflict, state.CodeRecentSimilarComment)
	e.clock.Advance(time.Minute)

	tagged := "@[" + e.s.AdminUserID() + ":Ada] please check"
	resp, reply := e.post(admin, "/comments", map[string]any{"message": "x", "tagged_message": tagged, "item": map[string]any{"type": "comment", "id": cid}})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", reply)
	require.Equal(t, true, reply["is_reply_comment"])
	require.Equal(t, "@Ada please check", reply["message"], "a mention reads @name in message")
	require.Equal(t, tagged, reply["tagged_message"])
	require.Equal(t, map[string]any{"type": "comment", "id": cid}, reply["item"])

	page := e.getJSON(user, "/files/"+f+"/comments?limit=1")
	require.EqualValues(t, 2, page["total_count"])
	require.Len(t, page["entries"], 1)
	require.EqualValues(t, 2, e.getJSON(admin, "/files/"+f+"?fields=comment_count")["comment_count"])

	// Only the author, the owner or the admin changes a comment.
	resp, m = e.put(user, "/comments/"+reply["id"].(string), map[string]any{"message": "mine now"}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	resp, m = e.put(user, "/comments/"+cid, map[string]any{"message": "Looks great"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Equal(t, "Looks great", m["message"])
	names, _ := e.search(admin, q("query", "great", "content_types", "comments"))
	require.Equal(t, []string{"draft.txt"}, names, "comments are searchable")

	before := snapshot(e.s)
	stranger := e.ok(http.MethodPost, "/users", admin, map[string]any{"name": "S", "login": "s@cms.test"}, http.StatusCreated)["id"].(string)
	before = snapshot(e.s)
	for _, tc := range []struct {
		token  string
		h      hdr
		body   map[string]any
		status int
		code   string
	}{
		{user, nil, map[string]any{"message": "  ", "item": fileRef}, 400, wire.CodeBadRequest},
		{user, nil, map[string]any{"message": "x"}, 400, wire.CodeBadRequest},
		{user, nil, map[string]any{"message": "x", "item": map[string]any{"type": "folder", "id": dir}}, 400, wire.CodeBadRequest},
		{user, nil, map[string]any{"message": "x", "item": map[string]any{"type": "comment", "id": "999"}}, 404, wire.CodeNotFound},
		{admin, hdr{"As-User": stranger}, map[string]any{"message": "x", "item": fileRef}, 404, wire.CodeNotFound},
	} {
		resp, m := e.doJSON("POST", e.api("/comments"), tc.token, tc.body, tc.h)
		requireAPIError(t, resp, m, tc.status, tc.code)
	}
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/comments/"+cid, hdr{"As-User": stranger}))
	require.Equal(t, before, snapshot(e.s))

	resp, _ = e.do("DELETE", e.api("/comments/"+cid), admin, nil, nil) // the owner (admin) may
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	require.Equal(t, http.StatusNotFound, e.statusOf(user, "/comments/"+cid))

	types, _, _ := e.events(admin, q("stream_position", "0", "stream_type", "admin_logs", "event_type", "COMMENT_CREATE,COMMENT_EDIT,COMMENT_DELETE"))
	require.Equal(t, []string{"COMMENT_CREATE", "COMMENT_CREATE", "COMMENT_EDIT", "COMMENT_DELETE"}, types)
}
