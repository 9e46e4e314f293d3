package cms_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiStatusCode is the status and code of an *APIError (0, "" for none).
func apiStatusCode(t *testing.T, err error) (int, string) {
	t.Helper()
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr.StatusCode, apiErr.Code
}

// rawJSON sends a JSON body as it is, through the SDK's escape hatch.
func rawJSON(ctx context.Context, c *cms.Client, method, path, body string) (*cms.Response, error) {
	req, err := c.NewRequest(method, strings.TrimPrefix(path, "/"), json.RawMessage(body))
	if err != nil {
		return nil, err
	}
	return c.Do(ctx, req, nil)
}

// A locked folder refuses move and delete — itself, or a folder above
// it — for everyone, the owner included, until its lock goes; a rename
// still works. Only the owner (or a co-owner, the admin) manages locks.
func TestFolderLocksFreezeMoveAndDelete(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()
	top, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Top", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	dir, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Frozen", Parent: cms.FolderRef{ID: top.ID}}, nil)
	require.NoError(t, err)
	other, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Other", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)

	lock, resp, err := c.FolderLocks.Create(ctx, dir.ID)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "folder_lock", lock.Type)
	assert.Equal(t, "freeze", lock.LockType)
	assert.Equal(t, dir.ID, lock.Folder.ID)
	assert.Equal(t, srv.UserID(), lock.CreatedBy.ID)
	assert.Equal(t, &cms.FolderLockedOperations{Move: true, Delete: true}, lock.LockedOperations)
	assert.False(t, lock.CreatedAt.IsZero())

	locks, _, err := c.FolderLocks.ListByFolder(ctx, dir.ID)
	require.NoError(t, err)
	require.Len(t, locks.Entries, 1)
	assert.Equal(t, lock.ID, locks.Entries[0].ID)
	none, _, err := c.FolderLocks.ListByFolder(ctx, other.ID)
	require.NoError(t, err)
	assert.Empty(t, none.Entries)

	for name, cl := range map[string]*cms.Client{"owner": c, "admin": admin} {
		_, _, err = cl.Folders.Update(ctx, dir.ID, &cms.UpdateFolderRequest{Parent: &cms.FolderRef{ID: other.ID}}, nil)
		st, code := apiStatusCode(t, err)
		assert.Equal(t, 403, st, name)
		assert.Equal(t, "access_denied_insufficient_permissions", code, name)
		_, err = cl.Folders.Delete(ctx, dir.ID, &cms.DeleteFolderOptions{Recursive: true})
		st, code = apiStatusCode(t, err)
		assert.Equal(t, 403, st, name)
		assert.Equal(t, "access_denied_insufficient_permissions", code, name)
		_, err = cl.Folders.Delete(ctx, top.ID, &cms.DeleteFolderOptions{Recursive: true})
		st, _ = apiStatusCode(t, err)
		assert.Equal(t, 403, st, name+": a folder holding a locked folder")
	}
	renamed, _, err := c.Folders.Update(ctx, dir.ID, &cms.UpdateFolderRequest{Name: "Still frozen"}, nil)
	require.NoError(t, err, "a rename is not locked")
	assert.Equal(t, "Still frozen", renamed.Name)
	_, _, err = c.Folders.Update(ctx, top.ID, &cms.UpdateFolderRequest{Parent: &cms.FolderRef{ID: other.ID}}, nil)
	require.NoError(t, err, "the folder above may move: the locked folder stays where it is in it")

	_, err = c.FolderLocks.Delete(ctx, lock.ID)
	require.NoError(t, err)
	_, err = c.FolderLocks.Delete(ctx, lock.ID)
	st, code := apiStatusCode(t, err)
	assert.Equal(t, 404, st)
	assert.Equal(t, "not_found", code)
	_, _, err = c.Folders.Update(ctx, dir.ID, &cms.UpdateFolderRequest{Parent: &cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err, "unlocked, it moves")
	_, err = c.Folders.Delete(ctx, dir.ID, nil)
	require.NoError(t, err, "and goes to the trash")
}

// Who manages locks: the owner and the admin; a viewer collaborator is
// 403; a stranger 404; bad bodies 400.
func TestFolderLocksAccessAndErrors(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()
	dir, _, err := admin.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Admin's", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)

	_, _, err = c.FolderLocks.Create(ctx, dir.ID)
	st, code := apiStatusCode(t, err)
	assert.Equal(t, 404, st, "a stranger does not see the folder")
	assert.Equal(t, "not_found", code)
	_, _, err = c.FolderLocks.ListByFolder(ctx, dir.ID)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 404, st)

	_, _, err = admin.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: dir.ID},
		User: &cms.UserRef{ID: srv.UserID()}, Role: cms.CollaborationRoleViewer}, nil)
	require.NoError(t, err)
	_, _, err = c.FolderLocks.Create(ctx, dir.ID)
	st, code = apiStatusCode(t, err)
	assert.Equal(t, 403, st, "a viewer may not lock")
	assert.Equal(t, "access_denied_insufficient_permissions", code)

	lock, _, err := admin.FolderLocks.Create(ctx, dir.ID)
	require.NoError(t, err)
	_, err = c.FolderLocks.Delete(ctx, lock.ID)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 403, st, "nor unlock")

	raw := srv.AdminClient(t)
	_, err = rawJSON(ctx, raw, "POST", "/folder_locks", `{"folder":{"type":"folder","id":"0"}}`)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 404, st, "the root folder takes no lock")
	for _, body := range []string{`{}`, `{"folder":{"type":"file","id":"` + dir.ID + `"}}`} {
		_, err = rawJSON(ctx, raw, "POST", "/folder_locks", body)
		st, code = apiStatusCode(t, err)
		assert.Equal(t, 400, st, body)
		assert.Equal(t, "bad_request", code, body)
	}
	_, err = rawJSON(ctx, raw, "POST", "/folder_locks", `{"folder":{"type":"folder","id":"`+dir.ID+`"},"locked_operations":{"move":true,"delete":false}}`)
	st, code = apiStatusCode(t, err)
	assert.Equal(t, 400, st)
	assert.Equal(t, "schema_validation_failed", code)
}
