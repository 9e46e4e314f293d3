package cms

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cannedLockedFile is a File--Full with the lock object of the spec.
const cannedLockedFile = `{"id":"5","type":"file","etag":"2","sequence_id":"2","name":"b.txt",
"description":"","parent":{"id":"7","type":"folder","name":"Docs"},
"tags":["approved"],
"lock":{"id":"112","type":"lock","created_by":{"id":"11","type":"user","name":"Ann","login":"ann@example.com"},
"created_at":"2026-01-02T03:04:05Z","expired_at":"2026-02-01T00:00:00Z","is_download_prevented":true,"app_type":null},
"shared_link":null}`

func TestFileUpdateWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("PUT /files/{id}", http.StatusOK, cannedLockedFile)
	ctx := context.Background()

	f, _, err := w.e.client.Files.Update(ctx, "5", &UpdateFileRequest{
		Name: "b.txt", Description: Ptr(""), Parent: &FolderRef{ID: "7"}, Tags: []string{"approved"},
	}, &UpdateItemOptions{Fields: []string{"name", "lock"}, IfMatch: "1"})
	require.NoError(t, err)
	got := w.last(t)
	assert.Equal(t, "/files/5", got.Path)
	assert.Equal(t, "fields=name%2Clock", got.Query)
	assert.Equal(t, "1", got.Header.Get("If-Match"))
	assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"name":"b.txt","description":"","parent":{"id":"7"},"tags":["approved"]}`, got.Body,
		"a cleared description is \"\", the rest left out")

	// The record: the lock as the spec shapes it.
	require.NotNil(t, f.Lock)
	assert.Equal(t, Lock{ID: "112", Type: "lock", CreatedBy: &UserMini{ID: "11", Type: "user", Name: "Ann", Login: "ann@example.com"},
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ExpiredAt: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), IsDownloadPrevented: true}, *f.Lock)
	assert.Nil(t, f.SharedLink)
	assert.Equal(t, "7", f.Parent.ID)

	until := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	_, _, err = w.e.client.Files.Lock(ctx, "5", &LockRequest{ExpiresAt: until, IsDownloadPrevented: true}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"lock":{"access":"lock","expires_at":"2026-03-01T12:00:00Z","is_download_prevented":true}}`, w.last(t).Body)
	assert.Empty(t, w.last(t).Header.Get("If-Match"))

	_, _, err = w.e.client.Files.Lock(ctx, "5", nil, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"lock":{"access":"lock","is_download_prevented":false}}`, w.last(t).Body, "a lock without end that allows downloads")

	_, _, err = w.e.client.Files.Unlock(ctx, "5", &UpdateItemOptions{IfMatch: "2"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"lock":null}`, w.last(t).Body, "unlock is an explicit null")
	assert.Equal(t, "2", w.last(t).Header.Get("If-Match"))

	_, _, err = w.e.client.Files.Update(ctx, "5", &UpdateFileRequest{
		SharedLink: Set(SharedLinkRequest{Access: SharedLinkAccessOpen, Password: Set("Secret-123"), VanityName: "quarterly-report",
			UnsharedAt: until, Permissions: &SharedLinkPermissionsRequest{CanDownload: Ptr(true), CanPreview: Ptr(true), CanEdit: Ptr(true)}}),
		DispositionAt: until,
		Permissions:   &FileDownloadPermissions{CanDownload: DownloadAccessCompany},
	}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"shared_link":{"access":"open","password":"Secret-123","vanity_name":"quarterly-report","unshared_at":"2026-03-01T12:00:00Z",
		"permissions":{"can_download":true,"can_preview":true,"can_edit":true}},
		"disposition_at":"2026-03-01T12:00:00Z","permissions":{"can_download":"company"}}`, w.last(t).Body)

	_, _, err = w.e.client.Files.Update(ctx, "5", &UpdateFileRequest{SharedLink: Null[SharedLinkRequest](), Lock: Null[LockRequest]()}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"shared_link":null,"lock":null}`, w.last(t).Body)

	_, _, err = w.e.client.Files.Update(ctx, "5", &UpdateFileRequest{SharedLink: Set(SharedLinkRequest{Password: Null[string]()})}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"shared_link":{"password":null}}`, w.last(t).Body, "a password removed is an explicit null")

	_, _, err = w.e.client.Files.Update(ctx, "5", &UpdateFileRequest{}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, w.last(t).Body, "an empty update sends nothing")
}

func TestFileUpdateChecksBeforeSending(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	ctx := context.Background()
	files := w.e.client.Files
	long := make([]byte, 256)
	for i := range long {
		long[i] = 'a'
	}
	for _, c := range []struct {
		name string
		body *UpdateFileRequest
		id   string
		want error
	}{
		{"missing id", &UpdateFileRequest{Name: "a"}, "", ErrMissingID},
		{"bad id", &UpdateFileRequest{Name: "a"}, "../1", ErrInvalidID},
		{"nil body", nil, "5", ErrInvalidArgument},
		{"slash in name", &UpdateFileRequest{Name: "a/b"}, "5", ErrInvalidArgument},
		{"dot dot", &UpdateFileRequest{Name: ".."}, "5", ErrInvalidArgument},
		{"trailing space", &UpdateFileRequest{Name: "a "}, "5", ErrInvalidArgument},
		{"control character", &UpdateFileRequest{Name: "a\x01"}, "5", ErrInvalidArgument},
		{"long name", &UpdateFileRequest{Name: string(long)}, "5", ErrInvalidArgument},
		{"long description", &UpdateFileRequest{Description: Ptr(string(long) + string(long))}, "5", ErrInvalidArgument},
		{"parent without id", &UpdateFileRequest{Parent: &FolderRef{}}, "5", ErrMissingID},
		{"101 tags", &UpdateFileRequest{Tags: make([]string, 101)}, "5", ErrInvalidArgument},
		{"unknown lock access", &UpdateFileRequest{Lock: Set(LockRequest{Access: "share"})}, "5", ErrInvalidArgument},
		{"unknown download access", &UpdateFileRequest{Permissions: &FileDownloadPermissions{CanDownload: "everyone"}}, "5", ErrInvalidArgument},
		{"empty download access", &UpdateFileRequest{Permissions: &FileDownloadPermissions{}}, "5", ErrInvalidArgument},
		{"short password", &UpdateFileRequest{SharedLink: Set(SharedLinkRequest{Password: Set("short")})}, "5", ErrInvalidArgument},
		{"edit without download", &UpdateFileRequest{SharedLink: Set(SharedLinkRequest{Permissions: &SharedLinkPermissionsRequest{CanEdit: Ptr(true)}})}, "5", ErrInvalidArgument},
		{"download for collaborators", &UpdateFileRequest{SharedLink: Set(SharedLinkRequest{Access: SharedLinkAccessCollaborators,
			Permissions: &SharedLinkPermissionsRequest{CanDownload: Ptr(true)}})}, "5", ErrInvalidArgument},
		{"unknown link access", &UpdateFileRequest{SharedLink: Set(SharedLinkRequest{Access: "public"})}, "5", ErrInvalidArgument},
	} {
		_, _, err := files.Update(ctx, c.id, c.body, nil)
		var ae *ArgError
		assert.ErrorAs(t, err, &ae, c.name)
		assert.ErrorIs(t, err, c.want, c.name)
	}
	_, _, err := files.Update(ctx, "5", &UpdateFileRequest{Name: "a"}, &UpdateItemOptions{IfMatch: "1\r\nX: y"})
	assert.ErrorIs(t, err, ErrInvalidArgument, "a header value with a line break")
	_, _, err = files.Lock(ctx, "", nil, nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = files.Unlock(ctx, "..", nil)
	assert.ErrorIs(t, err, ErrInvalidID)
	assert.Zero(t, w.count(), "nothing was sent")
}

func TestFileCopyWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("POST /files/{id}/copy", http.StatusCreated, `{"id":"9","type":"file","name":"copy.txt","parent":{"id":"8","type":"folder"},"file_version":{"id":"v9","type":"file_version","sha1":"abc"}}`)
	ctx := context.Background()

	f, resp, err := w.e.client.Files.Copy(ctx, "5", &CopyFileRequest{Parent: FolderRef{ID: "8"}, Name: "copy.txt", Version: "v2"}, &FieldsOptions{Fields: []string{"name"}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "9", f.ID)
	assert.Equal(t, "v9", f.FileVersion.ID)
	got := w.last(t)
	assert.Equal(t, http.MethodPost, got.Method)
	assert.Equal(t, "/files/5/copy", got.Path)
	assert.Equal(t, "fields=name", got.Query)
	assert.JSONEq(t, `{"parent":{"id":"8"},"name":"copy.txt","version":"v2"}`, got.Body)

	_, _, err = w.e.client.Files.Copy(ctx, "5", &CopyFileRequest{Parent: FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"parent":{"id":"0"}}`, w.last(t).Body, "name and version left out")

	n := w.count()
	for _, c := range []*CopyFileRequest{nil, {}, {Parent: FolderRef{ID: "8"}, Version: "a/b"}} {
		_, _, err = w.e.client.Files.Copy(ctx, "5", c, nil)
		var ae *ArgError
		assert.ErrorAs(t, err, &ae)
	}
	assert.Equal(t, n, w.count(), "nothing was sent")
}

