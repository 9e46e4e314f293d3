package cms_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTasksReviewFlow(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t)
	ctx := context.Background()
	f, _, err := c.Files.Upload(ctx, "0", "contract.txt", strings.NewReader("terms"), 5, nil)
	require.NoError(t, err)

	due := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)
	task, resp, err := c.Tasks.Create(ctx, &cms.CreateTaskRequest{File: cms.FileRef{ID: f.ID}, Message: "Please review", DueAt: due})
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, cms.TaskActionReview, task.Action)
	assert.Equal(t, cms.TaskCompletionRuleAllAssignees, task.CompletionRule)
	assert.True(t, due.Equal(task.DueAt))
	assert.Equal(t, f.ID, task.Item.ID)
	assert.Equal(t, 0, task.TaskAssignmentCollection.TotalCount)
	assert.False(t, task.IsCompleted)

	mine, _, err := c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, User: &cms.UserRef{ID: srv.UserID()}})
	require.NoError(t, err)
	theirs, _, err := c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, Login: "admin@cms.test"})
	require.NoError(t, err)
	assert.Equal(t, srv.AdminUserID(), theirs.AssignedTo.ID)
	assert.Equal(t, cms.ResolutionStateIncomplete, theirs.ResolutionState)

	// The SDK knows the action: "completed" never reaches the service.
	srv.ResetRequests()
	_, _, err = c.TaskAssignments.Resolve(ctx, task, mine.ID, cms.ResolutionStateCompleted, "")
	require.ErrorIs(t, err, cms.ErrInvalidArgument)
	assert.Empty(t, srv.Requests())
	// Without the action the service says no, and nothing changes.
	_, _, err = c.TaskAssignments.Update(ctx, mine.ID, &cms.UpdateTaskAssignmentRequest{ResolutionState: cms.ResolutionStateCompleted})
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
	got, _, err := c.TaskAssignments.Get(ctx, mine.ID)
	require.NoError(t, err)
	assert.Equal(t, cms.ResolutionStateIncomplete, got.ResolutionState)

	a, _, err := c.TaskAssignments.Resolve(ctx, task, mine.ID, cms.ResolutionStateApproved, "fine by me")
	require.NoError(t, err)
	assert.Equal(t, cms.ResolutionStateApproved, a.ResolutionState)
	assert.False(t, a.CompletedAt.IsZero())
	assert.Equal(t, "fine by me", a.Message)
	task, _, err = c.Tasks.Get(ctx, task.ID)
	require.NoError(t, err)
	assert.False(t, task.IsCompleted)

	_, _, err = admin.TaskAssignments.Resolve(ctx, task, theirs.ID, cms.ResolutionStateRejected, "")
	require.NoError(t, err)
	task, _, err = c.Tasks.Get(ctx, task.ID)
	require.NoError(t, err)
	assert.True(t, task.IsCompleted)
	assert.Equal(t, 2, task.TaskAssignmentCollection.TotalCount)

	// A completed task takes no new assignment.
	_, err = c.TaskAssignments.Delete(ctx, mine.ID)
	require.NoError(t, err)
	_, _, err = c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, User: &cms.UserRef{ID: srv.UserID()}})
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 403, apiErr.StatusCode)
	assert.Equal(t, "task_completed", apiErr.Code)
	assert.ErrorIs(t, err, cms.ErrTaskCompleted)

	list, _, err := c.TaskAssignments.ListByTask(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, list.TotalCount)
	require.Len(t, list.Entries, 1)
	assert.Equal(t, theirs.ID, list.Entries[0].ID)

	// Update and list the file's tasks; delete.
	later := due.Add(time.Hour)
	task, _, err = c.Tasks.Update(ctx, task.ID, &cms.UpdateTaskRequest{Message: cms.Ptr(""), DueAt: later})
	require.NoError(t, err)
	assert.Empty(t, task.Message)
	assert.True(t, later.Equal(task.DueAt))
	second, _, err := c.Tasks.Create(ctx, &cms.CreateTaskRequest{File: cms.FileRef{ID: f.ID}, Action: cms.TaskActionComplete, CompletionRule: cms.TaskCompletionRuleAnyAssignee})
	require.NoError(t, err)
	tasks, _, err := c.Tasks.ListByFile(ctx, f.ID)
	require.NoError(t, err)
	require.Equal(t, 2, tasks.TotalCount)
	assert.Equal(t, []string{task.ID, second.ID}, []string{tasks.Entries[0].ID, tasks.Entries[1].ID})
	_, err = c.Tasks.Delete(ctx, task.ID)
	require.NoError(t, err)
	_, _, err = c.Tasks.Get(ctx, task.ID)
	require.ErrorIs(t, err, cms.ErrNotFound)
}

