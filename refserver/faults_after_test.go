package refserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fault After the handler: the part is stored, the client sees 500; the
// request log shows both.
func TestFaultAfterStatusKeepsTheEffect(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	data := []byte("0123456789")
	sess := e.createSession(tok, "0", "big.bin", len(data))
	id := sess["id"].(string)
	e.s.Inject(Fault{Method: "PUT", Path: "/files/upload_sessions/{upload_session_id}", Role: "upload", Status: 500, After: true})
	e.s.ResetRequests()
	resp, m := e.putPart(tok, endpoints(sess)["upload_part"], data[:4], 0, len(data), nil)
	requireAPIError(t, resp, m, 500, "internal_server_error")

	info, ok := e.s.UploadSession(id)
	require.True(t, ok)
	assert.Equal(t, SessionOpen, info.State)
	require.Len(t, info.Parts, 1, "the part took effect before the answer was lost")
	assert.Equal(t, sha1Hex(data[:4]), info.Parts[0].SHA1)

	reqs := e.s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, 500, reqs[0].Status)
	assert.True(t, reqs[0].Injected)
	assert.Equal(t, 200, reqs[0].HandlerStatus)

	// The retry of the same part is idempotent and answers the same part.
	resp, m = e.putPart(tok, endpoints(sess)["upload_part"], data[:4], 0, len(data), nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, info.Parts[0].PartID, m["part"].(map[string]any)["part_id"])
	reqs = e.s.Requests()
	assert.Equal(t, 200, reqs[1].Status)
	assert.False(t, reqs[1].Injected)
	assert.Zero(t, reqs[1].HandlerStatus)
}

// A reset After a commit: the file exists, the client saw a broken
// connection, and the session's parts stay inspectable.
func TestFaultAfterResetOnCommit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	data := []byte("0123456789")
	sess := e.createSession(tok, "0", "big.bin", len(data))
	parts := e.uploadAllParts(tok, sess, data)
	e.s.Inject(Fault{Method: "POST", Path: "/files/upload_sessions/*/commit", Reset: true, After: true})
	body := mustJSON(t, map[string]any{"parts": parts})
	req, err := http.NewRequest("POST", endpoints(sess)["commit"], strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Digest", digestOf(data))
	_, err = e.hc.Do(req)
	require.Error(t, err, "the answer was lost")

	info, ok := e.s.UploadSession(sess["id"].(string))
	require.True(t, ok)
	assert.Equal(t, SessionCommitted, info.State)
	require.Len(t, info.Parts, 3)
	assert.Equal(t, []int64{0, 4, 8}, []int64{info.Parts[0].Offset, info.Parts[1].Offset, info.Parts[2].Offset})
	assert.EqualValues(t, 2, info.Parts[2].Size)
	require.NotEmpty(t, info.FileID)
	resp, m := e.doJSON("GET", e.api("/files/"+info.FileID), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "big.bin", m["name"])

	var last RequestRecord
	for _, rec := range e.s.Requests() {
		if strings.HasSuffix(rec.Path, "/commit") {
			last = rec
		}
	}
	assert.True(t, last.Injected)
	assert.Zero(t, last.Status, "a reset answers nothing")
	assert.Equal(t, 201, last.HandlerStatus)

	// A retried commit finds the session gone.
	resp, m = e.doJSON("POST", endpoints(sess)["commit"], tok, map[string]any{"parts": parts}, hdr{"Digest": digestOf(data)})
	requireAPIError(t, resp, m, 404, "not_found")
}

// A Rate fault with a seed fails the same requests on every run.
func TestFaultRateIsDeterministic(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	schedule := func(seed uint64) []int {
		e.s.ClearFaults()
		e.s.Inject(Fault{Method: "GET", Path: "/folders/{folder_id}", Status: 503, Rate: 0.4, Seed: seed})
		var got []int
		for range 30 {
			resp, _ := e.doJSON("GET", e.api("/folders/0"), tok, nil, nil)
			got = append(got, resp.StatusCode)
		}
		return got
	}
	a := schedule(42)
	assert.Equal(t, a, schedule(42), "same seed, same schedule")
	assert.NotEqual(t, a, schedule(43), "another seed, another schedule")
	assert.Contains(t, a, 503)
	assert.Contains(t, a, 200)

	// Count caps a Rate fault.
	e.s.ClearFaults()
	e.s.Inject(Fault{Path: "/folders/0", Status: 503, Rate: 1, Count: 2})
	var fails int
	for range 5 {
		if resp, _ := e.doJSON("GET", e.api("/folders/0"), tok, nil, nil); resp.StatusCode == 503 {
			fails++
		}
	}
	assert.Equal(t, 2, fails)
}

// Role restricts a fault to one listener.
func TestFaultRole(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	e.s.Inject(Fault{Path: "/folders/0", Role: "upload", Status: 503})
	resp, _ := e.doJSON("GET", e.api("/folders/0"), tok, nil, nil)
	assert.Equal(t, 200, resp.StatusCode, "the API listener is not matched")
}