// TestContentErrorCodes: the service's codes of the new calls match their
// sentinels and their status sentinels, and a 409 keeps its conflicts.
func TestContentErrorCodes(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.serve("PUT /files/{id}", func(rw http.ResponseWriter, r *http.Request) {
		switch r.PathValue("id") {
		case "409":
			writeJSON(rw, http.StatusConflict, []byte(`{"type":"error","status":409,"code":"item_name_in_use","message":"Item with the same name already exists",
				"context_info":{"conflicts":{"id":"77","type":"file","name":"b.txt","etag":"0"}},"request_id":"r1"}`))
		case "403":
			writeError(rw, http.StatusForbidden, "access_denied_item_locked")
		case "412":
			writeError(rw, http.StatusPreconditionFailed, "precondition_failed")
		}
	})
	w.answer("PUT /folders/{id}", http.StatusBadRequest, `{"type":"error","status":400,"code":"cyclical_folder_structure","message":"Folder move creates cyclical folder structure"}`)
	ctx := context.Background()

	_, _, err := w.e.client.Files.Update(ctx, "409", &UpdateFileRequest{Name: "b.txt"}, nil)
	assert.ErrorIs(t, err, ErrItemNameInUse)
	assert.ErrorIs(t, err, ErrConflict)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	require.Len(t, apiErr.Conflicts(), 1)
	assert.Equal(t, "77", apiErr.Conflicts()[0].ID)

	_, _, err = w.e.client.Files.Update(ctx, "403", &UpdateFileRequest{Name: "c.txt"}, nil)
	assert.ErrorIs(t, err, ErrAccessDeniedItemLocked)
	assert.ErrorIs(t, err, ErrForbidden)

	_, _, err = w.e.client.Files.Update(ctx, "412", &UpdateFileRequest{Name: "c.txt"}, &UpdateItemOptions{IfMatch: "old"})
	assert.ErrorIs(t, err, ErrPreconditionFailed)

	_, _, err = w.e.client.Folders.Update(ctx, "3", &UpdateFolderRequest{Parent: &FolderRef{ID: "4"}}, nil)
	assert.ErrorIs(t, err, ErrCyclicalFolderStructure)
	assert.ErrorIs(t, err, ErrBadRequest)
	assert.False(t, errors.Is(err, ErrItemNameInUse))

	for _, c := range []*codeError{ErrItemNameInvalid, ErrItemNameTooLong, ErrCyclicalFolderStructure, ErrCannotMakeCollaboratedSubfolderPrivate,
		ErrOperationBlockedTemporary, ErrAccessDeniedItemLocked, ErrUserAlreadyCollaborator, ErrCollaborationsNotAvailableOnRootFolder,
		ErrInvalidCollaborationItem, ErrInvalidStatus, ErrIncorrectSharedItemPassword, ErrRecentSimilarComment} {
		e := &APIError{StatusCode: 400, Code: c.Code()}
		assert.ErrorIs(t, e, c, c.Code())
		assert.Equal(t, "cms: "+c.Code(), c.Error())
	}
}
