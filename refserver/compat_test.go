package refserver

// Wire tests for the requests Box's official SDKs send, pinned so that the
// server keeps accepting them (see conformance/official-sdks). Each test
// builds the request the way the SDK does, byte for byte where it matters.

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sdkPart is one multipart part: a form field, or a file part when filename
// is set.
type sdkPart struct {
	name, filename, body string
}

// uploadParts posts a multipart body made of parts, in order.
func (e *env) uploadParts(token, url string, h hdr, parts ...sdkPart) (*http.Response, map[string]any) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		mh := textproto.MIMEHeader{}
		if p.filename != "" {
			mh.Set("Content-Disposition", `form-data; name="`+p.name+`"; filename="`+p.filename+`"`)
			mh.Set("Content-Type", "application/octet-stream")
		} else {
			mh.Set("Content-Disposition", `form-data; name="`+p.name+`"`)
		}
		w, err := mw.CreatePart(mh)
		require.NoError(e.t, err)
		_, _ = w.Write([]byte(p.body))
	}
	require.NoError(e.t, mw.Close())
	if h == nil {
		h = hdr{}
	}
	h["Content-Type"] = mw.FormDataContentType()
	resp, b := e.do("POST", url, token, &buf, h)
	return resp, decodeMap(e.t, b)
}

// box-node-sdk's files.uploadFile sends the content as the form field
// "content" with filename "unused": the service takes the part that has a
// filename as the file, whatever the field is called.
func TestUploadFileContentPartNamedByFilename(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	attrs := sdkPart{name: "attributes", body: `{"name":"classic.bin","parent":{"id":"0"}}`}

	resp, m := e.uploadParts(tok, e.upload("/files/content"), nil, attrs,
		sdkPart{name: "content", filename: "unused", body: "classic bytes"})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	f := m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "classic.bin", f["name"], "the name comes from attributes, not the part's filename")
	assert.Equal(t, sha1Hex([]byte("classic bytes")), f["sha1"])

	// Still strict: a field without a filename is not content, two file
	// parts are refused, and the content must follow the attributes.
	before := snapshot(e.s)
	blobs := blobCount(t, e.s)
	attrs2 := sdkPart{name: "attributes", body: `{"name":"other.bin","parent":{"id":"0"}}`}
	resp, m = e.uploadParts(tok, e.upload("/files/content"), nil, attrs2, sdkPart{name: "content", body: "not a file"})
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.Contains(t, m["message"], "Missing file part")
	resp, m = e.uploadParts(tok, e.upload("/files/content"), nil, attrs2,
		sdkPart{name: "content", filename: "a", body: "1"}, sdkPart{name: "file", filename: "b", body: "2"})
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.uploadParts(tok, e.upload("/files/content"), nil,
		sdkPart{name: "content", filename: "unused", body: "x"}, attrs2)
	requireAPIError(t, resp, m, 400, "metadata_after_file_contents")
	assert.Equal(t, before, snapshot(e.s))
	assert.Equal(t, blobs, blobCount(t, e.s), "rejected uploads left blobs")
}

// box-node-sdk's files.uploadNewFileVersion(id, content) sends no attributes
// part at all, only the content: the service takes it as a new version with
// no rename. An attributes part after the content is still refused.
func TestNewVersionWithoutAttributesPart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "doc.txt", []byte("v1"))
	url := e.upload("/files/" + f["id"].(string) + "/content")
	content := sdkPart{name: "content", filename: "unused", body: "v2"}

	before := snapshot(e.s)
	resp, m := e.uploadParts(tok, url, hdr{"If-Match": "999"}, content)
	requireAPIError(t, resp, m, 412, "precondition_failed")
	resp, m = e.uploadParts(tok, url, nil, content, sdkPart{name: "attributes", body: `{"name":"x.txt"}`})
	requireAPIError(t, resp, m, 400, "metadata_after_file_contents")
	resp, m = e.uploadParts(tok, url, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.Equal(t, before, snapshot(e.s))

	resp, m = e.uploadParts(tok, url, hdr{"If-Match": f["etag"].(string), "Content-MD5": sha1Hex([]byte("v2"))}, content)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	nf := m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, f["id"], nf["id"])
	assert.Equal(t, "doc.txt", nf["name"])
	assert.Equal(t, sha1Hex([]byte("v2")), nf["sha1"])
	assert.NotEqual(t, f["etag"], nf["etag"])

	// A new file still needs its attributes.
	resp, m = e.uploadParts(tok, e.upload("/files/content"), nil, content)
	requireAPIError(t, resp, m, 400, "metadata_after_file_contents")
}

// box-node-sdk's chunked uploader commits with {"attributes":{},"parts":[…]}
// and "Digest: SHA=…"; the classic SDKs put file attributes there.
func TestCommitWithAttributes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	data := []byte("0123456789")

	commit := func(name string, attrs any) (*http.Response, map[string]any) {
		sess := e.createSession(tok, "0", name, len(data))
		parts := e.uploadAllParts(tok, sess, data)
		body := map[string]any{"parts": parts}
		if attrs != nil {
			body["attributes"] = attrs
		}
		return e.doJSON("POST", endpoints(sess)["commit"], tok, body, hdr{"Digest": "SHA=" + digestOf(data)[len("sha="):]})
	}

	resp, m := commit("empty.bin", map[string]any{})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	assert.Equal(t, sha1Hex(data), m["entries"].([]any)[0].(map[string]any)["sha1"])

	resp, m = commit("dated.bin", map[string]any{"description": "in chunks", "content_modified_at": "2024-05-05T05:05:05+02:00"})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	f := m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "in chunks", f["description"])
	assert.Equal(t, "2024-05-05T03:05:05Z", f["content_modified_at"])

	for _, c := range []struct {
		name  string
		attrs any
	}{
		{"unknown attribute", map[string]any{"color": "red"}},
		{"bad date", map[string]any{"content_modified_at": "yesterday"}},
		{"not an object", "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, m := commit(c.name+".bin", c.attrs)
			requireAPIError(t, resp, m, 400, "bad_request")
		})
	}
}

// box-node-sdk's files.getReadStream fetches the Location URL itself and
// sends the API bearer token with it. The real content host ignores it;
// the reference server refuses it unless IgnoreContentAuthorization is set,
// and records it either way.
func TestContentHostIgnoreAuthorization(t *testing.T) {
	t.Parallel()
	for _, ignore := range []bool{false, true} {
		e := newEnv(t, Options{IgnoreContentAuthorization: ignore})
		tok := e.s.UserToken()
		f := e.uploadFile(tok, "0", "d.bin", []byte("content"))
		resp, _ := e.do("GET", e.api("/files/"+f["id"].(string)+"/content"), tok, nil, nil)
		require.Equal(t, http.StatusFound, resp.StatusCode)
		loc := resp.Header.Get("Location")

		e.s.ResetRequests()
		resp, b := e.do("GET", loc, tok, nil, nil)
		if ignore {
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
			assert.Equal(t, "content", string(b))
		} else {
			requireAPIError(t, resp, decodeMap(t, b), 400, "bad_request")
		}
		reqs := e.s.Requests()
		require.Len(t, reqs, 1)
		assert.True(t, reqs[0].HasAuthorization)

		// Any token is ignored, not checked: the URL is the authorization.
		resp, b = e.do("GET", loc, "not-a-token", nil, nil)
		if ignore {
			assert.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
		} else {
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		}
		// A forged URL is refused either way.
		resp, b = e.do("GET", loc+"x", tok, nil, nil)
		if ignore {
			requireAPIError(t, resp, decodeMap(t, b), 403, "forbidden")
		}
	}
}
