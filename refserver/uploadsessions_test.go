package refserver

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// createSession opens a new-file session (part size 4, minimum 5 in newEnv).
func (e *env) createSession(token, folder, name string, size int) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("POST", e.upload("/files/upload_sessions"), token,
		map[string]any{"folder_id": folder, "file_size": size, "file_name": name}, nil)
	require.Equal(e.t, http.StatusCreated, resp.StatusCode, "%v", m)
	return m
}

func (e *env) putPart(token, url string, data []byte, first, total int, h hdr) (*http.Response, map[string]any) {
	e.t.Helper()
	hh := hdr{
		"Content-Type":  "application/octet-stream",
		"Digest":        digestOf(data),
		"Content-Range": fmt.Sprintf("bytes %d-%d/%d", first, first+len(data)-1, total),
	}
	for k, v := range h {
		hh[k] = v
	}
	resp, b := e.do("PUT", url, token, bytes.NewReader(data), hh)
	return resp, decodeMap(e.t, b)
}

func endpoints(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m["session_endpoints"].(map[string]any) {
		out[k] = v.(string)
	}
	return out
}

// uploadAllParts uploads data in part_size parts and returns them in order.
func (e *env) uploadAllParts(token string, sess map[string]any, data []byte) []any {
	e.t.Helper()
	ps := int(sess["part_size"].(float64))
	var parts []any
	for off := 0; off < len(data); off += ps {
		chunk := data[off:min(off+ps, len(data))]
		resp, m := e.putPart(token, endpoints(sess)["upload_part"], chunk, off, len(data), nil)
		require.Equal(e.t, 200, resp.StatusCode, "%v", m)
		parts = append(parts, m["part"])
	}
	return parts
}

func TestUploadSessionHappyPath(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	data := []byte("0123456789")
	sess := e.createSession(tok, "0", "big.bin", len(data))
	assert.Equal(t, "upload_session", sess["type"])
	assert.EqualValues(t, 4, sess["part_size"])
	assert.EqualValues(t, 3, sess["total_parts"])
	assert.EqualValues(t, 0, sess["num_parts_processed"])
	ep := endpoints(sess)
	id := sess["id"].(string)
	base := e.s.UploadURL() + "/files/upload_sessions/" + id
	assert.Equal(t, base, ep["upload_part"])
	assert.Equal(t, base+"/commit", ep["commit"])
	assert.Equal(t, base, ep["abort"])
	assert.Equal(t, base+"/parts", ep["list_parts"])
	assert.Equal(t, base, ep["status"])
	assert.Equal(t, base+"/log", ep["log_event"])
	assert.Equal(t, "2025-03-08T12:00:00Z", sess["session_expires_at"])

	parts := e.uploadAllParts(tok, sess, data)
	p0 := parts[0].(map[string]any)
	assert.Regexp(t, `^[0-9A-F]{8}$`, p0["part_id"])
	assert.EqualValues(t, 0, p0["offset"])
	assert.EqualValues(t, 4, p0["size"])
	assert.Equal(t, sha1Hex(data[:4]), p0["sha1"])
	assert.EqualValues(t, 2, parts[2].(map[string]any)["size"])

	_, st := e.doJSON("GET", ep["status"], tok, nil, nil)
	assert.EqualValues(t, 3, st["num_parts_processed"])

	_, lp := e.doJSON("GET", ep["list_parts"]+"?limit=2", tok, nil, nil)
	assert.EqualValues(t, 3, lp["total_count"])
	assert.Len(t, lp["entries"], 2)
	_, lp = e.doJSON("GET", ep["list_parts"]+"?offset=2", tok, nil, nil)
	assert.Len(t, lp["entries"], 1)
	resp, m := e.doJSON("GET", ep["list_parts"]+"?offset=10001", tok, nil, nil)
	requireAPIError(t, resp, m, 400, "bad_request")

	resp, m = e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": parts}, hdr{"Digest": digestOf(data)})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	f := m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "big.bin", f["name"])
	assert.Equal(t, sha1Hex(data), f["sha1"])
	assert.EqualValues(t, len(data), f["size"])

	resp, m = e.doJSON("GET", ep["status"], tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, _ = e.do("GET", e.api("/files/"+f["id"].(string)+"/content"), tok, nil, nil)
	_, b := e.do("GET", resp.Header.Get("Location"), "", nil, nil)
	assert.Equal(t, data, b)
	assert.Equal(t, 1, blobCount(t, e.s), "part blobs must be gone after commit")
}

func TestCreateUploadSessionRejections(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{ChunkedMinSize: 100})
	tok := e.s.UserToken()
	e.uploadFile(tok, "0", "taken.bin", []byte("x"))
	cases := []struct {
		name, body string
		status     int
		code       string
	}{
		{"missing folder", `{"file_size":200,"file_name":"a"}`, 400, "missing_destination"},
		{"bad folder", `{"folder_id":"abc","file_size":200,"file_name":"a"}`, 400, "invalid_folder_id"},
		{"folder number", `{"folder_id":0,"file_size":200,"file_name":"a"}`, 400, "invalid_folder_id"},
		{"missing size", `{"folder_id":"0","file_name":"a"}`, 400, "missing_file_size"},
		{"string size", `{"folder_id":"0","file_size":"200","file_name":"a"}`, 400, "invalid_file_size"},
		{"negative size", `{"folder_id":"0","file_size":-1,"file_name":"a"}`, 400, "invalid_file_size"},
		{"too small", `{"folder_id":"0","file_size":99,"file_name":"a"}`, 400, "file_size_too_small"},
		{"missing name", `{"folder_id":"0","file_size":200}`, 400, "missing_file_name"},
		{"bad name", `{"folder_id":"0","file_size":200,"file_name":"a/b"}`, 400, "item_name_invalid"},
		{"unknown field", `{"folder_id":"0","file_size":200,"file_name":"a","x":1}`, 400, "bad_request"},
		{"no folder", `{"folder_id":"987654","file_size":200,"file_name":"a"}`, 404, "invalid_parameter"},
		{"name in use", `{"folder_id":"0","file_size":200,"file_name":"Taken.bin"}`, 409, "item_name_in_use"},
	}
	before := snapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("POST", e.upload("/files/upload_sessions"), tok, c.body, nil)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, snapshot(e.s))
}

func TestUploadPartRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	sess := e.createSession(tok, "0", "p.bin", 10)
	url := endpoints(sess)["upload_part"]
	resp, m := e.putPart(tok, url, []byte("abcd"), 0, 10, nil)
	require.Equal(t, 200, resp.StatusCode)
	first := m["part"].(map[string]any)
	before := snapshot(e.s)
	blobs := blobCount(t, e.s)

	cases := []struct {
		name   string
		data   string
		h      hdr
		status int
		code   string
	}{
		{"total differs", "efgh", hdr{"Content-Range": "bytes 4-7/11"}, 416, "requested_range_not_satisfiable"},
		{"offset not multiple", "efgh", hdr{"Content-Range": "bytes 3-6/10"}, 416, "requested_range_not_satisfiable"},
		{"short middle part", "ef", hdr{"Content-Range": "bytes 4-5/10"}, 416, "requested_range_not_satisfiable"},
		{"long last part", "ijklmn", hdr{"Content-Range": "bytes 4-9/10"}, 416, "requested_range_not_satisfiable"},
		{"body shorter than range", "ef", hdr{"Content-Range": "bytes 4-7/10", "Digest": digestOf([]byte("ef"))}, 416, "requested_range_not_satisfiable"},
		{"range past end", "ijk", hdr{"Content-Range": "bytes 8-10/10"}, 400, "bad_request"},
		{"malformed range", "efgh", hdr{"Content-Range": "4-7/10"}, 400, "bad_request"},
		{"missing digest", "efgh", hdr{"Digest": ""}, 400, "bad_request"},
		{"malformed digest", "efgh", hdr{"Digest": "md5=abc"}, 400, "bad_request"},
		{"digest mismatch", "efgh", hdr{"Digest": digestOf([]byte("EFGH"))}, 400, "bad_digest"},
		{"wrong content type", "efgh", hdr{"Content-Type": "text/plain"}, 400, "bad_request"},
		{"different overlapping part", "ABCD", hdr{"Content-Range": "bytes 0-3/10"}, 409, "range_overlaps_existing_part"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.putPart(tok, url, []byte(c.data), 4, 10, c.h)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, snapshot(e.s))
	assert.Equal(t, blobs, blobCount(t, e.s))

	// Same part again: idempotent, same part id.
	resp, m = e.putPart(tok, url, []byte("abcd"), 0, 10, hdr{"Digest": strings.Replace(digestOf([]byte("abcd")), "sha=", "SHA=", 1)})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, first["part_id"], m["part"].(map[string]any)["part_id"])
	assert.Equal(t, before, snapshot(e.s))
	assert.Equal(t, blobs, blobCount(t, e.s))

	// Other principals cannot use the session.
	resp, m = e.putPart(e.s.AdminToken(), url, []byte("efgh"), 4, 10, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.putPart(e.s.AppToken(), url, []byte("efgh"), 4, 10, nil)
	requireAPIError(t, resp, m, 403, "insufficient_scope")
}

func TestCommitRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{CommitNotReady: 5 * time.Second, RetryAfter: 3 * time.Second})
	tok := e.s.UserToken()
	data := []byte("0123456789")
	sess := e.createSession(tok, "0", "c.bin", len(data))
	ep := endpoints(sess)
	parts := e.uploadAllParts(tok, sess, data)
	good := hdr{"Digest": digestOf(data)}
	tampered := func(i int, k string, v any) []any {
		var out []any
		for j, p := range parts {
			cp := map[string]any{}
			for kk, vv := range p.(map[string]any) {
				cp[kk] = vv
			}
			if j == i {
				cp[k] = v
			}
			out = append(out, cp)
		}
		return out
	}
	before := snapshot(e.s)
	cases := []struct {
		name   string
		body   any
		h      hdr
		status int
		code   string
	}{
		{"missing digest", map[string]any{"parts": parts}, nil, 400, "bad_request"},
		{"missing parts", `{}`, good, 400, "bad_request"},
		{"unknown field", map[string]any{"parts": parts, "color": "red"}, good, 400, "bad_request"}, // "attributes" is known: see TestCommitWithAttributes
		{"part missing", map[string]any{"parts": parts[:2]}, good, 400, "parts_mismatch"},
		{"duplicate part", map[string]any{"parts": append([]any{parts[0]}, parts...)}, good, 400, "parts_mismatch"},
		{"wrong id", map[string]any{"parts": tampered(1, "part_id", "DEADBEEF")}, good, 400, "parts_mismatch"},
		{"wrong sha1", map[string]any{"parts": tampered(1, "sha1", sha1Hex([]byte("x")))}, good, 400, "parts_mismatch"},
		{"wrong size", map[string]any{"parts": tampered(2, "size", 3)}, good, 400, "parts_mismatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("POST", ep["commit"], tok, c.body, c.h)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	// Within CommitNotReady: 202 + Retry-After, nothing changes.
	resp, b := e.do("POST", ep["commit"], tok, strings.NewReader(mustJSON(t, map[string]any{"parts": parts})), hdr{"Digest": digestOf(data), "Content-Type": "application/json"})
	assert.Equal(t, http.StatusAccepted, resp.StatusCode, "%s", b)
	assert.Equal(t, "3", resp.Header.Get("Retry-After"))
	assert.Equal(t, before, snapshot(e.s))
	e.clock.Advance(5 * time.Second)

	resp, m := e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": parts}, hdr{"Digest": digestOf([]byte("other"))})
	requireAPIError(t, resp, m, 400, "digest_mismatch")
	assert.Equal(t, before, snapshot(e.s))

	// Name taken meanwhile: 409, session kept.
	clash := e.uploadFile(tok, "0", "C.BIN", []byte("x"))
	resp, m = e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": parts}, good)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	resp, _ = e.do("DELETE", e.api("/files/"+clash["id"].(string)), tok, nil, nil)
	require.Equal(t, 204, resp.StatusCode)

	// Parts listed in any order commit fine.
	rev := []any{parts[2], parts[0], parts[1]}
	resp, m = e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": rev}, good)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	resp, m = e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": parts}, good)
	requireAPIError(t, resp, m, 404, "not_found")
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jsonEncode(&buf, v))
	return buf.String()
}

func TestVersionSessionAndAbortAndExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "v.bin", []byte("old"))
	e.uploadFile(tok, "0", "busy.bin", []byte("b"))
	id := f["id"].(string)
	url := e.upload("/files/" + id + "/upload_sessions")
	resp, m := e.doJSON("POST", url, tok, `{"file_size":6,"file_name":"Busy.bin"}`, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	resp, m = e.doJSON("POST", url, tok, `{"file_size":2}`, nil)
	requireAPIError(t, resp, m, 400, "file_size_too_small")
	resp, m = e.doJSON("POST", e.upload("/files/4242/upload_sessions"), tok, `{"file_size":6}`, nil)
	requireAPIError(t, resp, m, 404, "not_found")

	resp, sess := e.doJSON("POST", url, tok, `{"file_size":6,"file_name":"v2.bin"}`, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", sess)
	data := []byte("newest")
	parts := e.uploadAllParts(tok, sess, data)
	ep := endpoints(sess)
	resp, m = e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": parts}, hdr{"Digest": digestOf(data), "If-Match": "999"})
	requireAPIError(t, resp, m, 412, "precondition_failed")
	resp, m = e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": parts}, hdr{"Digest": digestOf(data), "If-Match": f["etag"].(string)})
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	nf := m["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, id, nf["id"])
	assert.Equal(t, "v2.bin", nf["name"])
	assert.Equal(t, sha1Hex(data), nf["sha1"])

	// Abort discards parts.
	blobs := blobCount(t, e.s)
	sess = e.createSession(tok, "0", "ab.bin", 8)
	e.uploadAllParts(tok, sess, []byte("abcdefgh"))
	assert.Equal(t, blobs+2, blobCount(t, e.s))
	resp, _ = e.do("DELETE", endpoints(sess)["abort"], tok, nil, nil)
	assert.Equal(t, 204, resp.StatusCode)
	assert.Equal(t, blobs, blobCount(t, e.s))
	resp, m = e.doJSON("GET", endpoints(sess)["status"], tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")

	// Expired sessions are gone.
	sess = e.createSession(tok, "0", "exp.bin", 8)
	e.clock.Advance(7*24*time.Hour + time.Second)
	resp, m = e.putPart(tok, endpoints(sess)["upload_part"], []byte("abcd"), 0, 8, nil)
	requireAPIError(t, resp, m, 404, "not_found")
}

func TestConcurrentParts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{PartSize: 16})
	tok := e.s.UserToken()
	data := bytes.Repeat([]byte("0123456789abcdef"), 40)
	for i := range data {
		data[i] ^= byte(i)
	}
	sess := e.createSession(tok, "0", "conc.bin", len(data))
	ep := endpoints(sess)
	var wg sync.WaitGroup
	results := make([]any, len(data)/16)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			chunk := data[i*16 : (i+1)*16]
			resp, m := e.putPart(tok, ep["upload_part"], chunk, i*16, len(data), nil)
			assert.Equal(t, 200, resp.StatusCode)
			// Every part twice, concurrently: idempotent.
			resp2, m2 := e.putPart(tok, ep["upload_part"], chunk, i*16, len(data), nil)
			assert.Equal(t, 200, resp2.StatusCode)
			assert.Equal(t, m["part"], m2["part"])
			results[i] = m["part"]
		}()
	}
	wg.Wait()
	resp, m := e.doJSON("POST", ep["commit"], tok, map[string]any{"parts": results}, hdr{"Digest": digestOf(data)})
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, sha1Hex(data), m["entries"].([]any)[0].(map[string]any)["sha1"])
	assert.Equal(t, 1, blobCount(t, e.s))
}
