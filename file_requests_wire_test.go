package cms

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	for _, b := range []any{
		&UpdateFileRequestRequest{Title: "t"},
		&CopyFileRequestRequest{Folder: FolderRef{ID: "1"}},
	} {
		sweepBodies[reflect.TypeOf(b)] = b
	}
}

const cannedFileRequest = `{"id":"r1","type":"file_request","title":"Receipts","description":null,"status":"active",
"is_email_required":true,"is_description_required":false,"expires_at":"2026-03-01T00:00:00Z",
"folder":{"id":"7","type":"folder","name":"Inbox","etag":"1"},"url":"/f/19e57f40ace247278a8e3d336678c64a","etag":"3",
"created_by":{"id":"11","type":"user","name":"Ann","login":"ann@example.com"},"created_at":"2026-01-02T03:04:05Z",
"updated_by":{"id":"12","type":"user","name":"Bob","login":"bob@example.com"},"updated_at":"2026-01-02T03:04:06Z"}`

func TestFileRequestsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("GET /file_requests/{id}", http.StatusOK, cannedFileRequest)
	w.answer("PUT /file_requests/{id}", http.StatusOK, cannedFileRequest)
	w.answer("DELETE /file_requests/{id}", http.StatusNoContent, "")
	w.answer("POST /file_requests/{id}/copy", http.StatusOK, cannedFileRequest)
	ctx := context.Background()
	fs := w.e.client.FileRequests

	fr, _, err := fs.Get(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, "/file_requests/r1", w.last(t).Path)
	assert.Equal(t, &FileRequest{ID: "r1", Type: "file_request", Title: "Receipts", Status: FileRequestStatusActive,
		IsEmailRequired: true, ExpiresAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		Folder: &FolderMini{ID: "7", Type: "folder", Name: "Inbox", ETag: "1"}, URL: "/f/19e57f40ace247278a8e3d336678c64a", ETag: "3",
		CreatedBy: &UserMini{ID: "11", Type: "user", Name: "Ann", Login: "ann@example.com"}, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		UpdatedBy: &UserMini{ID: "12", Type: "user", Name: "Bob", Login: "bob@example.com"}, UpdatedAt: time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC)}, fr)

	_, _, err = fs.Update(ctx, "r1", &UpdateFileRequestRequest{Title: "Receipts 2026", Description: Ptr(""), Status: FileRequestStatusInactive,
		IsEmailRequired: Ptr(false), ExpiresAt: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}, &UpdateFileRequestOptions{IfMatch: "3"})
	require.NoError(t, err)
	c := w.last(t)
	assert.Equal(t, http.MethodPut, c.Method)
	assert.Equal(t, "3", c.Header.Get("If-Match"))
	assert.JSONEq(t, `{"title":"Receipts 2026","description":"","status":"inactive","is_email_required":false,"expires_at":"2026-06-01T00:00:00Z"}`, c.Body)
	_, _, err = fs.Update(ctx, "r1", &UpdateFileRequestRequest{}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, w.last(t).Body)
	assert.Empty(t, w.last(t).Header.Get("If-Match"))

	_, _, err = fs.Copy(ctx, "r1", &CopyFileRequestRequest{Folder: FolderRef{ID: "8"}, UpdateFileRequestRequest: UpdateFileRequestRequest{Title: "Copy", IsDescriptionRequired: Ptr(true)}})
	require.NoError(t, err)
	c = w.last(t)
	assert.Equal(t, "POST /file_requests/r1/copy", c.Method+" "+c.Path)
	assert.JSONEq(t, `{"folder":{"type":"folder","id":"8"},"title":"Copy","is_description_required":true}`, c.Body)

	_, err = fs.Delete(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, http.MethodDelete, w.last(t).Method)

	n := w.count()
	_, _, err = fs.Get(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = fs.Update(ctx, "r1", nil, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = fs.Update(ctx, "r1", &UpdateFileRequestRequest{Status: "closed"}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = fs.Update(ctx, "r1", &UpdateFileRequestRequest{}, &UpdateFileRequestOptions{IfMatch: "1\r\nX: y"})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = fs.Copy(ctx, "r1", &CopyFileRequestRequest{})
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = fs.Copy(ctx, "r1", nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = fs.Delete(ctx, "..")
	assert.ErrorIs(t, err, ErrInvalidID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("PUT /file_requests/{id}", http.StatusPreconditionFailed, `{"type":"error","status":412,"code":"precondition_failed","message":"The resource has been modified"}`)
	_, _, err = w2.e.client.FileRequests.Update(ctx, "r1", &UpdateFileRequestRequest{Title: "x"}, &UpdateFileRequestOptions{IfMatch: "2"})
	assert.ErrorIs(t, err, ErrPreconditionFailed)
}
