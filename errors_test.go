package cms

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func errorResponse(status int, body string, h http.Header) *http.Response {
	u, _ := url.Parse("https://api.example.test/2.0/files/1?access_token=SECRET")
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body)), Request: &http.Request{Method: "GET", URL: u}}
}

func TestCheckResponse(t *testing.T) {
	t.Parallel()
	require.NoError(t, CheckResponse(errorResponse(200, "", nil)))
	require.NoError(t, CheckResponse(errorResponse(204, "", nil)))

	body := `{"type":"error","status":409,"code":"item_name_in_use","message":"Item with the same name already exists","context_info":{"conflicts":{"type":"file","id":"12","name":"a.txt","sha1":"x"}},"help_url":"https://h","request_id":"r1"}`
	err := CheckResponse(errorResponse(409, body, http.Header{"Retry-After": {"7"}}))
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 409, ae.StatusCode)
	assert.Equal(t, "item_name_in_use", ae.Code)
	assert.Equal(t, "r1", ae.RequestID)
	assert.Equal(t, "https://h", ae.HelpURL)
	assert.Equal(t, "7s", ae.RetryAfter.String())
	assert.ErrorIs(t, err, ErrConflict)
	assert.NotErrorIs(t, err, ErrNotFound)
	require.Len(t, ae.Conflicts(), 1, "a single conflict object is accepted")
	assert.Equal(t, "12", ae.Conflicts()[0].ID)
	assert.NotContains(t, err.Error(), "SECRET")
	assert.Contains(t, err.Error(), "item_name_in_use")

	arr := `{"code":"item_name_in_use","context_info":{"conflicts":[{"type":"file","id":"1"},{"type":"file","id":"2"}]}}`
	require.ErrorAs(t, CheckResponse(errorResponse(409, arr, nil)), &ae)
	assert.Len(t, ae.Conflicts(), 2, "an array of conflicts is accepted")

	for status, sentinel := range map[int]error{400: ErrBadRequest, 401: ErrUnauthorized, 403: ErrForbidden, 404: ErrNotFound, 405: ErrMethodNotAllowed, 412: ErrPreconditionFailed, 416: ErrRangeNotSatisfied, 429: ErrRateLimited, 503: ErrServer, 304: ErrNotModified} {
		assert.ErrorIs(t, CheckResponse(errorResponse(status, "", nil)), sentinel, status)
	}

	oauth := CheckResponse(errorResponse(400, `{"error":"invalid_grant","error_description":"expired"}`, nil))
	require.ErrorAs(t, oauth, &ae)
	assert.Equal(t, "invalid_grant", ae.Code)

	// The body is read with a cap.
	huge := strings.Repeat("x", 3<<20)
	require.ErrorAs(t, CheckResponse(errorResponse(500, huge, http.Header{"Box-Request-Id": {"rid"}})), &ae)
	assert.Len(t, ae.Body, maxErrorBody)
	assert.Equal(t, "rid", ae.RequestID)
	assert.Equal(t, "Internal Server Error", ae.Message)
}

func TestCheckID(t *testing.T) {
	t.Parallel()
	assert.NoError(t, checkID("file", "12345"))
	assert.NoError(t, checkID("session", "F971964745A5CD0C001BBE4E58196BFD"))
	assert.ErrorIs(t, checkID("file", ""), ErrMissingID)
	for _, bad := range []string{"..", ".", "1/2", "1?x=2", "a b", "1\n", "%2e%2e", `a\b`} {
		err := checkID("file", bad)
		assert.ErrorIs(t, err, ErrInvalidID, bad)
		var ae *ArgError
		assert.True(t, errors.As(err, &ae))
	}
}

// TestCodeSentinels: every service error code has a sentinel that an
// *APIError with that code matches with errors.Is, beside its status
// sentinel; another code does not match it.
func TestCodeSentinels(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sentinel error
		status   int
		statusIs error
	}{
		{ErrUserLoginAlreadyUsed, 409, ErrConflict},
		{ErrUserHasContent, 409, ErrConflict},
		{ErrInvalidParameter, 400, ErrBadRequest},
		{ErrAccessDeniedInsufficientPermissions, 403, ErrForbidden},
		{ErrInsufficientScope, 403, ErrForbidden},
		{ErrDeniedByPolicy, 403, ErrForbidden},
		{ErrForbiddenByPolicy, 403, ErrForbidden},
		{ErrItemNameInUse, 409, ErrConflict},
		{ErrParentFolderUnavailable, 409, ErrConflict},
		{ErrTaskAssigneeNotAllowed, 400, ErrBadRequest},
		{ErrTaskCompleted, 403, ErrForbidden},
		{ErrTupleAlreadyExists, 409, ErrConflict},
		{ErrInstanceNotFound, 404, ErrNotFound},
		{ErrInstanceTupleNotFound, 404, ErrNotFound},
		{ErrSchemaValidationFailed, 400, ErrBadRequest},
		{ErrFailedJSONPatch, 409, ErrConflict},
		{ErrInvalidQuery, 400, ErrBadRequest},
		{ErrUnexpectedJSONType, 400, ErrBadRequest},
	} {
		code := c.sentinel.(interface{ Code() string }).Code()
		err := CheckResponse(errorResponse(c.status, `{"type":"error","status":`+itoa(c.status)+`,"code":"`+code+`","message":"m"}`, nil))
		assert.ErrorIs(t, err, c.sentinel, code)
		assert.ErrorIs(t, err, c.statusIs, code)
		assert.Equal(t, "cms: "+code, c.sentinel.Error())
		other := CheckResponse(errorResponse(c.status, `{"code":"something_else"}`, nil))
		assert.NotErrorIs(t, other, c.sentinel, code)
		var ae *APIError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, code, ae.Code)
	}
}
