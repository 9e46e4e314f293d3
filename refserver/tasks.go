package refserver

import (
	"net/http"
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Tasks ask users to review or complete a file; each assignment gives one
// user a resolution state. The rules (OAS post_tasks, put_task_assignments_id,
// the tasks guide):
//   - action review (default) or complete; completion_rule all_assignees
//     (default) or any_assignee; anything else is 400 bad_request.
//   - a review assignment is incomplete, approved or rejected; a complete
//     assignment is incomplete or completed; any other state is 400
//     bad_request and changes nothing.
//   - is_completed: all assignees resolved (all_assignees) or one of them
//     (any_assignee), resolved meaning approved, rejected or completed; a task
//     without assignees is not completed.
//   - a completed task takes no new assignment (403), and a completed task
//     of action complete takes no more changes of state (403).
// A task lives and dies with its file: hidden while the file is in the
// trash, gone when it is purged.

// codeTaskCompleted answers a change a completed task does not take (a new
// assignment; a new state on a completed "complete" task). The spec says
// 403 without a code; this one names the reason.
const codeTaskCompleted = "task_completed"

// Task actions, completion rules and resolution states of the wire.
const (
	taskReview   = "review"
	taskComplete = "complete"

	ruleAll = "all_assignees"
	ruleAny = "any_assignee"

	stateIncomplete = "incomplete"
	stateApproved   = "approved"
	stateRejected   = "rejected"
	stateCompleted  = "completed"
)

// statesFor lists the resolution states an action allows.
func statesFor(action string) []string {
	if action == taskComplete {
		return []string{stateIncomplete, stateCompleted}
	}
	return []string{stateIncomplete, stateApproved, stateRejected}
}

// task is one task on a file.
type task struct {
	id, fileID            string
	action, rule, message string
	dueAt, createdAt      time.Time
	createdBy             *user
	assignments           []*taskAssignment // in the order they were made
}

// completed applies the completion rule.
func (t *task) completed() bool {
	resolved := 0
	for _, a := range t.assignments {
		if a.state != stateIncomplete {
			resolved++
		}
	}
	if t.rule == ruleAny {
		return resolved > 0
	}
	return resolved > 0 && resolved == len(t.assignments)
}

// taskState is the server's state for tasks and task assignments (/tasks, /task_assignments), guarded by Server.mu.
type taskState struct {
	tasks       map[string]*task
	assignments map[string]*taskAssignment
	byFile      map[string][]*task // the tasks of a file id, in creation order
}

// initTasks prepares the state of tasks and task assignments (/tasks, /task_assignments); called once by newServer.
func (s *state) initTasks() {
	s.tasks = taskState{tasks: map[string]*task{}, assignments: map[string]*taskAssignment{}, byFile: map[string][]*task{}}
}

// tasksItemPurged drops the tasks of a file deleted for good.
func (s *state) tasksItemPurged(it *item) {
	for _, t := range s.tasks.byFile[it.id] {
		s.dropTask(t)
		delete(s.tasks.tasks, t.id)
		s.dirty(kTasks, t.id)
	}
	delete(s.tasks.byFile, it.id)
}

// addTask registers a new task. Callers hold s.mu.
func (s *state) addTask(t *task) {
	s.tasks.tasks[t.id] = t
	s.tasks.byFile[t.fileID] = append(s.tasks.byFile[t.fileID], t)
	s.dirty(kTasks, t.id)
}

// removeTask forgets a task with its assignments. Callers hold s.mu.
func (s *state) removeTask(t *task) {
	s.dropTask(t)
	delete(s.tasks.tasks, t.id)
	s.dirty(kTasks, t.id)
	rest := wire.RemoveFrom(s.tasks.byFile[t.fileID], t)
	if len(rest) == 0 {
		delete(s.tasks.byFile, t.fileID)
	} else {
		s.tasks.byFile[t.fileID] = rest
	}
}

// dropTask forgets the assignments of a task.
func (s *state) dropTask(t *task) {
	for _, a := range t.assignments {
		delete(s.tasks.assignments, a.id)
	}
}

func (s *state) taskFileMini(t *task) any {
	if f, ok := s.items[t.fileID]; ok {
		return s.mini(f)
	}
	return nil
}

// taskRecord is the Task record.
func (s *state) taskRecord(t *task) map[string]any {
	return map[string]any{
		"type": "task", "id": t.id, "item": s.taskFileMini(t), "action": t.action,
		"message": t.message, "due_at": fmtTime(t.dueAt), "completion_rule": t.rule,
		"is_completed": t.completed(), "created_by": t.createdBy.mini(), "created_at": fmtTime(t.createdAt),
		"task_assignment_collection": s.assignmentCollection(t),
	}
}

// lookupTask returns a task whose file p may see. Callers hold s.mu.
func (s *state) lookupTask(p *principal, id string) (*task, *wire.Error) {
	t, ok := s.tasks.tasks[id]
	if !ok {
		return nil, wire.NotFound("task")
	}
	if _, aerr := s.lookup(p, "file", t.fileID); aerr != nil {
		return nil, wire.NotFound("task")
	}
	return t, nil
}

// taskFor is lookupTask for p, for getRecord and deleteRecord.
func (s *state) taskFor(p *principal) func(id string) (*task, *wire.Error) {
	return func(id string) (*task, *wire.Error) { return s.lookupTask(p, id) }
}

// taskFields are the fields shared by the task create and update bodies.
// Only due_at takes null (no due date: the spec's default is null); null
// elsewhere is 400 bad_request (wire.DecodeJSONObject).
type taskFields struct {
	Action         *string               `json:"action"`
	Message        *string               `json:"message"`
	DueAt          wire.Nullable[string] `json:"due_at"`
	CompletionRule *string               `json:"completion_rule"`
}

// check validates the values given; dueAt reports a due_at given (zero =
// null).
func (b *taskFields) check() (dueAt time.Time, dueGiven bool, aerr *wire.Error) {
	if b.Action != nil && *b.Action != taskReview && *b.Action != taskComplete {
		return time.Time{}, false, wire.BadRequest("Invalid value for action: review or complete")
	}
	if b.CompletionRule != nil && *b.CompletionRule != ruleAll && *b.CompletionRule != ruleAny {
		return time.Time{}, false, wire.BadRequest("Invalid value for completion_rule: all_assignees or any_assignee")
	}
	if !b.DueAt.Present {
		return time.Time{}, false, nil
	}
	raw, ok := b.DueAt.Value()
	if !ok {
		return time.Time{}, true, nil
	}
	t, err := time.Parse(time.RFC3339, raw)
	if err != nil {
		return time.Time{}, false, wire.BadRequest("Invalid value for due_at: a date-time")
	}
	return t.UTC().Truncate(time.Second), true, nil
}

// createTaskBody is the body of POST /tasks.
type createTaskBody struct {
	Item *struct {
		ID   *string `json:"id"`
		Type *string `json:"type"`
	} `json:"item"`
	taskFields
}

// createTask serves POST /tasks: 201 Task, without assignees.
//
// The spec's "403 no permission" (a caller who can see the file but may
// not add tasks, e.g. a collaborator with a viewer role) has no case here:
// the server has no collaborations, and every principal that can see a
// file (its owner, the admin, an admin's As-User or token of the owner) may
// add tasks to it; anyone else gets the 404 of a file they cannot see. The
// app token (403 insufficient_scope for every task route) and a downscoped
// token whose scopes do not cover POST (403 insufficient_scope, oauth.go)
// are refused before this handler runs.
func (s *Server) createTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body createTaskBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest, "due_at"); aerr != nil {
		return aerr
	}
	if body.Item == nil || body.Item.ID == nil {
		return wire.BadRequest("Missing required field: item.id")
	}
	if body.Item.Type != nil && *body.Item.Type != "file" {
		return wire.BadRequest("Invalid value for item.type: file")
	}
	dueAt, _, aerr := body.check()
	if aerr != nil {
		return aerr
	}
	t := &task{action: taskReview, rule: ruleAll, dueAt: dueAt, createdBy: p.user}
	if body.Action != nil {
		t.action = *body.Action
	}
	if body.CompletionRule != nil {
		t.rule = *body.CompletionRule
	}
	if body.Message != nil {
		t.message = *body.Message
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.createTaskTx(body, p, t)
	})
}

