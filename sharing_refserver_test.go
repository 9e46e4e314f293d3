package cms_test

import (
	"context"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/require"
)

// TestSharingAgainstRefServer: collaborations (and the task assignment
// they make possible), shared links read through SharedItems, and
// comments, through the SDK against the reference server.
func TestSharingAgainstRefServer(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	admin, user := srv.AdminClient(t), srv.Client(t)
	ctx := context.Background()
	dir, _, err := admin.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "team", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	f, _, err := admin.Files.Upload(ctx, dir.ID, "plan.txt", strings.NewReader("plan"), 4, nil)
	require.NoError(t, err)

	// Before: the user cannot be assigned a task on the file.
	task, _, err := admin.Tasks.Create(ctx, &cms.CreateTaskRequest{File: cms.FileRef{ID: f.ID}, Action: cms.TaskActionReview, Message: "check"})
	require.NoError(t, err)
	_, _, err = admin.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, User: &cms.UserRef{ID: srv.UserID()}})
	require.ErrorIs(t, err, cms.ErrTaskAssigneeNotAllowed)

	c, _, err := admin.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: dir.ID},
		User: &cms.UserRef{ID: srv.UserID()}, Role: cms.CollaborationRoleEditor}, nil)
	require.NoError(t, err)
	require.Equal(t, cms.CollaborationRoleEditor, c.Role)
	_, _, err = admin.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: dir.ID},
		User: &cms.UserRef{ID: srv.UserID()}, Role: cms.CollaborationRoleViewer}, nil)
	require.ErrorIs(t, err, cms.ErrUserAlreadyCollaborator)
	_, _, err = admin.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, User: &cms.UserRef{ID: srv.UserID()}})
	require.NoError(t, err, "a collaborator can be assigned the task")
	got, _, err := user.Files.Get(ctx, f.ID, nil)
	require.NoError(t, err)
	require.Equal(t, "plan.txt", got.Name)
	var listed []string
	for c, err := range admin.Collaborations.ListByFolderIter(ctx, dir.ID, nil) {
		require.NoError(t, err)
		listed = append(listed, c.ID)
	}
	require.Equal(t, []string{c.ID}, listed)

	// A shared link with a password, read by another user.
	link, _, err := user.Files.SetSharedLink(ctx, f.ID, &cms.SharedLinkRequest{Access: cms.SharedLinkAccessOpen, Password: cms.Set("Secret-123")})
	require.NoError(t, err)
	other, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Other", Login: "other@cms.test"}, nil)
	require.NoError(t, err)
	stranger, err := admin.AsUser(other.ID)
	require.NoError(t, err)
	_, _, err = stranger.SharedItems.Get(ctx, link.URL, nil)
	require.ErrorIs(t, err, cms.ErrIncorrectSharedItemPassword)
	item, _, err := stranger.SharedItems.Get(ctx, link.URL, &cms.GetSharedItemOptions{Password: "Secret-123"})
	require.NoError(t, err)
	require.Equal(t, f.ID, item.ID)
	_, err = user.Files.RemoveSharedLink(ctx, f.ID)
	require.NoError(t, err)
	_, _, err = stranger.SharedItems.Get(ctx, link.URL, &cms.GetSharedItemOptions{Password: "Secret-123"})
	require.Error(t, err)

	// Comments and a reply; only the author edits.
	cm, _, err := user.Comments.Create(ctx, &cms.CreateCommentRequest{Item: cms.ItemRef{Type: cms.ItemTypeFile, ID: f.ID}, Message: "done"}, nil)
	require.NoError(t, err)
	_, _, err = user.Comments.Create(ctx, &cms.CreateCommentRequest{Item: cms.ItemRef{Type: cms.ItemTypeFile, ID: f.ID}, Message: "done"}, nil)
	require.ErrorIs(t, err, cms.ErrRecentSimilarComment)
	reply, _, err := admin.Comments.Reply(ctx, cm.ID, "thanks", nil)
	require.NoError(t, err)
	require.True(t, reply.IsReplyComment)
	_, _, err = user.Comments.Update(ctx, reply.ID, &cms.UpdateCommentRequest{Message: "mine"}, nil)
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 403, apiErr.StatusCode)
	n := 0
	for _, err := range user.Comments.ListByFileIter(ctx, f.ID, &cms.ListCommentsOptions{Limit: 1}) {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, 2, n, "two comments over two pages")

	// Removing the collaboration removes the access.
	_, err = admin.Collaborations.Delete(ctx, c.ID)
	require.NoError(t, err)
	_, _, err = user.Files.Get(ctx, f.ID, nil)
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 404, apiErr.StatusCode)
}
