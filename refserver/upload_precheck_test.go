package refserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The upload pre-checks and new-version uploads as Box's own upload client
// (Box UI Elements' uploader) uses them.

func TestUploadPreCheckConflictIsOneObject(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	existing := e.uploadFile(tok, "0", "report.txt", []byte("x"))
	body := map[string]any{"name": "report.txt", "parent": map[string]any{"id": "0"}, "size": 3, "description": "from the uploader"}
	resp, m := e.doJSON("OPTIONS", e.api("/files/content"), tok, body, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	conflict, ok := m["context_info"].(map[string]any)["conflicts"].(map[string]any)
	require.True(t, ok, "conflicts is one object: %v", m["context_info"])
	assert.Equal(t, existing["id"], conflict["id"])
	assert.Equal(t, "file", conflict["type"])

	// The chunked upload's session gives it the same way.
	resp, m = e.doJSON("POST", e.upload("/files/upload_sessions"), tok, map[string]any{"folder_id": "0", "file_size": 200, "file_name": "REPORT.txt"}, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	assert.Equal(t, existing["id"], m["context_info"].(map[string]any)["conflicts"].(map[string]any)["id"])

	// A folder's name conflict stays a list (Box UI Elements read
	// conflicts[0] there).
	e.createFolder(tok, "0", "Dir")
	resp, m = e.doJSON("POST", e.api("/folders"), tok, map[string]any{"name": "dir", "parent": map[string]any{"id": "0"}}, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	assert.Len(t, m["context_info"].(map[string]any)["conflicts"].([]any), 1)
}

func TestNewVersionPreCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "a.txt", []byte("x"))
	id := f["id"].(string)
	e.uploadFile(tok, "0", "b.txt", []byte("y"))
	before := snapshot(e.s)

	body := map[string]any{"name": "a.txt", "parent": map[string]any{"id": "0"}, "size": 5}
	resp, m := e.doJSON("OPTIONS", e.api("/files/"+id+"/content"), tok, body, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	assert.Equal(t, e.upload("/files/"+id+"/content"), m["upload_url"])
	assert.NotEmpty(t, m["upload_token"])

	// No body at all is a pre-check of the file alone.
	resp, _ = e.doJSON("OPTIONS", e.api("/files/"+id+"/content"), tok, nil, nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	cases := []struct {
		name, id string
		body     any
		h        hdr
		status   int
		code     string
	}{
		{"rename to a name taken", id, map[string]any{"name": "B.txt"}, nil, 409, "item_name_in_use"},
		{"no such file", "123456789", body, nil, 404, "not_found"},
		{"if-match mismatch", id, body, hdr{"If-Match": "99"}, 412, "precondition_failed"},
		{"unknown field", id, map[string]any{"name": "a.txt", "colour": "red"}, nil, 400, "bad_request"},
		{"negative size", id, map[string]any{"size": -1}, nil, 400, "bad_request"},
		{"invalid name", id, map[string]any{"name": "a/b"}, nil, 400, "item_name_invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("OPTIONS", e.api("/files/"+c.id+"/content"), tok, c.body, c.h)
			requireAPIError(t, resp, m, c.status, c.code)
			if c.status == 409 {
				assert.IsType(t, map[string]any{}, m["context_info"].(map[string]any)["conflicts"])
			}
		})
	}
	assert.Equal(t, before, snapshot(e.s), "a pre-check changed the state")
}

func TestNewVersionAcceptsUploaderAttributes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	dir := e.createFolder(tok, "0", "D")["id"].(string)
	id := e.uploadFile(tok, dir, "a.txt", []byte("x"))["id"].(string)

	// What Box UI Elements' uploader sends for an overwrite.
	attrs := `{"name":"a.txt","parent":{"id":"` + dir + `"},"description":"d","content_modified_at":"2025-01-02T03:04:05Z"}`
	resp, m := e.uploadRaw(tok, e.upload("/files/"+id+"/content"), attrs, []byte("new content"), nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	rec := m["entries"].([]any)[0].(map[string]any)
	assert.EqualValues(t, len("new content"), rec["size"])
	assert.Equal(t, dir, rec["parent"].(map[string]any)["id"], "a new version does not move the file")

	resp, m = e.uploadRaw(tok, e.upload("/files/"+id+"/content"), `{"parent":{"id":"x/y"}}`, []byte("z"), nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.uploadRaw(tok, e.upload("/files/"+id+"/content"), `{"colour":"red"}`, []byte("z"), nil)
	requireAPIError(t, resp, m, 400, "bad_request")
}
