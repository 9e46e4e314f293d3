package cms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// TasksService handles tasks on files (/tasks): a request to review or to
// complete a file, answered by the users assigned to it
// (TaskAssignmentsService).
type TasksService service

// TaskAssignmentsService handles task assignments (/task_assignments): one
// user's part of a task, with its resolution state.
type TaskAssignmentsService service

// TaskAction is what a task asks of its assignees.
type TaskAction string

// Task actions.
const (
	// TaskActionReview asks to approve or reject the file.
	TaskActionReview TaskAction = "review"
	// TaskActionComplete asks to complete a general task.
	TaskActionComplete TaskAction = "complete"
)

// TaskCompletionRule says how many assignees must resolve a task before it
// is completed.
type TaskCompletionRule string

// Completion rules.
const (
	TaskCompletionRuleAllAssignees TaskCompletionRule = "all_assignees"
	TaskCompletionRuleAnyAssignee  TaskCompletionRule = "any_assignee"
)

// ResolutionState is the state of a task assignment. A review task's
// assignments are incomplete, approved or rejected; a complete task's are
// incomplete or completed.
type ResolutionState string

// Resolution states.
const (
	ResolutionStateIncomplete ResolutionState = "incomplete"
	ResolutionStateApproved   ResolutionState = "approved"
	ResolutionStateRejected   ResolutionState = "rejected"
	ResolutionStateCompleted  ResolutionState = "completed"
)

// States lists the resolution states an action allows (nil for an unknown
// action).
func (a TaskAction) States() []ResolutionState {
	switch a {
	case TaskActionReview:
		return []ResolutionState{ResolutionStateIncomplete, ResolutionStateApproved, ResolutionStateRejected}
	case TaskActionComplete:
		return []ResolutionState{ResolutionStateIncomplete, ResolutionStateCompleted}
	}
	return nil
}

// Allows reports whether an assignment of a task with this action may take
// state s.
func (a TaskAction) Allows(s ResolutionState) bool { return slices.Contains(a.States(), s) }

// Resolved reports whether the state answers the assignment (approved,
// rejected or completed).
func (s ResolutionState) Resolved() bool {
	return s == ResolutionStateApproved || s == ResolutionStateRejected || s == ResolutionStateCompleted
}

// Task is a task on a file.
type Task struct {
	ID             string             `json:"id"`
	Type           string             `json:"type,omitzero"`
	Item           *FileMini          `json:"item,omitzero"`
	DueAt          time.Time          `json:"due_at,omitzero"`
	Action         TaskAction         `json:"action,omitzero"`
	Message        string             `json:"message,omitzero"`
	CompletionRule TaskCompletionRule `json:"completion_rule,omitzero"`
	// IsCompleted follows the completion rule: all assignees (or any one of
	// them) resolved the task.
	IsCompleted bool      `json:"is_completed"`
	CreatedBy   *UserMini `json:"created_by,omitzero"`
	CreatedAt   time.Time `json:"created_at,omitzero"`
	// TaskAssignmentCollection holds the task's assignments.
	TaskAssignmentCollection *Collection[*TaskAssignment] `json:"task_assignment_collection,omitzero"`
}

// TaskAssignment is one user's part of a task.
type TaskAssignment struct {
	ID              string          `json:"id"`
	Type            string          `json:"type,omitzero"`
	Item            *FileMini       `json:"item,omitzero"`
	AssignedTo      *UserMini       `json:"assigned_to,omitzero"`
	AssignedBy      *UserMini       `json:"assigned_by,omitzero"`
	Message         string          `json:"message,omitzero"`
	ResolutionState ResolutionState `json:"resolution_state,omitzero"`
	AssignedAt      time.Time       `json:"assigned_at,omitzero"`
	// CompletedAt is when the assignment was resolved; zero while incomplete.
	CompletedAt time.Time `json:"completed_at,omitzero"`
	RemindedAt  time.Time `json:"reminded_at,omitzero"`
}

// checkAction and checkRule reject values the service does not know.
func checkAction(a TaskAction) error {
	if a != "" && a.States() == nil {
		return invalidArg("action", fmt.Sprintf("%q is not review or complete", a))
	}
	return nil
}

func checkRule(r TaskCompletionRule) error {
	if r != "" && r != TaskCompletionRuleAllAssignees && r != TaskCompletionRuleAnyAssignee {
		return invalidArg("completion rule", fmt.Sprintf("%q is not all_assignees or any_assignee", r))
	}
	return nil
}

