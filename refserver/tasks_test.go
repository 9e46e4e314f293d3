package refserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func (e *env) createTask(token, fileID string, extra map[string]any) map[string]any {
	e.t.Helper()
	body := map[string]any{"item": map[string]any{"id": fileID, "type": "file"}}
	for k, v := range extra {
		body[k] = v
	}
	resp, m := e.doJSON("POST", e.api("/tasks"), token, body, nil)
	require.Equal(e.t, http.StatusCreated, resp.StatusCode, "%v", m)
	return m
}

func (e *env) assign(token, taskID string, to map[string]any) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("POST", e.api("/task_assignments"), token, map[string]any{"task": map[string]any{"id": taskID, "type": "task"}, "assign_to": to}, nil)
	require.Equal(e.t, http.StatusCreated, resp.StatusCode, "%v", m)
	return m
}

func (e *env) resolve(token, assignmentID, state string) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.doJSON("PUT", e.api("/task_assignments/"+assignmentID), token, map[string]any{"resolution_state": state}, nil)
}

func (e *env) task(token, id string) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("GET", e.api("/tasks/"+id), token, nil, nil)
	require.Equal(e.t, 200, resp.StatusCode, "%v", m)
	return m
}

func TestTaskCreateRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "doc.txt", []byte("d"))
	fid := f["id"].(string)
	adminFile := e.uploadFile(e.s.AdminToken(), "0", "secret.txt", []byte("s"))

	task := e.createTask(tok, fid, map[string]any{"message": "Please review", "due_at": "2025-04-01T10:00:00-08:00"})
	assert.Equal(t, "task", task["type"])
	assert.Equal(t, "review", task["action"], "review is the default action")
	assert.Equal(t, "all_assignees", task["completion_rule"], "all_assignees is the default rule")
	assert.Equal(t, "Please review", task["message"])
	assert.Equal(t, "2025-04-01T18:00:00Z", task["due_at"])
	assert.Equal(t, false, task["is_completed"])
	assert.Equal(t, fid, task["item"].(map[string]any)["id"])
	assert.EqualValues(t, 0, task["task_assignment_collection"].(map[string]any)["total_count"], "a new task has no assignees")
	assert.Equal(t, e.s.UserID(), task["created_by"].(map[string]any)["id"])

	item := fmt.Sprintf(`"item":{"id":%q,"type":"file"}`, fid)
	cases := []struct {
		name   string
		token  string
		body   string
		status int
		code   string
	}{
		{"bad action", tok, `{` + item + `,"action":"approve"}`, 400, "bad_request"},
		{"bad rule", tok, `{` + item + `,"completion_rule":"most"}`, 400, "bad_request"},
		{"bad due_at", tok, `{` + item + `,"due_at":"tomorrow"}`, 400, "bad_request"},
		{"folder item", tok, `{"item":{"id":"0","type":"folder"}}`, 400, "bad_request"},
		{"missing item", tok, `{"action":"review"}`, 400, "bad_request"},
		{"unknown field", tok, `{` + item + `,"priority":1}`, 400, "bad_request"},
		{"unknown file", tok, `{"item":{"id":"999999","type":"file"}}`, 404, "not_found"},
		{"other user's file", tok, fmt.Sprintf(`{"item":{"id":%q,"type":"file"}}`, adminFile["id"]), 404, "not_found"},
		{"app token", e.s.AppToken(), `{` + item + `}`, 403, "insufficient_scope"},
	}
	before := collabSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("POST", e.api("/tasks"), c.token, c.body, nil)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, collabSnapshot(e.s), "rejected creates changed state")

	complete := e.createTask(tok, fid, map[string]any{"action": "complete", "completion_rule": "any_assignee"})
	assert.Equal(t, "complete", complete["action"])
	resp, m := e.doJSON("GET", e.api("/files/"+fid+"/tasks"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.EqualValues(t, 2, m["total_count"])
	entries := m["entries"].([]any)
	assert.Equal(t, task["id"], entries[0].(map[string]any)["id"])
	assert.Equal(t, complete["id"], entries[1].(map[string]any)["id"])
	resp, m = e.doJSON("GET", e.api("/files/"+adminFile["id"].(string)+"/tasks"), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
}

func TestReviewTaskAllAssignees(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok, admin := e.s.UserToken(), e.s.AdminToken()
	f := e.uploadFile(tok, "0", "spec.txt", []byte("s"))
	task := e.createTask(tok, f["id"].(string), map[string]any{"message": "Review please"})
	tid := task["id"].(string)

	mine := e.assign(tok, tid, map[string]any{"id": e.s.UserID()})
	theirs := e.assign(tok, tid, map[string]any{"login": "ADMIN@cms.test"})
	assert.Equal(t, "incomplete", mine["resolution_state"])
	assert.Equal(t, e.s.AdminUserID(), theirs["assigned_to"].(map[string]any)["id"], "assigned by login, case-insensitively")
	assert.Equal(t, e.s.UserID(), theirs["assigned_by"].(map[string]any)["id"])
	assert.Nil(t, theirs["completed_at"])
	assert.Equal(t, "Review please", theirs["message"])

	before := collabSnapshot(e.s)
	cases := []struct {
		name, token, id, state string
		status                 int
		code                   string
	}{
		{"completed is not a review state", tok, mine["id"].(string), "completed", 400, "bad_request"},
		{"unknown state", tok, mine["id"].(string), "done", 400, "bad_request"},
		{"not the assignee", admin, mine["id"].(string), "approved", 403, "access_denied_insufficient_permissions"},
		{"unknown assignment", tok, "999999", "approved", 404, "not_found"},
	}
	for _, c := range cases {
		resp, m := e.resolve(c.token, c.id, c.state)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	assert.Equal(t, before, collabSnapshot(e.s), "rejected updates changed state")

	e.clock.Advance(time.Minute)
	resp, m := e.resolve(tok, mine["id"].(string), "approved")
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "approved", m["resolution_state"])
	assert.Equal(t, "2025-03-01T12:01:00Z", m["completed_at"])
	assert.Equal(t, false, e.task(tok, tid)["is_completed"], "all assignees must resolve")

	resp, m = e.resolve(admin, theirs["id"].(string), "rejected")
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	got := e.task(tok, tid)
	assert.Equal(t, true, got["is_completed"], "a rejection resolves too")
	assert.EqualValues(t, 2, got["task_assignment_collection"].(map[string]any)["total_count"])

	// A completed task takes no new assignment; a review may still change.
	before = collabSnapshot(e.s)
	resp, m = e.doJSON("POST", e.api("/task_assignments"), tok, map[string]any{"task": map[string]any{"id": tid, "type": "task"}, "assign_to": map[string]any{"id": e.s.UserID()}}, nil)
	requireAPIError(t, resp, m, 403, "task_completed")
	assert.Equal(t, before, collabSnapshot(e.s))
	resp, m = e.resolve(admin, theirs["id"].(string), "incomplete")
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Nil(t, m["completed_at"])
	assert.Equal(t, false, e.task(tok, tid)["is_completed"])

	// Lists, get, delete.
	resp, m = e.doJSON("GET", e.api("/tasks/"+tid+"/assignments"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.EqualValues(t, 2, m["total_count"])
	resp, m = e.doJSON("GET", e.api("/task_assignments/"+mine["id"].(string)), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "approved", m["resolution_state"])
	e.deleteOK(tok, "/task_assignments/"+theirs["id"].(string))
	assert.EqualValues(t, 1, e.task(tok, tid)["task_assignment_collection"].(map[string]any)["total_count"])
	assert.Equal(t, true, e.task(tok, tid)["is_completed"], "the one assignee left approved")
	e.deleteOK(tok, "/tasks/"+tid)
	assert.Equal(t, 404, e.getStatus(tok, "/tasks/"+tid))
	assert.Equal(t, 404, e.getStatus(tok, "/task_assignments/"+mine["id"].(string)), "a task's assignments go with it")
}

func TestCompleteTaskAnyAssignee(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok, admin := e.s.UserToken(), e.s.AdminToken()
	f := e.uploadFile(tok, "0", "todo.txt", []byte("t"))
	task := e.createTask(tok, f["id"].(string), map[string]any{"action": "complete", "completion_rule": "any_assignee"})
	tid := task["id"].(string)
	mine := e.assign(tok, tid, map[string]any{"id": e.s.UserID()})
	theirs := e.assign(tok, tid, map[string]any{"id": e.s.AdminUserID()})

	before := collabSnapshot(e.s)
	for _, st := range []string{"approved", "rejected"} {
		resp, m := e.resolve(tok, mine["id"].(string), st)
		requireAPIError(t, resp, m, 400, "bad_request")
	}
	assert.Equal(t, before, collabSnapshot(e.s))

	resp, m := e.resolve(admin, theirs["id"].(string), "completed")
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.NotNil(t, m["completed_at"])
	assert.Equal(t, true, e.task(tok, tid)["is_completed"], "one assignee is enough")

	// A completed "complete" task takes no more changes.
	before = collabSnapshot(e.s)
	resp, m = e.resolve(admin, theirs["id"].(string), "incomplete")
	requireAPIError(t, resp, m, 403, "task_completed")
	resp, m = e.resolve(tok, mine["id"].(string), "completed")
	requireAPIError(t, resp, m, 403, "task_completed")
	assert.Equal(t, before, collabSnapshot(e.s))
	// The message may still change.
	resp, m = e.doJSON("PUT", e.api("/task_assignments/"+mine["id"].(string)), tok, map[string]any{"message": "saw it"}, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "saw it", m["message"])
}

func TestTaskAssignmentRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok, admin := e.s.UserToken(), e.s.AdminToken()
	f := e.uploadFile(tok, "0", "a.txt", []byte("a"))
	af := e.uploadFile(admin, "0", "admin.txt", []byte("a"))
	tid := e.createTask(tok, f["id"].(string), nil)["id"].(string)
	adminTask := e.createTask(admin, af["id"].(string), nil)["id"].(string)
	e.assign(tok, tid, map[string]any{"id": e.s.UserID()})

	taskRef := fmt.Sprintf(`"task":{"id":%q,"type":"task"}`, tid)
	cases := []struct {
		name, token, body string
		status            int
		code              string
	}{
		{"no assignee", tok, `{` + taskRef + `,"assign_to":{}}`, 400, "bad_request"},
		{"missing task type", tok, fmt.Sprintf(`{"task":{"id":%q},"assign_to":{"id":"2000001"}}`, tid), 400, "bad_request"},
		{"wrong task type", tok, fmt.Sprintf(`{"task":{"id":%q,"type":"file"},"assign_to":{"id":"2000001"}}`, tid), 400, "bad_request"},
		{"unknown user", tok, `{` + taskRef + `,"assign_to":{"id":"42"}}`, 400, "task_assignee_not_allowed"},
		{"unknown login", tok, `{` + taskRef + `,"assign_to":{"login":"nobody@cms.test"}}`, 400, "task_assignee_not_allowed"},
		{"id and login disagree", tok, `{` + taskRef + `,"assign_to":{"id":"2000001","login":"user@cms.test"}}`, 400, "bad_request"},
		{"already assigned", tok, `{` + taskRef + `,"assign_to":{"login":"user@cms.test"}}`, 409, "conflict"},
		{"assignee without access", admin, fmt.Sprintf(`{"task":{"id":%q,"type":"task"},"assign_to":{"id":%q}}`, adminTask, e.s.UserID()), 400, "task_assignee_not_allowed"},
		{"task of another user's file", tok, fmt.Sprintf(`{"task":{"id":%q,"type":"task"},"assign_to":{"id":"2000002"}}`, adminTask), 404, "not_found"},
		{"unknown task", tok, `{"task":{"id":"999999","type":"task"},"assign_to":{"id":"2000002"}}`, 404, "not_found"},
		{"app token", e.s.AppToken(), `{` + taskRef + `,"assign_to":{"id":"2000001"}}`, 403, "insufficient_scope"},
	}
	before := collabSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("POST", e.api("/task_assignments"), c.token, c.body, nil)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	// Task updates that break the rules change nothing either.
	for _, body := range []string{`{"action":"later"}`, `{"completion_rule":"some"}`, `{"due_at":5}`} {
		resp, m := e.doJSON("PUT", e.api("/tasks/"+tid), tok, body, nil)
		requireAPIError(t, resp, m, 400, "bad_request")
	}
	resp, m := e.doJSON("PUT", e.api("/tasks/"+adminTask), tok, `{"message":"x"}`, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	assert.Equal(t, before, collabSnapshot(e.s), "rejected requests changed state")

	// An approved assignment keeps the task from becoming a "complete" task.
	a := e.task(tok, tid)["task_assignment_collection"].(map[string]any)["entries"].([]any)[0].(map[string]any)
	resp, _ = e.resolve(tok, a["id"].(string), "approved")
	require.Equal(t, 200, resp.StatusCode)
	before = collabSnapshot(e.s)
	resp, m = e.doJSON("PUT", e.api("/tasks/"+tid), tok, `{"action":"complete"}`, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.Equal(t, before, collabSnapshot(e.s))
	resp, m = e.doJSON("PUT", e.api("/tasks/"+tid), tok, `{"message":"new","due_at":"2026-01-01T00:00:00Z","completion_rule":"any_assignee"}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "new", m["message"])
	assert.Equal(t, "2026-01-01T00:00:00Z", m["due_at"])
	resp, m = e.doJSON("PUT", e.api("/tasks/"+tid), tok, `{"due_at":null}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Nil(t, m["due_at"])
}

func TestTasksFollowTheirFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "a.txt", []byte("a"))
	fid := f["id"].(string)
	tid := e.createTask(tok, fid, nil)["id"].(string)
	aid := e.assign(tok, tid, map[string]any{"id": e.s.UserID()})["id"].(string)

	e.deleteOK(tok, "/files/"+fid)
	assert.Equal(t, 404, e.getStatus(tok, "/tasks/"+tid), "hidden while the file is in the trash")
	assert.Equal(t, 404, e.getStatus(tok, "/task_assignments/"+aid))
	resp, _ := e.do("POST", e.api("/files/"+fid), tok, nil, nil)
	require.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, 200, e.getStatus(tok, "/tasks/"+tid), "back with the file")

	e.deleteOK(tok, "/files/"+fid)
	e.deleteOK(tok, "/files/"+fid+"/trash")
	tx, end := beginTx(e.s.st)
	assert.Zero(t, tx.Tasks.Tasks.Len(), "purged with the file")
	assert.Empty(t, tx.Tasks.Assignments)
	assert.Empty(t, tx.Tasks.ByFile, "the file's index entry goes too")
	end()
}

// TestTasksByFileIndex: the tasks of a file are listed from a per-file
// index (no scan of every task), in creation order, and the index follows
// creates, deletes and purges.
func TestTasksByFileIndex(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	a := e.uploadFile(tok, "0", "a.txt", []byte("a"))["id"].(string)
	b := e.uploadFile(tok, "0", "b.txt", []byte("b"))["id"].(string)
	var onA []string
	for i := range 3 {
		onA = append(onA, e.createTask(tok, a, map[string]any{"message": fmt.Sprint(i)})["id"].(string))
		e.createTask(tok, b, nil)
	}
	listed := func(file string) []string {
		resp, m := e.doJSON("GET", e.api("/files/"+file+"/tasks"), tok, nil, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", m)
		var out []string
		for _, x := range m["entries"].([]any) {
			out = append(out, x.(map[string]any)["id"].(string))
		}
		assert.EqualValues(t, len(out), m["total_count"])
		return out
	}
	assert.Equal(t, onA, listed(a))
	e.deleteOK(tok, "/tasks/"+onA[1])
	assert.Equal(t, []string{onA[0], onA[2]}, listed(a))
	assert.Len(t, listed(b), 3)
	tx, end := beginTx(e.s.st)
	assert.Len(t, tx.Tasks.ByFile[a], 2)
	assert.Equal(t, 5, tx.Tasks.Tasks.Len())
	end()

	e.deleteOK(tok, "/files/"+b)
	e.deleteOK(tok, "/files/"+b+"/trash")
	tx, end = beginTx(e.s.st)
	defer end()
	assert.NotContains(t, tx.Tasks.ByFile, b)
	assert.Equal(t, 2, tx.Tasks.Tasks.Len())
}

// FuzzTaskBody feeds untrusted task bodies to the decoder and the rules: no
// panic, and an accepted body holds only known actions and rules.
func FuzzTaskBody(f *testing.F) {
	f.Add(`{"action":"review","due_at":"2025-01-01T00:00:00Z"}`)
	f.Add(`{"completion_rule":"any_assignee","due_at":null}`)
	f.Add(`{"action":"complete","message":"m","due_at":"2025-01-01T00:00:00.5+02:00"}`)
	f.Fuzz(func(t *testing.T, body string) {
		var b state.TaskFields
		if wire.DecodeJSON(strings.NewReader(body), &b) != nil {
			return
		}
		if _, _, aerr := b.Check(); aerr == nil {
			if b.Action != nil && *b.Action != state.TaskReview && *b.Action != state.TaskComplete {
				t.Fatalf("accepted action %q", *b.Action)
			}
			if b.CompletionRule != nil && *b.CompletionRule != state.RuleAll && *b.CompletionRule != state.RuleAny {
				t.Fatalf("accepted rule %q", *b.CompletionRule)
			}
		}
	})
}

// TestTaskChangesNeedEditRights: who only sees a file (a viewer) reads its
// tasks but may not change or delete them (403, nothing changed), as it
// may not create one; who does not see it gets 404.
func TestTaskChangesNeedEditRights(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	dir := e.createFolder(admin, "0", "reviewed")["id"].(string)
	file := e.uploadFile(admin, dir, "plan.txt", []byte("plan"))["id"].(string)
	task := e.createTask(admin, file, map[string]any{"message": "check"})["id"].(string)
	hidden := e.createTask(admin, e.uploadFile(admin, "0", "own.txt", []byte("own"))["id"].(string), nil)["id"].(string)
	resp, c := e.collaborate(admin, "folder", dir, map[string]any{"type": "user", "id": e.s.UserID()}, "viewer")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", c)

	assert.Equal(t, "check", e.task(user, task)["message"], "a viewer reads the task")
	before := snapshot(e.s)
	resp, m := e.doJSON("PUT", e.api("/tasks/"+task), user, map[string]any{"message": "changed"}, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	resp, m = e.doJSON("DELETE", e.api("/tasks/"+task), user, nil, nil)
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
	resp, m = e.doJSON("PUT", e.api("/tasks/"+hidden), user, map[string]any{"message": "changed"}, nil)
	requireAPIError(t, resp, m, http.StatusNotFound, wire.CodeNotFound)
	assert.Equal(t, before, snapshot(e.s), "refused requests change nothing")
	assert.Equal(t, "check", e.task(admin, task)["message"])
}
