package refserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeThenRead sends a request the way Python's http.client does: the
// whole body first, then it reads the answer.
func writeThenRead(t *testing.T, root, method, path string, h hdr, body []byte) (int, map[string]any) {
	t.Helper()
	u, err := url.Parse(root)
	require.NoError(t, err)
	c, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(30*time.Second)))
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", method, u.Path+path, u.Host, len(body))
	for k, v := range h {
		fmt.Fprintf(&head, "%s: %s\r\n", k, v)
	}
	head.WriteString("\r\n")
	_, err = c.Write(head.Bytes())
	require.NoError(t, err)
	_, err = c.Write(body)
	require.NoError(t, err, "the server read the body before answering")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "%s", b)
	return resp.StatusCode, m
}

// TestEarlyRejectionReadsTheBody: a part refused before its body is read
// (416, 409), a refused multipart upload (400) and an injected fault still
// reach a client that writes the whole body before it reads.
func TestEarlyRejectionReadsTheBody(t *testing.T) {
	t.Parallel()
	const part = 4 << 20
	e := newEnv(t, Options{PartSize: part})
	tok := e.s.UserToken()
	data := bytes.Repeat([]byte("p"), part)
	sess := e.createSession(tok, "0", "big.bin", 3*part)
	id := sess["id"].(string)
	partHdr := func(rng string) hdr {
		return hdr{"Authorization": "Bearer " + tok, "Content-Type": "application/octet-stream", "Digest": digestOf(data), "Content-Range": rng}
	}
	path := "/files/upload_sessions/" + id
	before := snapshot(e.s)

	status, m := writeThenRead(t, e.s.UploadURL(), "PUT", path, partHdr(fmt.Sprintf("bytes 0-%d/%d", part-1, 2*part)), data)
	assert.Equal(t, 416, status)
	assert.Equal(t, "requested_range_not_satisfiable", m["code"])
	assert.Equal(t, before, snapshot(e.s), "a refused part changes nothing")

	status, m = writeThenRead(t, e.s.UploadURL(), "POST", "/files/content", hdr{"Authorization": "Bearer " + tok,
		"Content-Type": "multipart/form-data; boundary=xyz"}, data)
	assert.Equal(t, 400, status)
	assert.NotEmpty(t, m["code"])

	e.s.Inject(Fault{Method: "PUT", Status: 503})
	status, m = writeThenRead(t, e.s.UploadURL(), "PUT", path, partHdr(fmt.Sprintf("bytes 0-%d/%d", part-1, 3*part)), data)
	assert.Equal(t, 503, status)
	assert.Equal(t, "unavailable", m["code"])
	assert.Equal(t, before, snapshot(e.s))

	// The part uploads; a different body over its range is 409, answered
	// after the body was read.
	status, _ = writeThenRead(t, e.s.UploadURL(), "PUT", path, partHdr(fmt.Sprintf("bytes 0-%d/%d", part-1, 3*part)), data)
	require.Equal(t, 200, status)
	other := bytes.Repeat([]byte("q"), part)
	h := partHdr(fmt.Sprintf("bytes 0-%d/%d", part-1, 3*part))
	h["Digest"] = digestOf(other)
	status, m = writeThenRead(t, e.s.UploadURL(), "PUT", path, h, other)
	assert.Equal(t, 409, status)
	assert.Equal(t, "range_overlaps_existing_part", m["code"])
	info, _ := e.s.UploadSession(id)
	require.Len(t, info.Parts, 1)
	assert.Equal(t, sha1Hex(data), info.Parts[0].SHA1)
}
