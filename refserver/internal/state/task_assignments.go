package state

import (
	"slices"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Task assignments (/task_assignments, /tasks/{id}/assignments): each gives
// one user of the enterprise a resolution state on a task (tasks.go has
// the rules of both).

// CodeTaskAssigneeNotAllowed answers an assignment to a user who cannot be
// assigned: unknown, or without access to the file (BREADTH §5, common
// errors guide). The spec documents 500 for these; a strict server answers
// the documented 400 code instead.
const CodeTaskAssigneeNotAllowed = "task_assignee_not_allowed"

// TaskAssignment is one user's part of a task.
type TaskAssignment struct {
	ID                      string
	Task                    *Task
	To, By                  *User
	Message, State          string
	AssignedAt, CompletedAt time.Time
}

// taskUser finds an enterprise user to assign by id or login
// (case-insensitive), or nil: not the service account, nor a deleted or
// rolled-out user.
func (s *Tx) taskUser(id, login string) *User {
	if id == "" {
		u := s.Users.ByLogin[strings.ToLower(login)]
		if u == nil {
			return nil
		}
		id = u.ID
	}
	if u := s.EnterpriseUser(id); u != nil && u != s.App {
		return u
	}
	return nil
}

// AssignmentRecord is the TaskAssignment record.
func (s *Tx) AssignmentRecord(a *TaskAssignment) map[string]any {
	return map[string]any{
		"type": "task_assignment", "id": a.ID, "item": s.taskFileMini(a.Task),
		"assigned_to": a.To.Mini(), "assigned_by": a.By.Mini(), "message": a.Message,
		"resolution_state": a.State, "assigned_at": FmtTime(a.AssignedAt),
		"completed_at": FmtTime(a.CompletedAt), "reminded_at": nil,
	}
}

// AssignmentCollection is a task's task_assignment_collection: every
// assignment, with total_count.
func (s *Tx) AssignmentCollection(t *Task) map[string]any {
	return map[string]any{"total_count": len(t.Assignments), "entries": wire.RenderEach(t.Assignments, s.AssignmentRecord)}
}

// lookupAssignment returns an assignment whose file p may see.
func (s *Tx) lookupAssignment(p *Principal, id string) (*TaskAssignment, *wire.Error) {
	a, ok := s.Tasks.Assignments[id]
	if !ok {
		return nil, wire.NotFound("task_assignment")
	}
	if _, aerr := s.Lookup(p, "file", a.Task.FileID); aerr != nil {
		return nil, wire.NotFound("task_assignment")
	}
	return a, nil
}

// AssignmentFor is lookupAssignment for p, for refserver's getRecord and
// deleteRecord.
func AssignmentFor(p *Principal) func(tx *Tx, id string) (*TaskAssignment, *wire.Error) {
	return func(tx *Tx, id string) (*TaskAssignment, *wire.Error) { return tx.lookupAssignment(p, id) }
}

// CreateAssignmentBody is the body of POST /task_assignments.
type CreateAssignmentBody struct {
	Task *struct {
		ID   *string `json:"id"`
		Type *string `json:"type"`
	} `json:"task"`
	AssignTo *struct {
		ID    *string `json:"id"`
		Login *string `json:"login"`
	} `json:"assign_to"`
}

// CreateTaskAssignment serves POST /task_assignments (refserver's
// createTaskAssignment): the user (userID or login) is assigned the task,
// if the task is not completed (403), the user may see its file (400
// task_assignee_not_allowed) and has no assignment yet (409); 201 with
// the record.
func (s *Tx) CreateTaskAssignment(body CreateAssignmentBody, p *Principal, userID string, login string) (Reply, *wire.Error) {
	if !ValidID(*body.Task.ID) {
		return Reply{}, wire.NotFound("task")
	}
	t, aerr := s.lookupTask(p, *body.Task.ID)
	if aerr != nil {
		return Reply{}, aerr
	}
	if t.completed() {
		return Reply{}, wire.Errorf(wire.StatusForbidden, codeTaskCompleted, "The task is completed and takes no new assignment")
	}
	u := s.taskUser(userID, login)
	if u != nil && userID != "" && login != "" && !strings.EqualFold(u.Login, login) {
		return Reply{}, wire.BadRequest("assign_to.id and assign_to.login name different users")
	}
	if u == nil || !s.visible(s.PrincipalForUser(u), s.Items.At("file", t.FileID)) {
		return Reply{}, wire.Errorf(wire.StatusBadRequest, CodeTaskAssigneeNotAllowed, "The user cannot be assigned this task: unknown, or without access to the file")
	}
	for _, a := range t.Assignments {
		if a.To == u {
			// One assignment per user and task; the service documents no
			// code, conflict is the spec's generic one for 409.
			return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "The user is already assigned this task")
		}
	}
	a := &TaskAssignment{
		ID: s.NewID(), Task: t, To: u, By: p.User, State: StateIncomplete,
		Message: t.Message, AssignedAt: s.NowSec(),
	}
	s.Tasks.Tasks.Update(t.ID, func(t *Task) { t.Assignments = append(t.Assignments, a) })
	s.Tasks.Assignments[a.ID] = a
	s.RecordEvent(evTaskAssignCreate, p.User, s.Items.At("file", t.FileID), s.AssignmentRecord(a))
	return Reply{wire.StatusCreated, s.AssignmentRecord(a)}, nil
}

// UpdateAssignmentBody is the body of PUT /task_assignments/{id}.
type UpdateAssignmentBody struct {
	Message         *string `json:"message"`
	ResolutionState *string `json:"resolution_state"`
}

// UpdateTaskAssignment serves PUT /task_assignments/{task_assignment_id}
// (updateTaskAssignment): the assignee (403 for others) sets its message
// or resolution_state, one the task's action takes.
func (s *Tx) UpdateTaskAssignment(p *Principal, id string, body UpdateAssignmentBody) (Reply, *wire.Error) {
	a, aerr := s.lookupAssignment(p, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	if a.To != p.User {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the assignee can update a task assignment")
	}
	t := a.Task
	if st := body.ResolutionState; st != nil && *st != a.State {
		if !slices.Contains(StatesFor(t.Action), *st) {
			return Reply{}, wire.BadRequest("A %s task takes the resolution states %s", t.Action, strings.Join(StatesFor(t.Action), ", "))
		}
		if t.Action == TaskComplete && t.completed() {
			return Reply{}, wire.Errorf(wire.StatusForbidden, codeTaskCompleted, "The task is completed and takes no more changes")
		}
	}
	// An assignment is a part of its task's record.
	s.Tasks.Tasks.Update(t.ID, func(*Task) {
		if st := body.ResolutionState; st != nil && *st != a.State {
			a.State = *st
			a.CompletedAt = time.Time{}
			if a.State != StateIncomplete {
				a.CompletedAt = s.NowSec()
			}
		}
		if body.Message != nil {
			a.Message = *body.Message
		}
	})
	s.RecordEvent(evTaskAssignUpdate, p.User, s.Items.At("file", t.FileID), s.AssignmentRecord(a))
	return Reply{wire.StatusOK, s.AssignmentRecord(a)}, nil
}

// RemoveTaskAssignment deletes a from its task.
func (s *Tx) RemoveTaskAssignment(a *TaskAssignment) *wire.Error {
	s.Tasks.Tasks.Update(a.Task.ID, func(t *Task) { t.Assignments = wire.RemoveFrom(t.Assignments, a) })
	delete(s.Tasks.Assignments, a.ID)
	return nil
}
