package refserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// TestBufferedWriterTakesBody: a body given whole by writePooled is kept
// without a copy and sent as it is, with its headers and status; writes
// after it go after it; plain writes are copied. As in persistHandler, the
// held answer's header is the response's own.
func TestBufferedWriterTakesBody(t *testing.T) {
	held := func() (*bufferedWriter, *httptest.ResponseRecorder) {
		rec := httptest.NewRecorder()
		return &bufferedWriter{header: rec.Header()}, rec
	}
	t.Run("taken", func(t *testing.T) {
		bw, rec := held()
		body := []byte(`{"id":"1"}`)
		writePooled(bw, http.StatusCreated, body, nil)
		assert.Same(t, &body[0], &bw.taken[0], "kept, not copied")
		assert.Zero(t, bw.body.Len())
		bw.send(rec)
		assert.Equal(t, http.StatusCreated, rec.Code)
		assert.Equal(t, `{"id":"1"}`, rec.Body.String())
		assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
		assert.Equal(t, "10", rec.Header().Get("Content-Length"))
	})
	t.Run("write after taken", func(t *testing.T) {
		bw, rec := held()
		bw.takeBody([]byte("ab"))
		_, _ = bw.Write([]byte("cd"))
		bw.takeBody([]byte("ef"))
		bw.send(rec)
		assert.Equal(t, http.StatusOK, rec.Code)
		assert.Equal(t, "abcdef", rec.Body.String())
	})
	t.Run("plain writes", func(t *testing.T) {
		bw, rec := held()
		p := []byte("xy")
		_, _ = bw.Write(p)
		p[0] = 'z' // a writer must not keep p
		bw.WriteHeader(http.StatusTeapot)
		bw.send(rec)
		assert.Equal(t, http.StatusOK, rec.Code, "the first status stands")
		assert.Equal(t, "xy", rec.Body.String())
	})
	t.Run("nothing written", func(t *testing.T) {
		bw, rec := held()
		bw.Header().Set("X-A", "1")
		bw.send(rec)
		assert.Equal(t, "1", rec.Header().Get("X-A"))
		assert.Zero(t, rec.Body.Len())
	})
}

// TestFailedCommitAnswers500: when the commit of a request's changes
// fails, the client gets the 500 error with its request id and none of the
// held answer's headers (a download's Location). The download goes
// through a shared link (boxapi), so its answer waits for every change,
// its own event included (state.ItemReadWait).
func TestFailedCommitAnswers500(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DataDir: t.TempDir()})
	tok := e.s.UserToken()
	id := e.uploadFile(tok, "0", "a.txt", []byte("abc"))["id"].(string)
	resp, m := e.put(tok, "/files/"+id+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	link := m["shared_link"].(map[string]any)["url"].(string)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func() *http.Response {
		req, _ := http.NewRequest("GET", e.api("/files/"+id+"/content"), nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("boxapi", "shared_link="+link)
		resp, err := noRedirect.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}

	e.s.db.BeforeCommit = func() error { return errors.New("disk full") } // the download's event is not saved
	resp = get()
	require.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	assert.Equal(t, "internal_server_error", body["code"])
	assert.NotEmpty(t, resp.Header.Get(wire.HeaderRequestID))
	assert.Equal(t, resp.Header.Get(wire.HeaderRequestID), body["request_id"])
	assert.Empty(t, resp.Header.Get("Location"), "the held answer's headers are not sent")
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))

	e.s.db.BeforeCommit = nil
	resp = get()
	require.Equal(t, http.StatusFound, resp.StatusCode)
	assert.NotEmpty(t, resp.Header.Get("Location"))
}
