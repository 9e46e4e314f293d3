package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

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
func (s *Server) createTask(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CreateTaskBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest, "due_at"); aerr != nil {
		return aerr
	}
	if body.Item == nil || body.Item.ID == nil {
		return wire.BadRequest("Missing required field: item.id")
	}
	if body.Item.Type != nil && *body.Item.Type != "file" {
		return wire.BadRequest("Invalid value for item.type: file")
	}
	dueAt, _, aerr := body.Check()
	if aerr != nil {
		return aerr
	}
	t := &state.Task{Action: state.TaskReview, Rule: state.RuleAll, DueAt: dueAt, CreatedBy: p.User}
	if body.Action != nil {
		t.Action = *body.Action
	}
	if body.CompletionRule != nil {
		t.Rule = *body.CompletionRule
	}
	if body.Message != nil {
		t.Message = *body.Message
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateTask(body, p, t)
	})
}

// getTask serves GET /tasks/{task_id}: 200 Task.
func (s *Server) getTask(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return getRecord(s, w, r, "task_id", state.TaskFor(p), (*state.Tx).TaskRecord)
}

// updateTask serves PUT /tasks/{task_id}: 200 Task. A new action must allow
// the states the assignments have (400 bad_request otherwise).
func (s *Server) updateTask(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := pathID(r, "task_id", "task")
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.TaskFields
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest, "due_at"); aerr != nil {
		return aerr
	}
	dueAt, dueGiven, aerr := body.Check()
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateTask(p, id, body, dueGiven, dueAt)
	})
}

// deleteTask serves DELETE /tasks/{task_id}: 204, with its assignments.
func (s *Server) deleteTask(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "task_id", http.StatusNoContent, state.TaskToChangeFor(p), func(tx *state.Tx, t *state.Task) *wire.Error {
		tx.RemoveTask(t)
		return nil
	})
}

// listFileTasks serves GET /files/{file_id}/tasks: 200 Tasks, unpaged, in
// the order they were created.
func (s *Server) listFileTasks(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListFileTasks(p, id)
	})
}
