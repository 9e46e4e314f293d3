package refserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"
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

// codeTaskAssigneeNotAllowed answers an assignment to a user who cannot be
// assigned: unknown, or without access to the file (BREADTH §5, common
// errors guide). The spec documents 500 for these; a strict server answers
// the documented 400 code instead.
const codeTaskAssigneeNotAllowed = "task_assignee_not_allowed"

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

// taskAssignment is one user's part of a task.
type taskAssignment struct {
	id                      string
	task                    *task
	to, by                  *user
	message, state          string
	assignedAt, completedAt time.Time
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
}

// initTasks prepares the state of tasks and task assignments (/tasks, /task_assignments); called once by newServer.
func (s *Server) initTasks() {
	s.tasks = taskState{tasks: map[string]*task{}, assignments: map[string]*taskAssignment{}}
}

// tasksItemPurged drops the tasks of a file deleted for good.
func (s *Server) tasksItemPurged(it *item) {
	for id, t := range s.tasks.tasks {
		if t.fileID == it.id {
			s.dropTask(t)
			delete(s.tasks.tasks, id)
			s.dirty(kTasks, id)
		}
	}
}

// dropTask forgets the assignments of a task.
func (s *Server) dropTask(t *task) {
	for _, a := range t.assignments {
		delete(s.tasks.assignments, a.id)
	}
}

// mountTasks registers the routes of tasks and task assignments (/tasks, /task_assignments).
func (s *Server) mountTasks(mux *http.ServeMux) {
	mux.Handle(apiRoot+"/tasks", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createTask},
	}))
	mux.Handle(apiRoot+"/tasks/{task_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getTask},
		http.MethodPut:    {h: s.updateTask},
		http.MethodDelete: {h: s.deleteTask},
	}))
	mux.Handle(apiRoot+"/files/{file_id}/tasks", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileTasks},
	}))
	mux.Handle(apiRoot+"/tasks/{task_id}/assignments", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listTaskAssignments},
	}))
	mux.Handle(apiRoot+"/task_assignments", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createTaskAssignment},
	}))
	mux.Handle(apiRoot+"/task_assignments/{task_assignment_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getTaskAssignment},
		http.MethodPut:    {h: s.updateTaskAssignment},
		http.MethodDelete: {h: s.deleteTaskAssignment},
	}))
}

// taskUser finds an enterprise user to assign by id or login
// (case-insensitive), or nil: not the service account, nor a deleted or
// rolled-out user. Callers hold s.mu.
func (s *Server) taskUser(id, login string) *user {
	if id == "" {
		u := s.users.byLogin[strings.ToLower(login)]
		if u == nil {
			return nil
		}
		id = u.id
	}
	if u := s.enterpriseUser(id); u != nil && u != s.app {
		return u
	}
	return nil
}

// assignmentRecord is the TaskAssignment record.
func (s *Server) assignmentRecord(a *taskAssignment) map[string]any {
	return map[string]any{
		"type": "task_assignment", "id": a.id, "item": s.taskFileMini(a.task),
		"assigned_to": a.to.mini(), "assigned_by": a.by.mini(), "message": a.message,
		"resolution_state": a.state, "assigned_at": fmtTime(a.assignedAt),
		"completed_at": fmtTime(a.completedAt), "reminded_at": nil,
	}
}

func (s *Server) taskFileMini(t *task) any {
	if f, ok := s.items[t.fileID]; ok {
		return s.mini(f)
	}
	return nil
}

// taskRecord is the Task record.
func (s *Server) taskRecord(t *task) map[string]any {
	return map[string]any{
		"type": "task", "id": t.id, "item": s.taskFileMini(t), "action": t.action,
		"message": t.message, "due_at": fmtTime(t.dueAt), "completion_rule": t.rule,
		"is_completed": t.completed(), "created_by": t.createdBy.mini(), "created_at": fmtTime(t.createdAt),
		"task_assignment_collection": s.assignmentCollection(t),
	}
}

