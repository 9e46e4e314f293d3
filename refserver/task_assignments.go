package refserver

import (
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// listTaskAssignments serves GET /tasks/{task_id}/assignments: 200
// TaskAssignments, unpaged.
func (s *Server) listTaskAssignments(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return getRecord(s, w, r, "task_id", state.TaskFor(p), (*state.Tx).AssignmentCollection)
}

// createTaskAssignment serves POST /task_assignments: 201 TaskAssignment.
// The assignee is named by id or login and must have access to the file
// (400 task_assignee_not_allowed); one assignment per user and task (409
// conflict); a completed task takes none (403 task_completed).
func (s *Server) createTaskAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CreateAssignmentBody
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
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateTaskAssignment(body, p, userID, login)
	})
}

// getTaskAssignment serves GET /task_assignments/{task_assignment_id}: 200.
func (s *Server) getTaskAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return getRecord(s, w, r, "task_assignment_id", state.AssignmentFor(p), (*state.Tx).AssignmentRecord)
}

// updateTaskAssignment serves PUT /task_assignments/{task_assignment_id}:
// 200 TaskAssignment. Only the assignee answers an assignment (403
// access_denied_insufficient_permissions for anyone else); the state must
// suit the task's action (400 bad_request); a completed task of action
// complete takes no more changes of state (403 task_completed).
func (s *Server) updateTaskAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := pathID(r, "task_assignment_id", "task_assignment")
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.UpdateAssignmentBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if st := body.ResolutionState; st != nil {
		switch *st {
		case state.StateIncomplete, state.StateApproved, state.StateRejected, state.StateCompleted:
		default:
			return wire.BadRequest("Invalid value for resolution_state: %s", strings.Join(append(state.StatesFor(state.TaskReview), state.StateCompleted), ", "))
		}
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateTaskAssignment(p, id, body)
	})
}

// deleteTaskAssignment serves DELETE /task_assignments/{task_assignment_id}: 204.
func (s *Server) deleteTaskAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "task_assignment_id", http.StatusNoContent, state.AssignmentFor(p), (*state.Tx).RemoveTaskAssignment)
}