// createTaskTx is the transaction of POST /tasks (createTask): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) createTaskTx(body createTaskBody, p *principal, t *task) (reply, *wire.Error) {
	if !validID(*body.Item.ID) {
		return reply{}, wire.NotFound("file")
	}
	f, aerr := s.lookupFor(p, "file", *body.Item.ID, actEdit)
	if aerr != nil {
		return reply{}, aerr
	}
	t.id, t.fileID, t.createdAt = s.newID(), f.id, s.nowSec()
	s.addTask(t)
	return reply{http.StatusCreated, s.taskRecord(t)}, nil
}

// getTask serves GET /tasks/{task_id}: 200 Task.
func (s *Server) getTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	return getRecord(s, w, r, "task_id", s.taskFor(p), s.taskRecord)
}

// updateTask serves PUT /tasks/{task_id}: 200 Task. A new action must allow
// the states the assignments have (400 bad_request otherwise).
func (s *Server) updateTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_id", "task")
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body taskFields
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest, "due_at"); aerr != nil {
		return aerr
	}
	dueAt, dueGiven, aerr := body.check()
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateTaskTx(p, id, body, dueGiven, dueAt)
	})
}

// updateTaskTx is the transaction of PUT /tasks/{task_id} (updateTask): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) updateTaskTx(p *principal, id string, body taskFields, dueGiven bool, dueAt time.Time) (reply, *wire.Error) {
	t, aerr := s.lookupTask(p, id)
	if aerr != nil {
		return reply{}, aerr
	}
	if body.Action != nil {
		for _, a := range t.assignments {
			if !slices.Contains(statesFor(*body.Action), a.state) {
				return reply{}, wire.BadRequest("An assignment of the task is %s, which a %s task does not allow", a.state, *body.Action)
			}
		}
		t.action = *body.Action
	}
	if body.CompletionRule != nil {
		t.rule = *body.CompletionRule
	}
	if body.Message != nil {
		t.message = *body.Message
	}
	if dueGiven {
		t.dueAt = dueAt
	}
	s.dirty(kTasks, t.id)
	return reply{http.StatusOK, s.taskRecord(t)}, nil
}

// deleteTask serves DELETE /tasks/{task_id}: 204, with its assignments.
func (s *Server) deleteTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "task_id", http.StatusNoContent, s.taskFor(p), func(t *task) *wire.Error {
		s.removeTask(t)
		return nil
	})
}

// listFileTasks serves GET /files/{file_id}/tasks: 200 Tasks, unpaged, in
// the order they were created.
func (s *Server) listFileTasks(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.listFileTasksTx(p, id)
	})
}

// listFileTasksTx is the transaction of GET /files/{file_id}/tasks
// (listFileTasks): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) listFileTasksTx(p *principal, id string) (reply, *wire.Error) {
	if _, aerr := s.lookup(p, "file", id); aerr != nil {
		return reply{}, aerr
	}
	tasks := s.tasks.byFile[id]
	return reply{http.StatusOK, map[string]any{"total_count": len(tasks), "entries": wire.RenderEach(tasks, s.taskRecord)}}, nil
}