func (s *Server) assignmentCollection(t *task) map[string]any {
	entries := make([]any, 0, len(t.assignments))
	for _, a := range t.assignments {
		entries = append(entries, s.assignmentRecord(a))
	}
	return map[string]any{"total_count": len(entries), "entries": entries}
}

// lookupTask returns a task whose file p may see. Callers hold s.mu.
func (s *Server) lookupTask(p *principal, id string) (*task, *apiError) {
	t, ok := s.tasks.tasks[id]
	if !ok {
		return nil, errNotFound("task")
	}
	if _, aerr := s.lookup(p, "file", t.fileID); aerr != nil {
		return nil, errNotFound("task")
	}
	return t, nil
}

// lookupAssignment returns an assignment whose file p may see. Callers hold s.mu.
func (s *Server) lookupAssignment(p *principal, id string) (*taskAssignment, *apiError) {
	a, ok := s.tasks.assignments[id]
	if !ok {
		return nil, errNotFound("task_assignment")
	}
	if _, aerr := s.lookup(p, "file", a.task.fileID); aerr != nil {
		return nil, errNotFound("task_assignment")
	}
	return a, nil
}

// pathID reads a numeric path id; a malformed one is 404.
func pathID(r *http.Request, key, what string) (string, *apiError) {
	id := r.PathValue(key)
	if !validID(id) {
		return "", errNotFound(what)
	}
	return id, nil
}

// taskFields are the fields shared by the task create and update bodies.
// DueAt is raw to tell null (no due date) from absent.
type taskFields struct {
	Action         *string         `json:"action"`
	Message        *string         `json:"message"`
	DueAt          json.RawMessage `json:"due_at"`
	CompletionRule *string         `json:"completion_rule"`
}

// check validates the values given; dueAt reports a due_at given (zero =
// null).
func (b *taskFields) check() (dueAt time.Time, dueGiven bool, aerr *apiError) {
	if b.Action != nil && *b.Action != taskReview && *b.Action != taskComplete {
		return time.Time{}, false, errBadRequest("Invalid value for action: review or complete")
	}
	if b.CompletionRule != nil && *b.CompletionRule != ruleAll && *b.CompletionRule != ruleAny {
		return time.Time{}, false, errBadRequest("Invalid value for completion_rule: all_assignees or any_assignee")
	}
	if b.DueAt == nil {
		return time.Time{}, false, nil
	}
	if string(b.DueAt) == "null" {
		return time.Time{}, true, nil
	}
	var raw string
	if err := json.Unmarshal(b.DueAt, &raw); err != nil {
		return time.Time{}, false, errBadRequest("Invalid value for due_at: a date-time")
	}
	t, err := time.Parse(time.RFC3339, raw)
	if err != nil {
		return time.Time{}, false, errBadRequest("Invalid value for due_at: a date-time")
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
func (s *Server) createTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := requireJSONContentType(r); aerr != nil {
		return aerr
	}
	var body createTaskBody
	if aerr := decodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Item == nil || body.Item.ID == nil {
		return errBadRequest("Missing required field: item.id")
	}
	if body.Item.Type != nil && *body.Item.Type != "file" {
		return errBadRequest("Invalid value for item.type: file")
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
	s.mu.Lock()
	defer s.mu.Unlock()
	if !validID(*body.Item.ID) {
		return errNotFound("file")
	}
	f, aerr := s.lookup(p, "file", *body.Item.ID)
	if aerr != nil {
		return aerr
	}
	t.id, t.fileID, t.createdAt = s.newID(), f.id, s.nowSec()
	s.tasks.tasks[t.id] = t
	s.dirty(kTasks, t.id)
	writeJSON(w, http.StatusCreated, s.taskRecord(t))
	return nil
}

// getTask serves GET /tasks/{task_id}: 200 Task.
func (s *Server) getTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_id", "task")
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, aerr := s.lookupTask(p, id)
	if aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, s.taskRecord(t))
	return nil
}

