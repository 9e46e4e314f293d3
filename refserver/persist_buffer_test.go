package refserver

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBufferedWriterTakesBody: a body given whole by writeJSONBytes is kept
// without a copy and sent as it is, with its headers and status; writes
// after it go after it; plain writes are copied.
func TestBufferedWriterTakesBody(t *testing.T) {
	t.Run("taken", func(t *testing.T) {
		bw := &bufferedWriter{header: http.Header{}}
		body := []byte(`{"id":"1"}`)
		writeJSONBytes(bw, http.StatusCreated, body)
		assert.Same(t, &body[0], &bw.taken[0], "kept, not copied")
		assert.Zero(t, bw.body.Len())
		rec := httptest.NewRecorder()
		bw.send(rec)
		assert.Equal(t, http.StatusCreated, rec.Code)
		assert.Equal(t, `{"id":"1"}`, rec.Body.String())
		assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
		assert.Equal(t, "10", rec.Header().Get("Content-Length"))
	})
	t.Run("write after taken", func(t *testing.T) {
		bw := &bufferedWriter{header: http.Header{}}
		bw.takeBody([]byte("ab"))
		_, _ = bw.Write([]byte("cd"))
		bw.takeBody([]byte("ef"))
		rec := httptest.NewRecorder()
		bw.send(rec)
		assert.Equal(t, http.StatusOK, rec.Code)
		assert.Equal(t, "abcdef", rec.Body.String())
	})
	t.Run("plain writes", func(t *testing.T) {
		bw := &bufferedWriter{header: http.Header{}}
		p := []byte("xy")
		_, _ = bw.Write(p)
		p[0] = 'z' // a writer must not keep p
		bw.WriteHeader(http.StatusTeapot)
		rec := httptest.NewRecorder()
		bw.send(rec)
		assert.Equal(t, http.StatusOK, rec.Code, "the first status stands")
		assert.Equal(t, "xy", rec.Body.String())
	})
	t.Run("nothing written", func(t *testing.T) {
		bw := &bufferedWriter{header: http.Header{"X-A": {"1"}}}
		rec := httptest.NewRecorder()
		bw.send(rec)
		assert.Equal(t, "1", rec.Header().Get("X-A"))
		assert.Zero(t, rec.Body.Len())
	})
}
