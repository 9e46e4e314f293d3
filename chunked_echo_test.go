package cms_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUploadChunkedRejectsWrongEcho: a service that acknowledges a part with
// another offset, size or SHA1 than was sent fails the upload, which is then
// aborted.
func TestUploadChunkedRejectsWrongEcho(t *testing.T) {
	t.Parallel()
	var aborted bool
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/2.0/files/upload_sessions", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": "S1", "type": "upload_session", "part_size": 4, "total_parts": 2})
	})
	mux.HandleFunc("PUT /api/2.0/files/upload_sessions/S1", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		var first, last, total int64
		if _, err := fmt.Sscanf(r.Header.Get("Content-Range"), "bytes %d-%d/%d", &first, &last, &total); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"part": map[string]any{"part_id": "P", "offset": first, "size": last - first + 1, "sha1": "0000000000000000000000000000000000000000"}})
	})
	mux.HandleFunc("DELETE /api/2.0/files/upload_sessions/S1", func(w http.ResponseWriter, r *http.Request) {
		aborted = true
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := cms.NewClient(cms.WithToken("t"), cms.WithBaseURL(srv.URL+"/2.0"), cms.WithUploadURL(srv.URL+"/api/2.0"))
	require.NoError(t, err)
	_, _, err = c.Uploads.UploadChunked(context.Background(), "0", "x.bin", strings.NewReader("abcdefg"), 7, &cms.ChunkedUploadOptions{Concurrency: 1})
	var ue *cms.UploadError
	require.ErrorAs(t, err, &ue)
	assert.Equal(t, "S1", ue.SessionID)
	assert.ErrorContains(t, err, "echoed")
	assert.True(t, aborted)
}