// updateTask serves PUT /tasks/{task_id}: 200 Task. A new action must allow
// the states the assignments have (400 bad_request otherwise).
func (s *Server) updateTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_id", "task")
	if aerr != nil {
		return aerr
	}
	if aerr := requireJSONContentType(r); aerr != nil {
		return aerr
	}
	var body taskFields
	if aerr := decodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	dueAt, dueGiven, aerr := body.check()
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, aerr := s.lookupTask(p, id)
	if aerr != nil {
		return aerr
	}
	if body.Action != nil {
		for _, a := range t.assignments {
			if !slices.Contains(statesFor(*body.Action), a.state) {
				return errBadRequest("An assignment of the task is %s, which a %s task does not allow", a.state, *body.Action)
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
	writeJSON(w, http.StatusOK, s.taskRecord(t))
	return nil
}

// deleteTask serves DELETE /tasks/{task_id}: 204, with its assignments.
func (s *Server) deleteTask(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_id", "task")
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	t, aerr := s.lookupTask(p, id)
	if aerr == nil {
		s.dropTask(t)
		delete(s.tasks.tasks, t.id)
		s.dirty(kTasks, t.id)
	}
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listFileTasks serves GET /files/{file_id}/tasks: 200 Tasks, unpaged, in
// the order they were created.
func (s *Server) listFileTasks(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, aerr := s.lookup(p, "file", id); aerr != nil {
		return aerr
	}
	var tasks []*task
	for _, t := range s.tasks.tasks {
		if t.fileID == id {
			tasks = append(tasks, t)
		}
	}
	slices.SortFunc(tasks, func(a, b *task) int { return compareIDs(a.id, b.id) })
	entries := make([]any, 0, len(tasks))
	for _, t := range tasks {
		entries = append(entries, s.taskRecord(t))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(entries), "entries": entries})
	return nil
}

// listTaskAssignments serves GET /tasks/{task_id}/assignments: 200
// TaskAssignments, unpaged.
func (s *Server) listTaskAssignments(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_id", "task")
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, aerr := s.lookupTask(p, id)
	if aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, s.assignmentCollection(t))
	return nil
}

// createAssignmentBody is the body of POST /task_assignments.
type createAssignmentBody struct {
	Task *struct {
		ID   *string `json:"id"`
		Type *string `json:"type"`
	} `json:"task"`
	AssignTo *struct {
		ID    *string `json:"id"`
		Login *string `json:"login"`
	} `json:"assign_to"`
}

// createTaskAssignment serves POST /task_assignments: 201 TaskAssignment.
// The assignee is named by id or login and must have access to the file
// (400 task_assignee_not_allowed); one assignment per user and task (409
// conflict); a completed task takes none (403 task_completed).
func (s *Server) createTaskAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := requireJSONContentType(r); aerr != nil {
		return aerr
	}
	var body createAssignmentBody
	if aerr := decodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Task == nil || body.Task.ID == nil || body.Task.Type == nil {
		return errBadRequest("Missing required field: task.id and task.type")
	}
	if *body.Task.Type != "task" {
		return errBadRequest("Invalid value for task.type: task")
	}
	if body.AssignTo == nil || (body.AssignTo.ID == nil || *body.AssignTo.ID == "") && (body.AssignTo.Login == nil || *body.AssignTo.Login == "") {
		return errBadRequest("Missing required field: assign_to.id or assign_to.login")
	}
	var userID, login string
	if body.AssignTo.ID != nil {
		userID = *body.AssignTo.ID
	}
	if body.AssignTo.Login != nil {
		login = *body.AssignTo.Login
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !validID(*body.Task.ID) {
		return errNotFound("task")
	}
	t, aerr := s.lookupTask(p, *body.Task.ID)
	if aerr != nil {
		return aerr
	}
	if t.completed() {
		return errf(http.StatusForbidden, codeTaskCompleted, "The task is completed and takes no new assignment")
	}
	u := s.taskUser(userID, login)
	if u != nil && userID != "" && login != "" && !strings.EqualFold(u.login, login) {
		return errBadRequest("assign_to.id and assign_to.login name different users")
	}
	if u == nil || !s.visible(s.principalForUser(u), s.items[t.fileID]) {
		return errf(http.StatusBadRequest, codeTaskAssigneeNotAllowed, "The user cannot be assigned this task: unknown, or without access to the file")
	}
	for _, a := range t.assignments {
		if a.to == u {
			// One assignment per user and task; the service documents no
			// code, conflict is the spec's generic one for 409.
			return errf(http.StatusConflict, codeConflict, "The user is already assigned this task")
		}
	}
	a := &taskAssignment{
		id: s.newID(), task: t, to: u, by: p.user, state: stateIncomplete,
		message: t.message, assignedAt: s.nowSec(),
	}
	t.assignments = append(t.assignments, a)
	s.tasks.assignments[a.id] = a
	s.dirty(kTasks, t.id)
	writeJSON(w, http.StatusCreated, s.assignmentRecord(a))
	return nil
}

// getTaskAssignment serves GET /task_assignments/{task_assignment_id}: 200.
func (s *Server) getTaskAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_assignment_id", "task_assignment")
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, aerr := s.lookupAssignment(p, id)
	if aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, s.assignmentRecord(a))
	return nil
}

