package refserver

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Task assignments (/task_assignments, /tasks/{id}/assignments): each gives
// one user of the enterprise a resolution state on a task (tasks.go has
// the rules of both).

// codeTaskAssigneeNotAllowed answers an assignment to a user who cannot be
// assigned: unknown, or without access to the file (BREADTH §5, common
// errors guide). The spec documents 500 for these; a strict server answers
// the documented 400 code instead.
const codeTaskAssigneeNotAllowed = "task_assignee_not_allowed"

// taskAssignment is one user's part of a task.
type taskAssignment struct {
	id                      string
	task                    *task
	to, by                  *user
	message, state          string
	assignedAt, completedAt time.Time
}

// taskUser finds an enterprise user to assign by id or login
// (case-insensitive), or nil: not the service account, nor a deleted or
// rolled-out user. Callers hold s.mu.
func (s *state) taskUser(id, login string) *user {
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
func (s *state) assignmentRecord(a *taskAssignment) map[string]any {
	return map[string]any{
		"type": "task_assignment", "id": a.id, "item": s.taskFileMini(a.task),
		"assigned_to": a.to.mini(), "assigned_by": a.by.mini(), "message": a.message,
		"resolution_state": a.state, "assigned_at": fmtTime(a.assignedAt),
		"completed_at": fmtTime(a.completedAt), "reminded_at": nil,
	}
}

func (s *state) assignmentCollection(t *task) map[string]any {
	return map[string]any{"total_count": len(t.assignments), "entries": wire.RenderEach(t.assignments, s.assignmentRecord)}
}

// lookupAssignment returns an assignment whose file p may see. Callers hold s.mu.
func (s *state) lookupAssignment(p *principal, id string) (*taskAssignment, *wire.Error) {
	a, ok := s.tasks.assignments[id]
	if !ok {
		return nil, wire.NotFound("task_assignment")
	}
	if _, aerr := s.lookup(p, "file", a.task.fileID); aerr != nil {
		return nil, wire.NotFound("task_assignment")
	}
	return a, nil
}

// assignmentFor is lookupAssignment for p, for getRecord and deleteRecord.
func (s *state) assignmentFor(p *principal) func(id string) (*taskAssignment, *wire.Error) {
	return func(id string) (*taskAssignment, *wire.Error) { return s.lookupAssignment(p, id) }
}

// listTaskAssignments serves GET /tasks/{task_id}/assignments: 200
// TaskAssignments, unpaged.
func (s *Server) listTaskAssignments(w http.ResponseWriter, r *http.Request, p *principal) error {
	return getRecord(s, w, r, "task_id", s.taskFor(p), s.assignmentCollection)
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
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body createAssignmentBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Task == nil || body.Task.ID == nil || body.Task.Type == nil {
		return wire.BadRequest("Missing required field: task.id and task.type")
	}
	if *body.Task.Type != "task" {
		return wire.BadRequest("Invalid value for task.type: task")
	}
	if body.AssignTo == nil || (body.AssignTo.ID == nil || *body.AssignTo.ID == "") && (body.AssignTo.Login == nil || *body.AssignTo.Login == "") {
		return wire.BadRequest("Missing required field: assign_to.id or assign_to.login")
	}
	var userID, login string
	if body.AssignTo.ID != nil {
		userID = *body.AssignTo.ID
	}
	if body.AssignTo.Login != nil {
		login = *body.AssignTo.Login
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.createTaskAssignmentTx(body, p, userID, login)
	})
}

// createTaskAssignmentTx is the transaction of POST /task_assignments
// (createTaskAssignment): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) createTaskAssignmentTx(body createAssignmentBody, p *principal, userID string, login string) (reply, *wire.Error) {
	if !validID(*body.Task.ID) {
		return reply{}, wire.NotFound("task")
	}
	t, aerr := s.lookupTask(p, *body.Task.ID)
	if aerr != nil {
		return reply{}, aerr
	}
	if t.completed() {
		return reply{}, wire.Errorf(http.StatusForbidden, codeTaskCompleted, "The task is completed and takes no new assignment")
	}
	u := s.taskUser(userID, login)
	if u != nil && userID != "" && login != "" && !strings.EqualFold(u.login, login) {
		return reply{}, wire.BadRequest("assign_to.id and assign_to.login name different users")
	}
	if u == nil || !s.visible(s.principalForUser(u), s.items[t.fileID]) {
		return reply{}, wire.Errorf(http.StatusBadRequest, codeTaskAssigneeNotAllowed, "The user cannot be assigned this task: unknown, or without access to the file")
	}
	for _, a := range t.assignments {
		if a.to == u {
			// One assignment per user and task; the service documents no
			// code, conflict is the spec's generic one for 409.
			return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "The user is already assigned this task")
		}
	}
	a := &taskAssignment{
		id: s.newID(), task: t, to: u, by: p.user, state: stateIncomplete,
		message: t.message, assignedAt: s.nowSec(),
	}
	t.assignments = append(t.assignments, a)
	s.tasks.assignments[a.id] = a
	s.dirty(kTasks, t.id)
	s.recordEvent(evTaskAssignCreate, p.user, s.items[t.fileID], s.assignmentRecord(a))
	return reply{http.StatusCreated, s.assignmentRecord(a)}, nil
}

// getTaskAssignment serves GET /task_assignments/{task_assignment_id}: 200.
func (s *Server) getTaskAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	return getRecord(s, w, r, "task_assignment_id", s.assignmentFor(p), s.assignmentRecord)
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
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body updateAssignmentBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if st := body.ResolutionState; st != nil {
		switch *st {
		case stateIncomplete, stateApproved, stateRejected, stateCompleted:
		default:
			return wire.BadRequest("Invalid value for resolution_state: %s", strings.Join(append(statesFor(taskReview), stateCompleted), ", "))
		}
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateTaskAssignmentTx(p, id, body)
	})
}

// updateTaskAssignmentTx is the transaction of PUT
// /task_assignments/{task_assignment_id} (updateTaskAssignment): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) updateTaskAssignmentTx(p *principal, id string, body updateAssignmentBody) (reply, *wire.Error) {
	a, aerr := s.lookupAssignment(p, id)
	if aerr != nil {
		return reply{}, aerr
	}
	if a.to != p.user {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Only the assignee can update a task assignment")
	}
	t := a.task
	if st := body.ResolutionState; st != nil && *st != a.state {
		if !slices.Contains(statesFor(t.action), *st) {
			return reply{}, wire.BadRequest("A %s task takes the resolution states %s", t.action, strings.Join(statesFor(t.action), ", "))
		}
		if t.action == taskComplete && t.completed() {
			return reply{}, wire.Errorf(http.StatusForbidden, codeTaskCompleted, "The task is completed and takes no more changes")
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
	return reply{http.StatusOK, s.assignmentRecord(a)}, nil
}

// deleteTaskAssignment serves DELETE /task_assignments/{task_assignment_id}: 204.
func (s *Server) deleteTaskAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "task_assignment_id", http.StatusNoContent, s.assignmentFor(p), s.removeTaskAssignment)
}

// removeTaskAssignment deletes a from its task. Callers hold mu.
func (s *state) removeTaskAssignment(a *taskAssignment) *wire.Error {
	t := a.task
	t.assignments = wire.RemoveFrom(t.assignments, a)
	delete(s.tasks.assignments, a.id)
	s.dirty(kTasks, t.id)
	return nil
}
