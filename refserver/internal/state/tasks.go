package state

import (
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
	TaskReview   = "review"
	TaskComplete = "complete"

	RuleAll = "all_assignees"
	RuleAny = "any_assignee"

	StateIncomplete = "incomplete"
	StateApproved   = "approved"
	StateRejected   = "rejected"
	StateCompleted  = "completed"
)

// StatesFor lists the resolution states an action allows.
func StatesFor(action string) []string {
	if action == TaskComplete {
		return []string{StateIncomplete, StateCompleted}
	}
	return []string{StateIncomplete, StateApproved, StateRejected}
}

// Task is one task on a file.
type Task struct {
	ID, FileID            string
	Action, Rule, Message string
	DueAt, CreatedAt      time.Time
	CreatedBy             *User
	Assignments           []*TaskAssignment // in the order they were made
}

// completed applies the completion rule.
func (t *Task) completed() bool {
	resolved := 0
	for _, a := range t.Assignments {
		if a.State != StateIncomplete {
			resolved++
		}
	}
	if t.Rule == RuleAny {
		return resolved > 0
	}
	return resolved > 0 && resolved == len(t.Assignments)
}

// taskState is the server's state for tasks and task assignments (/tasks, /task_assignments), reached only through a transaction.
type taskState struct {
	Tasks       Table[*Task]
	Assignments map[string]*TaskAssignment
	ByFile      map[string][]*Task // the tasks of a file id, in creation order
}

// InitTasks prepares the (empty) state of tasks and task assignments
// (/tasks, /task_assignments); called by InitResources, and to empty the
// state before a restore.
func (s *Tx) InitTasks() {
	s.Tasks = taskState{Tasks: newTable[*Task](s.Env, KTasks), Assignments: map[string]*TaskAssignment{}, ByFile: map[string][]*Task{}}
}

// tasksItemPurged drops the tasks of a file deleted for good.
func (s *Tx) tasksItemPurged(it *Item) {
	if it.Typ != "file" { // a folder may share the id (SeparateIDSpaces)
		return
	}
	for _, t := range s.Tasks.ByFile[it.ID] {
		s.dropTask(t)
		s.Tasks.Tasks.Delete(t.ID)
	}
	delete(s.Tasks.ByFile, it.ID)
}

// addTask registers a new task.
func (s *Tx) addTask(t *Task) {
	s.Tasks.Tasks.Put(t.ID, t)
	s.Tasks.ByFile[t.FileID] = append(s.Tasks.ByFile[t.FileID], t)
}

// RemoveTask forgets a task with its assignments.
func (s *Tx) RemoveTask(t *Task) {
	s.dropTask(t)
	s.Tasks.Tasks.Delete(t.ID)
	wire.RemoveKeyed(s.Tasks.ByFile, t.FileID, t)
}

// dropTask forgets the assignments of a task.
func (s *Tx) dropTask(t *Task) {
	for _, a := range t.Assignments {
		delete(s.Tasks.Assignments, a.ID)
	}
}

func (s *Tx) taskFileMini(t *Task) any {
	if f, ok := s.Items.Get("file", t.FileID); ok {
		return s.Mini(f)
	}
	return nil
}

// TaskRecord is the Task record.
func (s *Tx) TaskRecord(t *Task) map[string]any {
	return map[string]any{
		"type": "task", "id": t.ID, "item": s.taskFileMini(t), "action": t.Action,
		"message": t.Message, "due_at": FmtTime(t.DueAt), "completion_rule": t.Rule,
		"is_completed": t.completed(), "created_by": t.CreatedBy.Mini(), "created_at": FmtTime(t.CreatedAt),
		"task_assignment_collection": s.AssignmentCollection(t),
	}
}

// lookupTask returns a task whose file p may see.
func (s *Tx) lookupTask(p *Principal, id string) (*Task, *wire.Error) {
	t, ok := s.Tasks.Tasks.Get(id)
	if !ok {
		return nil, wire.NotFound("task")
	}
	if _, aerr := s.Lookup(p, "file", t.FileID); aerr != nil {
		return nil, wire.NotFound("task")
	}
	return t, nil
}

// TaskFor is lookupTask for p, for refserver's getRecord.
func TaskFor(p *Principal) func(tx *Tx, id string) (*Task, *wire.Error) {
	return func(tx *Tx, id string) (*Task, *wire.Error) { return tx.lookupTask(p, id) }
}