// updateAssignmentBody is the body of PUT /task_assignments/{id}.
type updateAssignmentBody struct {
	Message         *string `json:"message"`
	ResolutionState *string `json:"resolution_state"`
}

// updateTaskAssignment serves PUT /task_assignments/{task_assignment_id}:
// 200 TaskAssignment. Only the assignee answers an assignment (403
// access_denied_insufficient_permissions for anyone else); the state must
// suit the task's action (400 bad_request); a completed task of action
// complete takes no more changes of state (403 task_completed).
func (s *Server) updateTaskAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_assignment_id", "task_assignment")
	if aerr != nil {
		return aerr
	}
	if aerr := requireJSONContentType(r); aerr != nil {
		return aerr
	}
	var body updateAssignmentBody
	if aerr := decodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if st := body.ResolutionState; st != nil {
		switch *st {
		case stateIncomplete, stateApproved, stateRejected, stateCompleted:
		default:
			return errBadRequest("Invalid value for resolution_state: %s", strings.Join(append(statesFor(taskReview), stateCompleted), ", "))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, aerr := s.lookupAssignment(p, id)
	if aerr != nil {
		return aerr
	}
	if a.to != p.user {
		return errf(http.StatusForbidden, codeAccessDenied, "Only the assignee can update a task assignment")
	}
	t := a.task
	if st := body.ResolutionState; st != nil && *st != a.state {
		if !slices.Contains(statesFor(t.action), *st) {
			return errBadRequest("A %s task takes the resolution states %s", t.action, strings.Join(statesFor(t.action), ", "))
		}
		if t.action == taskComplete && t.completed() {
			return errf(http.StatusForbidden, codeTaskCompleted, "The task is completed and takes no more changes")
		}
		a.state = *st
		a.completedAt = time.Time{}
		if a.state != stateIncomplete {
			a.completedAt = s.nowSec()
		}
	}
	if body.Message != nil {
		a.message = *body.Message
	}
	s.dirty(kTasks, t.id)
	writeJSON(w, http.StatusOK, s.assignmentRecord(a))
	return nil
}

// deleteTaskAssignment serves DELETE /task_assignments/{task_assignment_id}: 204.
func (s *Server) deleteTaskAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := pathID(r, "task_assignment_id", "task_assignment")
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	a, aerr := s.lookupAssignment(p, id)
	if aerr == nil {
		t := a.task
		t.assignments = slices.DeleteFunc(t.assignments, func(x *taskAssignment) bool { return x == a })
		delete(s.tasks.assignments, a.id)
		s.dirty(kTasks, t.id)
	}
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
