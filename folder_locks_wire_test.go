package cms

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cannedFolderLock = `{"id":"L1","type":"folder_lock","folder":{"id":"12","type":"folder","name":"Contracts","etag":"1"},
"created_by":{"id":"11","type":"user","name":"Ann","login":"ann@example.com"},"created_at":"2026-01-02T03:04:05Z",
"locked_operations":{"move":true,"delete":true},"lock_type":"freeze"}`

func TestFolderLocksWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("POST /folder_locks", http.StatusOK, cannedFolderLock)
	w.answer("GET /folder_locks", http.StatusOK, `{"entries":[`+cannedFolderLock+`],"limit":"1000","next_marker":null}`)
	w.answer("DELETE /folder_locks/{id}", http.StatusNoContent, "")
	ctx := context.Background()
	fl := w.e.client.FolderLocks

	want := &FolderLock{ID: "L1", Type: "folder_lock", Folder: &FolderMini{ID: "12", Type: "folder", Name: "Contracts", ETag: "1"},
		CreatedBy: &UserMini{ID: "11", Type: "user", Name: "Ann", Login: "ann@example.com"},
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), LockedOperations: &FolderLockedOperations{Move: true, Delete: true}, LockType: "freeze"}
	lock, _, err := fl.Create(ctx, "12")
	require.NoError(t, err)
	c := w.last(t)
	assert.Equal(t, "/folder_locks", c.Path)
	assert.JSONEq(t, `{"locked_operations":{"move":true,"delete":true},"folder":{"type":"folder","id":"12"}}`, c.Body)
	assert.Equal(t, want, lock)

	locks, _, err := fl.ListByFolder(ctx, "12")
	require.NoError(t, err)
	c = w.last(t)
	assert.Equal(t, http.MethodGet, c.Method)
	assert.Equal(t, "folder_id=12", c.Query)
	assert.Equal(t, &Collection[*FolderLock]{TotalCount: 1, Entries: []*FolderLock{want}}, locks)

	_, err = fl.Delete(ctx, "L1")
	require.NoError(t, err)
	assert.Equal(t, "/folder_locks/L1", w.last(t).Path)

	n := w.count()
	_, _, err = fl.Create(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = fl.Create(ctx, "0")
	assert.ErrorIs(t, err, ErrInvalidID, "the root folder cannot be locked")
	_, _, err = fl.ListByFolder(ctx, "a/b")
	assert.ErrorIs(t, err, ErrInvalidID)
	_, err = fl.Delete(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("POST /folder_locks", http.StatusForbidden, `{"type":"error","status":403,"code":"access_denied_insufficient_permissions","message":"Only the owner or co-owner may lock"}`)
	_, resp, err := w2.e.client.FolderLocks.Create(ctx, "12")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, "access_denied_insufficient_permissions", ae.Code)
}