func TestTasksCompleteAnyAssignee(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	f, _, err := c.Files.Upload(ctx, "0", "todo.txt", strings.NewReader("x"), 1, nil)
	require.NoError(t, err)
	task, _, err := c.Tasks.Create(ctx, &cms.CreateTaskRequest{File: cms.FileRef{ID: f.ID}, Action: cms.TaskActionComplete, CompletionRule: cms.TaskCompletionRuleAnyAssignee})
	require.NoError(t, err)
	a, _, err := c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, User: &cms.UserRef{ID: srv.UserID()}})
	require.NoError(t, err)
	_, _, err = c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, User: &cms.UserRef{ID: srv.AdminUserID()}})
	require.NoError(t, err)
	_, _, err = c.TaskAssignments.Resolve(ctx, task, a.ID, cms.ResolutionStateApproved, "")
	require.ErrorIs(t, err, cms.ErrInvalidArgument, "approved is not a state of a complete task")
	_, _, err = c.TaskAssignments.Resolve(ctx, task, a.ID, cms.ResolutionStateCompleted, "")
	require.NoError(t, err)
	task, _, err = c.Tasks.Get(ctx, task.ID)
	require.NoError(t, err)
	assert.True(t, task.IsCompleted, "any assignee is enough")
}

func TestTasksArgumentErrors(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	srv.ResetRequests()
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"nil create", func() error { _, _, err := c.Tasks.Create(ctx, nil); return err }, cms.ErrInvalidArgument},
		{"no file", func() error { _, _, err := c.Tasks.Create(ctx, &cms.CreateTaskRequest{}); return err }, cms.ErrMissingID},
		{"bad action", func() error {
			_, _, err := c.Tasks.Create(ctx, &cms.CreateTaskRequest{File: cms.FileRef{ID: "1"}, Action: "approve"})
			return err
		}, cms.ErrInvalidArgument},
		{"bad rule", func() error {
			_, _, err := c.Tasks.Create(ctx, &cms.CreateTaskRequest{File: cms.FileRef{ID: "1"}, CompletionRule: "most"})
			return err
		}, cms.ErrInvalidArgument},
		{"get", func() error { _, _, err := c.Tasks.Get(ctx, ""); return err }, cms.ErrMissingID},
		{"update nil", func() error { _, _, err := c.Tasks.Update(ctx, "1", nil); return err }, cms.ErrInvalidArgument},
		{"update action", func() error {
			_, _, err := c.Tasks.Update(ctx, "1", &cms.UpdateTaskRequest{Action: "x"})
			return err
		}, cms.ErrInvalidArgument},
		{"delete", func() error { _, err := c.Tasks.Delete(ctx, "a/b"); return err }, cms.ErrInvalidID},
		{"list", func() error { _, _, err := c.Tasks.ListByFile(ctx, ""); return err }, cms.ErrMissingID},
		{"assign nil", func() error { _, _, err := c.TaskAssignments.Create(ctx, nil); return err }, cms.ErrInvalidArgument},
		{"assign nobody", func() error {
			_, _, err := c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: "1"}})
			return err
		}, cms.ErrInvalidArgument},
		{"assign both id and login", func() error {
			_, _, err := c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: "1"}, User: &cms.UserRef{ID: srv.UserID()}, Login: "user@cms.test"})
			return err
		}, cms.ErrInvalidArgument},
		{"assign bad user id", func() error {
			_, _, err := c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: "1"}, User: &cms.UserRef{ID: "a/b"}})
			return err
		}, cms.ErrInvalidID},
		{"assign no task", func() error {
			_, _, err := c.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{User: &cms.UserRef{ID: "1"}})
			return err
		}, cms.ErrMissingID},
		{"unknown state", func() error {
			_, _, err := c.TaskAssignments.Update(ctx, "1", &cms.UpdateTaskAssignmentRequest{ResolutionState: "done"})
			return err
		}, cms.ErrInvalidArgument},
		{"state against action", func() error {
			_, _, err := c.TaskAssignments.Update(ctx, "1", &cms.UpdateTaskAssignmentRequest{ResolutionState: cms.ResolutionStateRejected, TaskAction: cms.TaskActionComplete})
			return err
		}, cms.ErrInvalidArgument},
		{"resolve nil task", func() error {
			_, _, err := c.TaskAssignments.Resolve(ctx, nil, "1", cms.ResolutionStateApproved, "")
			return err
		}, cms.ErrInvalidArgument},
		{"get assignment", func() error { _, _, err := c.TaskAssignments.Get(ctx, ""); return err }, cms.ErrMissingID},
		{"delete assignment", func() error { _, err := c.TaskAssignments.Delete(ctx, ""); return err }, cms.ErrMissingID},
		{"list assignments", func() error { _, _, err := c.TaskAssignments.ListByTask(ctx, ".."); return err }, cms.ErrInvalidID},
	}
	for _, tc := range cases {
		err := tc.call()
		var argErr *cms.ArgError
		assert.True(t, errors.As(err, &argErr), tc.name)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
	assert.Empty(t, srv.Requests(), "nothing is sent for a rejected argument")
}

