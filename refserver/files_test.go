package refserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUploadFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	data := []byte("hello, world")
	attrs := `{"name":"greeting.txt","parent":{"id":"0"},"content_created_at":"2020-01-02T03:04:05Z","content_modified_at":"2021-01-02T03:04:05-02:00"}`
	resp, m := e.uploadRaw(tok, e.upload("/files/content"), attrs, data, hdr{"Content-MD5": sha1Hex(data)})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	f := m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "file", f["type"])
	assert.Equal(t, "greeting.txt", f["name"])
	assert.Equal(t, sha1Hex(data), f["sha1"])
	assert.EqualValues(t, len(data), f["size"])
	fv := f["file_version"].(map[string]any)
	assert.Equal(t, "file_version", fv["type"])
	assert.Equal(t, sha1Hex(data), fv["sha1"])
	assert.Equal(t, "2020-01-02T03:04:05Z", f["content_created_at"])
	assert.Equal(t, "2021-01-02T05:04:05Z", f["content_modified_at"])
	assert.Equal(t, "2025-03-01T12:00:00Z", f["created_at"])
	assert.Equal(t, e.s.UserID(), f["owned_by"].(map[string]any)["id"])
	assert.Equal(t, e.s.UserID(), f["created_by"].(map[string]any)["id"])
	assert.Equal(t, "active", f["item_status"])
	assert.NotContains(t, f, "expiring_embed_link")

	// Upload with fields.
	resp, m = e.uploadRaw(tok, e.upload("/files/content?fields=size"), `{"name":"b","parent":{"id":"0"}}`, data, nil)
	require.Equal(t, 201, resp.StatusCode)
	f2 := m["entries"].([]any)[0].(map[string]any)
	assert.Contains(t, f2, "size")
	assert.NotContains(t, f2, "created_at")
}

func TestUploadFileRejections(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	existing := e.uploadFile(tok, "0", "taken.txt", []byte("x"))
	data := []byte("payload")
	good := `{"name":"new.txt","parent":{"id":"0"}}`
	cases := []struct {
		name   string
		attrs  string
		order  []string
		h      hdr
		status int
		code   string
	}{
		{"file before attributes", good, []string{"file", "attributes"}, nil, 400, "metadata_after_file_contents"},
		{"file only", good, []string{"file"}, nil, 400, "metadata_after_file_contents"},
		{"attributes only", good, []string{"attributes"}, nil, 400, "bad_request"},
		{"content-md5 mismatch", good, nil, hdr{"Content-MD5": sha1Hex([]byte("other"))}, 400, "bad_digest"},
		{"unknown attribute", `{"name":"n","parent":{"id":"0"},"size":3}`, nil, nil, 400, "bad_request"},
		{"missing name", `{"parent":{"id":"0"}}`, nil, nil, 400, "bad_request"},
		{"missing parent", `{"name":"n"}`, nil, nil, 400, "bad_request"},
		{"bad date", `{"name":"n","parent":{"id":"0"},"content_modified_at":"yesterday"}`, nil, nil, 400, "bad_request"},
		{"invalid name", `{"name":"a/b","parent":{"id":"0"}}`, nil, nil, 400, "item_name_invalid"},
		{"long name", fmt.Sprintf(`{"name":%q,"parent":{"id":"0"}}`, strings.Repeat("n", 300)), nil, nil, 400, "item_name_too_long"},
		{"missing parent folder", `{"name":"n","parent":{"id":"424242"}}`, nil, nil, 404, "not_found"},
		{"name in use", `{"name":"TAKEN.txt","parent":{"id":"0"}}`, nil, nil, 409, "item_name_in_use"},
	}
	before := snapshot(e.s)
	blobs := blobCount(t, e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.uploadRaw(tok, e.upload("/files/content"), c.attrs, data, c.h, c.order...)
			requireAPIError(t, resp, m, c.status, c.code)
			if c.status == 409 {
				// One object for an upload, as the service gives it.
				conflict := m["context_info"].(map[string]any)["conflicts"].(map[string]any)
				assert.Equal(t, existing["id"], conflict["id"])
				assert.Equal(t, existing["sha1"], conflict["sha1"])
			}
		})
	}
	resp, m := e.doJSON("POST", e.upload("/files/content"), tok, `{"name":"x"}`, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.Equal(t, before, snapshot(e.s))
	assert.Equal(t, blobs, blobCount(t, e.s), "rejected uploads left blobs")
}

func TestNewVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "doc.txt", []byte("v1"))
	e.uploadFile(tok, "0", "other.txt", []byte("o"))
	id := f["id"].(string)
	url := e.upload("/files/" + id + "/content")
	before := snapshot(e.s)
	for _, c := range []struct {
		name, attrs string
		h           hdr
		status      int
		code        string
	}{
		// parent is accepted, as Box's own upload client sends it
		// (TestNewVersionAcceptsUploaderAttributes); a malformed one is not.
		{"parent malformed", `{"name":"doc.txt","parent":{"id":"zero"}}`, nil, 400, "bad_request"},
		{"if-match mismatch", `{"name":"doc.txt"}`, hdr{"If-Match": "999"}, 412, "precondition_failed"},
		{"rename clash", `{"name":"Other.txt"}`, nil, 409, "item_name_in_use"},
		{"digest mismatch", `{}`, hdr{"Content-MD5": sha1Hex([]byte("nope"))}, 400, "bad_digest"},
	} {
		resp, m := e.uploadRaw(tok, url, c.attrs, []byte("v2"), c.h)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	resp, m := e.uploadRaw(tok, e.upload("/files/77777/content"), `{}`, []byte("v2"), nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.uploadRaw(e.s.AppToken(), url, `{}`, []byte("v2"), nil)
	requireAPIError(t, resp, m, 403, "insufficient_scope")
	assert.Equal(t, before, snapshot(e.s))

	e.clock.Advance(time.Minute)
	resp, m = e.uploadRaw(tok, url, `{"name":"doc2.txt","content_modified_at":"2024-05-05T05:05:05Z"}`, []byte("v2"),
		hdr{"If-Match": f["etag"].(string), "Content-MD5": sha1Hex([]byte("v2"))})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	nf := m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "doc2.txt", nf["name"])
	assert.Equal(t, sha1Hex([]byte("v2")), nf["sha1"])
	assert.NotEqual(t, f["etag"], nf["etag"])
	assert.NotEqual(t, f["file_version"].(map[string]any)["id"], nf["file_version"].(map[string]any)["id"])
	assert.Equal(t, "2024-05-05T05:05:05Z", nf["content_modified_at"])
	assert.Equal(t, "2025-03-01T12:01:00Z", nf["modified_at"])

	_, m = e.doJSON("GET", e.api("/files/"+id+"?fields=version_number"), tok, nil, nil)
	assert.Equal(t, "2", m["version_number"])
}

func TestGetAndDeleteFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	folder := e.createFolder(tok, "0", "Dir")
	f := e.uploadFile(tok, folder["id"].(string), "a.bin", []byte("abc"))
	id := f["id"].(string)

	resp, m := e.doJSON("GET", e.api("/files/"+id), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, folder["id"], m["parent"].(map[string]any)["id"])
	pc := m["path_collection"].(map[string]any)
	assert.EqualValues(t, 2, pc["total_count"])
	assert.NotContains(t, m, "expiring_embed_link")
	assert.NotContains(t, m, "permissions")

	resp, m = e.doJSON("GET", e.api("/files/"+id+"?fields=expiring_embed_link,permissions"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	for _, k := range []string{"id", "type", "etag", "sequence_id", "name", "sha1", "file_version", "expiring_embed_link", "permissions"} {
		assert.Contains(t, m, k)
	}
	assert.NotContains(t, m, "size")
	assert.NotContains(t, m, "parent")
	link := m["expiring_embed_link"].(map[string]any)
	assert.True(t, strings.HasPrefix(link["url"].(string), e.s.DownloadURL()+"/embed/"), link["url"])
	assert.Equal(t, "bearer", link["token_type"])
	assert.EqualValues(t, 900, link["expires_in"])
	assert.NotEmpty(t, link["access_token"])
	resp, b := e.do("GET", link["url"].(string), "", nil, nil)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, string(b), "a.bin")

	resp, b = e.do("GET", e.api("/files/"+id), tok, nil, hdr{"If-None-Match": f["etag"].(string)})
	assert.Equal(t, 304, resp.StatusCode)
	assert.Empty(t, b)

	resp, m = e.doJSON("GET", e.api("/files/"+id), e.s.AdminToken(), nil, nil)
	assert.Equal(t, 200, resp.StatusCode)
	af := e.uploadFile(e.s.AdminToken(), "0", "admin.bin", []byte("z"))
	resp, m = e.doJSON("GET", e.api("/files/"+af["id"].(string)), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")

	before := snapshot(e.s)
	resp, m = e.doJSON("DELETE", e.api("/files/"+id), tok, nil, hdr{"If-Match": "12345"})
	requireAPIError(t, resp, m, 412, "precondition_failed")
	assert.Equal(t, before, snapshot(e.s))
	resp, _ = e.do("DELETE", e.api("/files/"+id), tok, nil, hdr{"If-Match": f["etag"].(string)})
	assert.Equal(t, 204, resp.StatusCode)
	resp, m = e.doJSON("GET", e.api("/files/"+id), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.doJSON("DELETE", e.api("/files/"+id), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
}

func TestPreflight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	existing := e.uploadFile(tok, "0", "p.txt", []byte("x"))
	resp, m := e.doJSON("OPTIONS", e.api("/files/content"), tok, `{"name":"q.txt","size":10,"parent":{"id":"0"}}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.True(t, strings.HasPrefix(m["upload_url"].(string), e.s.UploadURL()))
	assert.NotEmpty(t, m["upload_token"])
	resp, m = e.doJSON("OPTIONS", e.api("/files/content"), tok, `{"name":"P.TXT","size":10,"parent":{"id":"0"}}`, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	assert.Equal(t, existing["id"], m["context_info"].(map[string]any)["conflicts"].(map[string]any)["id"], "one object, as the service gives it")
	resp, m = e.doJSON("OPTIONS", e.api("/files/content"), tok, `{"name":"q","parent":{"id":"5555"}}`, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.doJSON("OPTIONS", e.api("/files/content"), tok, `{"name":"q","parent":{"id":"0"},"x":1}`, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
}
