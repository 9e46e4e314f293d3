package cms

import (
	"context"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	b := &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "2"}}
	sweepBodies[reflect.TypeOf(b)] = b
}

func TestTransferOwnedFolderWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("PUT /users/{id}/folders/0", http.StatusOK, `{"id":"99","type":"folder","name":"Ann Lee's Files and Folders","etag":"0",
"owned_by":{"id":"12","type":"user","name":"Bob","login":"bob@example.com"},"parent":{"id":"0","type":"folder","name":"All Files"},
"created_at":"2026-01-02T03:04:05Z"}`)
	ctx := context.Background()

	f, _, err := w.e.client.Users.TransferOwnedFolder(ctx, "11", &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "12"}},
		&TransferOwnedFolderOptions{Notify: Ptr(false), Fields: []string{"name", "owned_by"}})
	require.NoError(t, err)
	c := w.last(t)
	assert.Equal(t, "PUT /users/11/folders/0", c.Method+" "+c.Path)
	assert.Equal(t, "fields=name%2Cowned_by&notify=false", c.Query)
	assert.JSONEq(t, `{"owned_by":{"id":"12"}}`, c.Body)
	assert.Equal(t, &Folder{ID: "99", Type: "folder", Name: "Ann Lee's Files and Folders", ETag: "0",
		OwnedBy: &UserMini{ID: "12", Type: "user", Name: "Bob", Login: "bob@example.com"},
		Parent:  &FolderMini{ID: "0", Type: "folder", Name: "All Files"}, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, f)
	_, _, err = w.e.client.Users.TransferOwnedFolder(ctx, "11", &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "12"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "", w.last(t).Query)

	n := w.count()
	_, _, err = w.e.client.Users.TransferOwnedFolder(ctx, "", &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "12"}}, nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = w.e.client.Users.TransferOwnedFolder(ctx, "11", nil, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = w.e.client.Users.TransferOwnedFolder(ctx, "11", &TransferOwnedFolderRequest{}, nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = w.e.client.Users.TransferOwnedFolder(ctx, "11", &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "11"}}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("PUT /users/{id}/folders/0", http.StatusForbidden, `{"type":"error","status":403,"code":"access_denied_insufficient_permissions","message":"Admins only"}`)
	_, resp, err := w2.e.client.Users.TransferOwnedFolder(ctx, "11", &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "12"}}, nil)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "access_denied_insufficient_permissions", ae.Code)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	// A 5xx is not repeated (items may have moved); a 429 is.
	w3 := newWireLog(t)
	var calls atomic.Int32
	w3.serve("PUT /users/{id}/folders/0", func(rw http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			rw.Header().Set("Retry-After", "0")
			writeJSON(rw, http.StatusTooManyRequests, []byte(`{"type":"error","status":429,"code":"rate_limit_exceeded","message":"slow down"}`))
		case 2:
			writeJSON(rw, http.StatusServiceUnavailable, []byte(`{"type":"error","status":503,"code":"unavailable","message":"took too long"}`))
		default:
			writeJSON(rw, http.StatusOK, []byte(`{"id":"99","type":"folder"}`))
		}
	})
	_, resp, err = w3.e.client.Users.TransferOwnedFolder(ctx, "11", &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "12"}}, nil)
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
	assert.Equal(t, int32(2), calls.Load(), "the 429 was retried, the 503 was not")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
}