// taskToChange returns p's task with id that p may change or delete: as
// creating one on its file does, that takes edit rights on the file (403
// for who only sees it, 404 for who does not).
func (s *Tx) taskToChange(p *Principal, id string) (*Task, *wire.Error) {
	t, aerr := s.lookupTask(p, id)
	if aerr != nil {
		return nil, aerr
	}
	if _, aerr := s.LookupFor(p, "file", t.FileID, ActEdit); aerr != nil {
		return nil, aerr
	}
	return t, nil
}

// TaskToChangeFor is taskToChange for p, for refserver's deleteRecord.
func TaskToChangeFor(p *Principal) func(tx *Tx, id string) (*Task, *wire.Error) {
	return func(tx *Tx, id string) (*Task, *wire.Error) { return tx.taskToChange(p, id) }
}

// TaskFields are the fields shared by the task create and update bodies.
// Only due_at takes null (no due date: the spec's default is null); null
// elsewhere is 400 bad_request (wire.DecodeJSONObject).
type TaskFields struct {
	Action         *string               `json:"action"`
	Message        *string               `json:"message"`
	DueAt          wire.Nullable[string] `json:"due_at"`
	CompletionRule *string               `json:"completion_rule"`
}

// Check validates the values given; dueGiven reports a due_at given, dueAt
// its value (zero = null).
func (b *TaskFields) Check() (dueAt time.Time, dueGiven bool, aerr *wire.Error) {
	if b.Action != nil && *b.Action != TaskReview && *b.Action != TaskComplete {
		return time.Time{}, false, wire.BadRequest("Invalid value for action: review or complete")
	}
	if b.CompletionRule != nil && *b.CompletionRule != RuleAll && *b.CompletionRule != RuleAny {
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

// CreateTaskBody is the body of POST /tasks.
type CreateTaskBody struct {
	Item *struct {
		ID   *string `json:"id"`
		Type *string `json:"type"`
	} `json:"item"`
	TaskFields
}

// CreateTask serves POST /tasks (refserver's createTask): t (built from
// the checked body) goes on the file, which p must be able to edit; 201
// with its record.
func (s *Tx) CreateTask(body CreateTaskBody, p *Principal, t *Task) (Reply, *wire.Error) {
	if !ValidID(*body.Item.ID) {
		return Reply{}, wire.NotFound("file")
	}
	f, aerr := s.LookupFor(p, "file", *body.Item.ID, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	t.ID, t.FileID, t.CreatedAt = s.NewID(), f.ID, s.NowSec()
	s.addTask(t)
	return Reply{wire.StatusCreated, s.TaskRecord(t)}, nil
}

// UpdateTask serves PUT /tasks/{task_id} (updateTask): the task's
// action (400 when an assignment's state does not fit it), completion
// rule, message and due date (dueGiven: set to dueAt).
func (s *Tx) UpdateTask(p *Principal, id string, body TaskFields, dueGiven bool, dueAt time.Time) (Reply, *wire.Error) {
	t, aerr := s.taskToChange(p, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	if body.Action != nil {
		for _, a := range t.Assignments {
			if !slices.Contains(StatesFor(*body.Action), a.State) {
				return Reply{}, wire.BadRequest("An assignment of the task is %s, which a %s task does not allow", a.State, *body.Action)
			}
		}
	}
	s.Tasks.Tasks.Update(t.ID, func(t *Task) {
		if body.Action != nil {
			t.Action = *body.Action
		}
		if body.CompletionRule != nil {
			t.Rule = *body.CompletionRule
		}
		if body.Message != nil {
			t.Message = *body.Message
		}
		if dueGiven {
			t.DueAt = dueAt
		}
	})
	return Reply{wire.StatusOK, s.TaskRecord(t)}, nil
}

// ListFileTasks serves GET /files/{file_id}/tasks (listFileTasks): every
// task of a file p sees, in creation order.
func (s *Tx) ListFileTasks(p *Principal, id string) (Reply, *wire.Error) {
	if _, aerr := s.Lookup(p, "file", id); aerr != nil {
		return Reply{}, aerr
	}
	tasks := s.Tasks.ByFile[id]
	return Reply{wire.StatusOK, map[string]any{"total_count": len(tasks), "entries": wire.RenderEach(tasks, s.TaskRecord)}}, nil
}