// CreateTaskRequest is the body of TasksService.Create.
type CreateTaskRequest struct {
	// File is the file the task is about.
	File FileRef
	// Action is review (the default) or complete.
	Action TaskAction
	// Message tells the assignees what to do.
	Message string
	// DueAt is when the task is due; zero for none.
	DueAt time.Time
	// CompletionRule is all_assignees (the default) or any_assignee.
	CompletionRule TaskCompletionRule
}

// MarshalJSON writes the wire body, with the file as item {id, type}.
func (r CreateTaskRequest) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Item           FileMini           `json:"item"`
		Action         TaskAction         `json:"action,omitzero"`
		Message        string             `json:"message,omitzero"`
		DueAt          time.Time          `json:"due_at,omitzero"`
		CompletionRule TaskCompletionRule `json:"completion_rule,omitzero"`
	}{FileMini{ID: r.File.ID, Type: "file"}, r.Action, r.Message, r.DueAt, r.CompletionRule})
}

// Create creates a task on a file, without assignees (POST /tasks); assign
// users with TaskAssignmentsService.Create.
func (s *TasksService) Create(ctx context.Context, body *CreateTaskRequest) (*Task, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("file", body.File.ID); err != nil {
		return nil, nil, err
	}
	if err := checkAction(body.Action); err != nil {
		return nil, nil, err
	}
	if err := checkRule(body.CompletionRule); err != nil {
		return nil, nil, err
	}
	return callAPI[Task](ctx, s.client, http.MethodPost, body, nil, "tasks")
}

// Get fetches a task with its assignments (GET /tasks/{task_id}).
func (s *TasksService) Get(ctx context.Context, taskID string) (*Task, *Response, error) {
	if err := checkID("task", taskID); err != nil {
		return nil, nil, err
	}
	return getAPI[Task](ctx, s.client, nil, "tasks", taskID)
}

// UpdateTaskRequest is the body of TasksService.Update. Zero (nil) fields
// are left out and keep their value.
type UpdateTaskRequest struct {
	// Action changes what the task asks; the service refuses an action that
	// does not allow the states the assignments already have.
	Action TaskAction `json:"action,omitzero"`
	// Message changes the message; a pointer to "" (cms.Ptr("")) clears it.
	Message *string `json:"message,omitempty"`
	// DueAt changes the due date. The service documents no way to remove
	// one.
	DueAt time.Time `json:"due_at,omitzero"`
	// CompletionRule changes the completion rule.
	CompletionRule TaskCompletionRule `json:"completion_rule,omitzero"`
}

// Update changes a task (PUT /tasks/{task_id}).
func (s *TasksService) Update(ctx context.Context, taskID string, body *UpdateTaskRequest) (*Task, *Response, error) {
	if err := checkID("task", taskID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkAction(body.Action); err != nil {
		return nil, nil, err
	}
	if err := checkRule(body.CompletionRule); err != nil {
		return nil, nil, err
	}
	return callAPI[Task](ctx, s.client, http.MethodPut, body, nil, "tasks", taskID)
}

// Delete deletes a task and its assignments (DELETE /tasks/{task_id}).
func (s *TasksService) Delete(ctx context.Context, taskID string) (*Response, error) {
	if err := checkID("task", taskID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "tasks", taskID)
}

// ListByFile returns all the tasks of a file (GET /files/{file_id}/tasks).
// The list is not paged: the service returns it whole.
func (s *TasksService) ListByFile(ctx context.Context, fileID string) (*Collection[*Task], *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	return getAPI[Collection[*Task]](ctx, s.client, nil, "files", fileID, "tasks")
}

// CreateTaskAssignmentRequest is the body of TaskAssignmentsService.Create:
// the task, and the user by id or by login (e-mail).
type CreateTaskAssignmentRequest struct {
	// Task is the task to assign.
	Task TaskRef
	// User (by id) or Login (by e-mail address) names the assignee; set
	// exactly one (both, or neither, is an *ArgError before sending).
	User  *UserRef
	Login string
}

// MarshalJSON writes the wire body: task {id, type} and assign_to {id | login}.
func (r CreateTaskAssignmentRequest) MarshalJSON() ([]byte, error) {
	type assignTo struct {
		ID    string `json:"id,omitzero"`
		Login string `json:"login,omitzero"`
	}
	type taskRef struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}
	var userID string
	if r.User != nil {
		userID = r.User.ID
	}
	return json.Marshal(struct {
		Task     taskRef  `json:"task"`
		AssignTo assignTo `json:"assign_to"`
	}{taskRef{r.Task.ID, "task"}, assignTo{userID, r.Login}})
}

