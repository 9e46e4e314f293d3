package cms

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cannedFolder = `{"id":"3","type":"folder","etag":"1","sequence_id":"1","name":"Reports","description":"",
"parent":{"id":"4","type":"folder","name":"Archive"},"path_collection":{"total_count":2,"entries":[{"id":"0","type":"folder","name":"All Files"},{"id":"4","type":"folder","name":"Archive"}]},
"sync_state":"not_synced","can_non_owners_invite":false,"can_non_owners_view_collaborators":true,"is_collaboration_restricted_to_enterprise":true,
"folder_upload_email":null,"shared_link":null,"tags":["q1"]}`

func TestFolderUpdateWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("PUT /folders/{id}", http.StatusOK, cannedFolder)
	ctx := context.Background()

	f, _, err := w.e.client.Folders.Update(ctx, "3", &UpdateFolderRequest{
		Name: "Reports", Parent: &FolderRef{ID: "4"}, Description: Ptr(""), SyncState: FolderSyncStateNotSynced,
		CanNonOwnersInvite: Ptr(false), CanNonOwnersViewCollaborators: Ptr(true), IsCollaborationRestrictedToEnterprise: Ptr(true),
		FolderUploadEmail: Null[FolderUploadEmailAccess](), SharedLink: Null[SharedLinkRequest](), Tags: []string{"q1"},
	}, &UpdateItemOptions{IfMatch: "0", Fields: []string{"name", "parent"}})
	require.NoError(t, err)
	got := w.last(t)
	assert.Equal(t, http.MethodPut, got.Method)
	assert.Equal(t, "/folders/3", got.Path)
	assert.Equal(t, "fields=name%2Cparent", got.Query)
	assert.Equal(t, "0", got.Header.Get("If-Match"))
	assert.JSONEq(t, `{"name":"Reports","description":"","parent":{"id":"4"},"sync_state":"not_synced","can_non_owners_invite":false,
		"can_non_owners_view_collaborators":true,"is_collaboration_restricted_to_enterprise":true,"shared_link":null,"folder_upload_email":null,"tags":["q1"]}`, got.Body)
	assert.Equal(t, "4", f.Parent.ID)
	assert.Equal(t, 2, f.PathCollection.TotalCount)
	assert.True(t, f.CanNonOwnersViewCollaborators)
	assert.True(t, f.IsCollaborationRestrictedToEnterprise)
	assert.Nil(t, f.FolderUploadEmail)

	_, _, err = w.e.client.Folders.Update(ctx, "3", &UpdateFolderRequest{FolderUploadEmail: Set(FolderUploadEmailAccess{Access: "collaborators"})}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"folder_upload_email":{"access":"collaborators"}}`, w.last(t).Body)
	assert.Empty(t, w.last(t).Query)

	n := w.count()
	for _, c := range []struct {
		name string
		id   string
		body *UpdateFolderRequest
	}{
		{"into itself", "3", &UpdateFolderRequest{Parent: &FolderRef{ID: "3"}}},
		{"root renamed", "0", &UpdateFolderRequest{Name: "Top"}},
		{"root moved", "0", &UpdateFolderRequest{Parent: &FolderRef{ID: "3"}}},
		{"editable folder link", "3", &UpdateFolderRequest{SharedLink: Set(SharedLinkRequest{Permissions: &SharedLinkPermissionsRequest{CanDownload: Ptr(true), CanEdit: Ptr(true)}})}},
		{"sync state", "3", &UpdateFolderRequest{SyncState: "sometimes"}},
		{"upload e-mail access", "3", &UpdateFolderRequest{FolderUploadEmail: Set(FolderUploadEmailAccess{Access: "company"})}},
		{"name", "3", &UpdateFolderRequest{Name: "."}},
		{"nil", "3", nil},
	} {
		_, _, err := w.e.client.Folders.Update(ctx, c.id, c.body, nil)
		var ae *ArgError
		assert.ErrorAs(t, err, &ae, c.name)
		assert.ErrorIs(t, err, ErrInvalidArgument, c.name)
	}
	assert.Equal(t, n, w.count(), "nothing was sent")

	// The root folder takes the other changes.
	_, _, err = w.e.client.Folders.Update(ctx, "0", &UpdateFolderRequest{Description: Ptr("home")}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"description":"home"}`, w.last(t).Body)
}

func TestFolderCopyWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("POST /folders/{id}/copy", http.StatusCreated, cannedFolder)
	ctx := context.Background()

	f, resp, err := w.e.client.Folders.Copy(ctx, "3", &CopyFolderRequest{Parent: FolderRef{ID: "4"}, Name: "Reports 2"}, nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "3", f.ID)
	got := w.last(t)
	assert.Equal(t, "/folders/3/copy", got.Path)
	assert.JSONEq(t, `{"parent":{"id":"4"},"name":"Reports 2"}`, got.Body)

	_, _, err = w.e.client.Folders.Copy(ctx, "0", &CopyFolderRequest{Parent: FolderRef{ID: "4"}}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument, "the root cannot be copied")
	_, _, err = w.e.client.Folders.Copy(ctx, "3", &CopyFolderRequest{Parent: FolderRef{ID: "4"}, Name: "a/b"}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = w.e.client.Folders.Copy(ctx, "3", &CopyFolderRequest{}, nil)
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, 1, w.count(), "nothing more was sent")
}
