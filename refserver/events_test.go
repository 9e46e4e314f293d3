package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// events reads one page of a stream and returns the event types, the
// page, and next_stream_position as text.
func (e *env) events(token string, v url.Values) ([]string, map[string]any, string) {
	e.t.Helper()
	resp, m := e.doJSON("GET", e.api("/events?"+v.Encode()), token, nil, nil)
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "%v", m)
	var types []string
	for _, x := range m["entries"].([]any) {
		ev := x.(map[string]any)
		require.Equal(e.t, "event", ev["type"])
		types = append(types, ev["event_type"].(string))
	}
	require.EqualValues(e.t, len(types), m["chunk_size"])
	return types, m, fmt.Sprint(m["next_stream_position"])
}

func TestEventsUserStream(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	_, start, pos := e.events(user, q("stream_position", "now"))
	require.Empty(t, start["entries"])
	require.IsType(t, float64(0), start["next_stream_position"], "a number on the user stream")

	dir := e.createFolder(user, "0", "events")["id"].(string)
	f := e.uploadFile(user, dir, "a.txt", []byte("one"))
	id := f["id"].(string)
	resp, _ := e.uploadRaw(user, e.upload("/files/"+id+"/content"), `{"name":"b.txt"}`, []byte("two"), nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, _ = e.do("GET", e.api("/files/"+id+"/content"), user, nil, nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	md := e.api("/files/" + id + "/metadata/global/properties")
	resp, _ = e.doJSON("POST", md, user, map[string]any{"k": "v"}, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	resp, _ = e.doJSON("PUT", md, user, []any{map[string]any{"op": "replace", "path": "/k", "value": "w"}}, hdr{"Content-Type": "application/json-patch+json"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, _ = e.do("DELETE", md, user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	e.deleteOK(user, "/files/"+id)
	resp, _ = e.doJSON("POST", e.api("/files/"+id), user, map[string]any{}, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	e.createFolder(admin, "0", "not the user's") // another user's change: not on this stream

	types, page, next := e.events(user, q("stream_position", pos))
	require.Equal(t, []string{"ITEM_CREATE", "ITEM_UPLOAD", "ITEM_RENAME", "ITEM_UPLOAD", "ITEM_DOWNLOAD",
		"METADATA_INSTANCE_CREATE", "METADATA_INSTANCE_UPDATE", "METADATA_INSTANCE_DELETE",
		"ITEM_TRASH", "ITEM_UNDELETE_VIA_TRASH"}, types)
	entries := page["entries"].([]any)
	first := entries[0].(map[string]any)
	require.Equal(t, dir, first["source"].(map[string]any)["id"])
	require.Equal(t, "user@cms.test", first["created_by"].(map[string]any)["login"])
	require.NotEmpty(t, first["event_id"])
	require.NotEmpty(t, first["created_at"])
	ids := map[any]bool{}
	for _, x := range entries {
		ids[x.(map[string]any)["event_id"]] = true
	}
	require.Len(t, ids, len(entries), "event ids are unique")

	// The position moves past what the page looked at: nothing new after it.
	types, _, again := e.events(user, q("stream_position", next))
	require.Empty(t, types)
	require.Equal(t, next, again)

	// changes leaves out downloads and metadata; limit pages the stream.
	types, _, _ = e.events(user, q("stream_position", pos, "stream_type", "changes"))
	require.Equal(t, []string{"ITEM_CREATE", "ITEM_UPLOAD", "ITEM_RENAME", "ITEM_UPLOAD", "ITEM_TRASH", "ITEM_UNDELETE_VIA_TRASH"}, types)
	var walked []string
	for p, n := pos, 0; n < 10; n++ {
		types, _, np := e.events(user, q("stream_position", p, "limit", "3"))
		require.LessOrEqual(t, len(types), 3)
		walked = append(walked, types...)
		if np == p {
			break
		}
		p = np
	}
	require.Len(t, walked, 10, "three at a time, every event once")

	// The admin sees every item's events on its own stream; "0" starts at
	// the oldest event kept.
	types, _, _ = e.events(admin, q("stream_position", "0"))
	require.Contains(t, types, "ITEM_CREATE")
	require.Len(t, types, 11)
}

func TestEventsEnterpriseStream(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	f := e.uploadFile(user, "0", "x.txt", []byte("x"))
	e.deleteOK(user, "/files/"+f["id"].(string))

	resp, m := e.doJSON("GET", e.api("/events?stream_type=admin_logs"), user, nil, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)

	types, page, next := e.events(admin, q("stream_type", "admin_logs"))
	require.Equal(t, []string{"UPLOAD", "DELETE"}, types)
	require.IsType(t, "", page["next_stream_position"], "a string on the enterprise stream")
	src := page["entries"].([]any)[0].(map[string]any)["source"].(map[string]any)
	require.Equal(t, "file", src["item_type"])
	require.Equal(t, "x.txt", src["item_name"])
	require.Equal(t, "0", src["parent"].(map[string]any)["id"])

	types, _, _ = e.events(admin, q("stream_type", "admin_logs", "event_type", "DELETE,COPY"))
	require.Equal(t, []string{"DELETE"}, types)
	now := e.clock.Now().UTC()
	types, _, _ = e.events(admin, q("stream_type", "admin_logs", "created_after", now.Add(1e9).Format("2006-01-02T15:04:05Z07:00")))
	require.Empty(t, types)
	types, _, _ = e.events(admin, q("stream_type", "admin_logs", "created_before", now.Format("2006-01-02T15:04:05Z07:00")))
	require.Len(t, types, 2)
	types, _, _ = e.events(admin, q("stream_type", "admin_logs_streaming", "stream_position", next))
	require.Empty(t, types)

	before := snapshot(e.s)
	for _, bad := range []string{"stream_type=everything", "stream_position=later", "stream_position=-1", "limit=0",
		"stream_type=admin_logs&created_after=yesterday"} {
		resp, m := e.doJSON("GET", e.api("/events?"+bad), admin, nil, nil)
		requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
	}
	require.Equal(t, before, snapshot(e.s))
}

func TestEventsHistoryIsBoundedAndPersisted(t *testing.T) {
	dir := t.TempDir()
	opts := Options{DataDir: dir, EventHistory: 3}
	e := newEnv(t, opts)
	user := e.s.UserToken()
	for i := range 5 {
		e.createFolder(user, "0", fmt.Sprintf("f%d", i))
	}
	types, page, next := e.events(user, q("stream_position", "0"))
	require.Len(t, types, 3, "only the newest three are kept")
	require.Equal(t, "5", next)
	require.Equal(t, "f2", page["entries"].([]any)[0].(map[string]any)["source"].(map[string]any)["name"])
	require.NoError(t, e.s.Close())

	e2 := newEnv(t, opts)
	_, _, pos := e2.events(user, q("stream_position", "now"))
	require.Equal(t, "5", pos, "positions survive a restart")
	e2.createFolder(user, "0", "f5")
	types, page, next = e2.events(user, q("stream_position", "0"))
	require.Len(t, types, 3)
	require.Equal(t, "6", next)
	require.Equal(t, "f5", page["entries"].([]any)[2].(map[string]any)["source"].(map[string]any)["name"])
}

func TestEventsLongPoll(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	resp, m := e.doJSON("OPTIONS", e.api("/events"), user, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	server := m["entries"].([]any)[0].(map[string]any)
	require.Equal(t, "realtime_server", server["type"])
	require.Equal(t, "10", server["ttl"])
	require.Equal(t, "10", server["max_retries"])
	require.EqualValues(t, 70, server["retry_timeout"])
	pollURL := server["url"].(string)
	require.True(t, strings.HasPrefix(pollURL, e.s.BaseURL()+"/events/realtime?channel="), pollURL)

	_, _, pos := e.events(user, q("stream_position", "now"))
	poll := func(position string) string {
		resp, b := e.do("GET", pollURL+"&stream_position="+position, "", nil, nil) // no token: the channel authorizes
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
		var msg struct {
			Message string `json:"message"`
		}
		require.NoError(t, json.Unmarshal(b, &msg))
		return msg.Message
	}
	// A change after the position answers at once.
	e.createFolder(user, "0", "changed")
	require.Equal(t, "new_change", poll(pos))

	// A poll waits for the change, then answers.
	_, _, pos = e.events(user, q("stream_position", "now"))
	got := make(chan string, 1)
	go func() { got <- poll(pos) }()
	e.createFolder(admin, "0", "admin's, not seen by the user") // wakes the poll, which goes on waiting
	e.createFolder(user, "0", "the user's")
	require.Equal(t, "new_change", <-got)

	// An unknown channel: reconnect.
	resp, b := e.do("GET", e.api("/events/realtime?channel=nope&stream_position=0"), "", nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.JSONEq(t, `{"message":"reconnect","version":1}`, string(b))
}

// TestEventsOfSharingLocksAndTasks: a shared link, a lock and its removal,
// a collaboration, a comment and a task assignment are events too.
func TestEventsOfSharingLocksAndTasks(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	f := e.uploadFile(admin, "0", "shared.txt", []byte("x"))["id"].(string)
	_, _, pos := e.events(admin, q("stream_position", "now"))
	for _, body := range []map[string]any{
		{"shared_link": map[string]any{"access": "open"}},
		{"lock": map[string]any{"access": "lock"}},
		{"lock": nil},
	} {
		resp, m := e.put(admin, "/files/"+f, body, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	}
	resp, _ := e.collaborate(admin, "file", f, collabUser(e.s.UserID()), "editor")
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	resp, _ = e.post(user, "/comments", map[string]any{"message": "hi", "item": map[string]any{"type": "file", "id": f}})
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	task := e.createTask(admin, f, nil)
	resp, _ = e.post(admin, "/task_assignments", map[string]any{"task": map[string]any{"id": task["id"], "type": "task"}, "assign_to": map[string]any{"id": e.s.UserID()}})
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	types, _, _ := e.events(admin, q("stream_position", pos))
	require.Equal(t, []string{"ITEM_SHARED_CREATE", "LOCK_CREATE", "LOCK_DESTROY", "COLLAB_ADD_COLLABORATOR", "COMMENT_CREATE", "TASK_ASSIGNMENT_CREATE"}, types)
	types, _, _ = e.events(user, q("stream_position", pos))
	require.Equal(t, []string{"COLLAB_ADD_COLLABORATOR", "COMMENT_CREATE", "TASK_ASSIGNMENT_CREATE"}, types,
		"the collaborator sees the file's events from the time access was granted")
}