// Create assigns a task to a user (POST /task_assignments). The service
// answers 403 for a completed task (ErrTaskCompleted on the reference
// server), and 400 ErrTaskAssigneeNotAllowed for a user who cannot be
// assigned (unknown, or without access to the file).
func (s *TaskAssignmentsService) Create(ctx context.Context, body *CreateTaskAssignmentRequest) (*TaskAssignment, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("task", body.Task.ID); err != nil {
		return nil, nil, err
	}
	switch {
	case body.User == nil && body.Login == "":
		return nil, nil, invalidArg("assignee", "set User or Login")
	case body.User != nil && body.Login != "":
		return nil, nil, invalidArg("assignee", "set User or Login, not both")
	case body.User != nil:
		if err := checkID("user", body.User.ID); err != nil {
			return nil, nil, err
		}
	}
	return callAPI[TaskAssignment](ctx, s.client, http.MethodPost, body, nil, "task_assignments")
}

// Get fetches a task assignment (GET /task_assignments/{task_assignment_id}).
func (s *TaskAssignmentsService) Get(ctx context.Context, assignmentID string) (*TaskAssignment, *Response, error) {
	if err := checkID("task assignment", assignmentID); err != nil {
		return nil, nil, err
	}
	return getAPI[TaskAssignment](ctx, s.client, nil, "task_assignments", assignmentID)
}

// UpdateTaskAssignmentRequest is the body of TaskAssignmentsService.Update.
type UpdateTaskAssignmentRequest struct {
	// Message, when set, replaces the assignee's note; a pointer to ""
	// clears it (the service takes no null here). nil leaves it.
	Message *string `json:"message,omitempty"`
	// ResolutionState answers the assignment.
	ResolutionState ResolutionState `json:"resolution_state,omitzero"`
	// TaskAction is the action of the assignment's task, when the caller
	// knows it (Task.Action): the SDK then checks ResolutionState against
	// it before sending. It is not sent.
	TaskAction TaskAction `json:"-"`
}

// Update answers a task assignment (PUT /task_assignments/{task_assignment_id}):
// its resolution state and message. Only the assignee may. A state that is
// not one of the four, or that body.TaskAction does not allow, is an
// *ArgError and nothing is sent; the service answers 400 for a state the
// task's action does not allow.
func (s *TaskAssignmentsService) Update(ctx context.Context, assignmentID string, body *UpdateTaskAssignmentRequest) (*TaskAssignment, *Response, error) {
	if err := checkID("task assignment", assignmentID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkAction(body.TaskAction); err != nil {
		return nil, nil, err
	}
	if st := body.ResolutionState; st != "" {
		if st != ResolutionStateIncomplete && !st.Resolved() {
			return nil, nil, invalidArg("resolution state", fmt.Sprintf("%q is not incomplete, approved, rejected or completed", st))
		}
		if body.TaskAction != "" && !body.TaskAction.Allows(st) {
			return nil, nil, invalidArg("resolution state", fmt.Sprintf("a %s task does not take %q (it takes %v)", body.TaskAction, st, body.TaskAction.States()))
		}
	}
	return callAPI[TaskAssignment](ctx, s.client, http.MethodPut, body, nil, "task_assignments", assignmentID)
}

// Resolve sets the state of an assignment of task (PUT
// /task_assignments/{task_assignment_id}), checking it against the task's
// action first: it is Update with TaskAction set from task.
func (s *TaskAssignmentsService) Resolve(ctx context.Context, task *Task, assignmentID string, state ResolutionState, message string) (*TaskAssignment, *Response, error) {
	if task == nil {
		return nil, nil, invalidArg("task", "nil")
	}
	var note *string
	if message != "" {
		note = &message
	}
	return s.Update(ctx, assignmentID, &UpdateTaskAssignmentRequest{ResolutionState: state, Message: note, TaskAction: task.Action})
}

// Delete removes an assignment from its task (DELETE /task_assignments/{task_assignment_id}).
func (s *TaskAssignmentsService) Delete(ctx context.Context, assignmentID string) (*Response, error) {
	if err := checkID("task assignment", assignmentID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "task_assignments", assignmentID)
}

// ListByTask returns all the assignments of a task (GET /tasks/{task_id}/assignments).
// The list is not paged: the service returns it whole.
func (s *TaskAssignmentsService) ListByTask(ctx context.Context, taskID string) (*Collection[*TaskAssignment], *Response, error) {
	if err := checkID("task", taskID); err != nil {
		return nil, nil, err
	}
	return getAPI[Collection[*TaskAssignment]](ctx, s.client, nil, "tasks", taskID, "assignments")
}