func TestTaskActionStates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		action cms.TaskAction
		state  cms.ResolutionState
		ok     bool
	}{
		{cms.TaskActionReview, cms.ResolutionStateIncomplete, true},
		{cms.TaskActionReview, cms.ResolutionStateApproved, true},
		{cms.TaskActionReview, cms.ResolutionStateRejected, true},
		{cms.TaskActionReview, cms.ResolutionStateCompleted, false},
		{cms.TaskActionComplete, cms.ResolutionStateIncomplete, true},
		{cms.TaskActionComplete, cms.ResolutionStateCompleted, true},
		{cms.TaskActionComplete, cms.ResolutionStateApproved, false},
		{cms.TaskActionComplete, cms.ResolutionStateRejected, false},
		{"other", cms.ResolutionStateIncomplete, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.ok, c.action.Allows(c.state), "%s/%s", c.action, c.state)
	}
	assert.False(t, cms.ResolutionStateIncomplete.Resolved())
	assert.True(t, cms.ResolutionStateRejected.Resolved())
}

func TestTaskRequestsJSON(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"create", cms.CreateTaskRequest{File: cms.FileRef{ID: "7"}}, `{"item":{"id":"7","type":"file"}}`},
		{"create full", cms.CreateTaskRequest{File: cms.FileRef{ID: "7"}, Action: cms.TaskActionComplete, Message: "m", DueAt: due, CompletionRule: cms.TaskCompletionRuleAnyAssignee},
			`{"item":{"id":"7","type":"file"},"action":"complete","message":"m","due_at":"2026-01-02T03:04:05Z","completion_rule":"any_assignee"}`},
		{"update empty", cms.UpdateTaskRequest{}, `{}`},
		{"update clears message, moves due date", cms.UpdateTaskRequest{DueAt: due, Message: cms.Ptr("")}, `{"message":"","due_at":"2026-01-02T03:04:05Z"}`},
		{"assign by id", cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: "1"}, User: &cms.UserRef{ID: "2"}}, `{"task":{"id":"1","type":"task"},"assign_to":{"id":"2"}}`},
		{"assign by login", cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: "1"}, Login: "a@b.c"}, `{"task":{"id":"1","type":"task"},"assign_to":{"login":"a@b.c"}}`},
		{"resolve", cms.UpdateTaskAssignmentRequest{ResolutionState: cms.ResolutionStateApproved, TaskAction: cms.TaskActionReview}, `{"resolution_state":"approved"}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		require.NoError(t, err)
		assert.JSONEq(t, c.want, string(b), c.name)
	}
}
