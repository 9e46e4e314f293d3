//go:build go1.25

package refserver

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestEndedSessionContentLeavesAfterCommit: the content of an upload
// session that ends without a commit (aborted, or found expired) is
// discarded only once the transaction that dropped the session is
// durable: a failed commit leaves it (the session's records still name
// it), the next successful commit discards it.
func TestEndedSessionContentLeavesAfterCommit(t *testing.T) {
	for _, how := range []string{"aborted", "expired"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			synctest.Test(t, func(t *testing.T) {
				s, err := New(Options{DataDir: dir, PartSize: 4, ChunkedMinSize: 5})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = s.Close() })
				tok := s.UserToken()
				call := func(method, url string, body io.Reader, h map[string]string) *httptest.ResponseRecorder {
					req := httptest.NewRequest(method, url, body)
					req.Header.Set("Authorization", "Bearer "+tok)
					for k, v := range h {
						req.Header.Set(k, v)
					}
					w := httptest.NewRecorder()
					s.Handler().ServeHTTP(w, req)
					return w
				}
				w := call("POST", s.UploadURL()+"/files/upload_sessions", strings.NewReader(`{"folder_id":"0","file_size":8,"file_name":"big.bin"}`),
					map[string]string{"Content-Type": "application/json"})
				var sess struct{ ID string }
				if err := json.Unmarshal(w.Body.Bytes(), &sess); err != nil || w.Code != http.StatusCreated {
					t.Fatalf("creating the session: %d %s", w.Code, w.Body)
				}
				url := s.UploadURL() + "/files/upload_sessions/" + sess.ID
				part := []byte("0123")
				if w := call("PUT", url, strings.NewReader(string(part)), map[string]string{
					"Content-Type": "application/octet-stream", "Digest": digestOf(part), "Content-Range": "bytes 0-3/8",
				}); w.Code != http.StatusOK {
					t.Fatalf("uploading a part: %d %s", w.Code, w.Body)
				}
				assemblies := func() int {
					files, err := filepath.Glob(filepath.Join(dir, "assembly-*.tmp"))
					if err != nil {
						t.Fatal(err)
					}
					return len(files)
				}
				if n := assemblies(); n != 1 {
					t.Fatalf("%d assembly files after a part, want 1", n)
				}

				s.db.BeforeCommit = func() error { return errors.New("the disk is gone") }
				var ended *httptest.ResponseRecorder
				switch how {
				case "aborted":
					ended = call("DELETE", url, nil, nil)
				case "expired":
					time.Sleep(8 * 24 * time.Hour) // the session's lifetime is 7 days
					ended = call("GET", url, nil, nil)
				}
				if ended.Code != http.StatusInternalServerError {
					t.Fatalf("the end whose commit failed answered %d, want 500: %s", ended.Code, ended.Body)
				}
				synctest.Wait()
				if n := assemblies(); n != 1 {
					t.Errorf("%d assembly files after a failed commit, want the session's 1 kept", n)
				}

				s.db.BeforeCommit = nil
				if w := call("POST", s.BaseURL()+"/folders", strings.NewReader(`{"name":"next","parent":{"id":"0"}}`),
					map[string]string{"Content-Type": "application/json"}); w.Code != http.StatusCreated {
					t.Fatalf("the next change: %d %s", w.Code, w.Body)
				}
				synctest.Wait()
				if n := assemblies(); n != 0 {
					t.Errorf("%d assembly files once the end is committed, want 0", n)
				}
				if w := call("GET", url, nil, nil); w.Code != http.StatusNotFound {
					t.Errorf("the ended session answered %d, want 404", w.Code)
				}
			})
		})
	}
}
