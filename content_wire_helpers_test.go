package cms

import (
	"io"
	"net/http"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The wire tests of the everyday content calls (files and folders updates
// and copies, locks, file versions, collaborations, shared links,
// comments) pin what each method puts on the wire — method, path, query,
// headers, the JSON body with its explicit nulls — and decode records
// shaped like the OpenAPI document's, from a fake service.

// wireCall is one request the fake service saw.
type wireCall struct {
	Method, Path, Query, Body string
	Header                    http.Header
}

// wireLog records the requests of the routes answered with answer.
type wireLog struct {
	e     *filesEnv
	mu    sync.Mutex
	calls []wireCall
}

func newWireLog(t *testing.T, opts ...Option) *wireLog {
	t.Helper()
	return &wireLog{e: newFilesEnv(t, opts...)}
}

// answer serves pattern (a ServeMux pattern under the API root) with a
// fixed status and JSON body, recording each request.
func (w *wireLog) answer(pattern string, status int, body string) {
	w.e.api.HandleFunc(pattern, func(rw http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.mu.Lock()
		w.calls = append(w.calls, wireCall{r.Method, r.URL.Path, r.URL.RawQuery, string(b), r.Header.Clone()})
		w.mu.Unlock()
		if body == "" {
			rw.WriteHeader(status)
			return
		}
		writeJSON(rw, status, []byte(body))
	})
}

// serve is answer with a handler of the caller's, recording each request.
func (w *wireLog) serve(pattern string, h func(rw http.ResponseWriter, r *http.Request)) {
	w.e.api.HandleFunc(pattern, func(rw http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.mu.Lock()
		w.calls = append(w.calls, wireCall{r.Method, r.URL.Path, r.URL.RawQuery, string(b), r.Header.Clone()})
		w.mu.Unlock()
		h(rw, r)
	})
}

// last returns the last request seen; the test fails when there is none.
func (w *wireLog) last(t *testing.T) wireCall {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	require.NotEmpty(t, w.calls, "no request reached the fake service")
	return w.calls[len(w.calls)-1]
}

// count returns how many requests the fake service saw.
func (w *wireLog) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.calls)
}

// all returns the requests seen, in order.
func (w *wireLog) all() []wireCall {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]wireCall(nil), w.calls...)
}

// mustTime parses an RFC 3339 time.
func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return v
}

// The valid bodies of the content calls for the failure sweep
// (failure_sweep_test.go), registered here to keep that file's list short.
func init() {
	for _, b := range []any{
		&CopyFileRequest{Parent: FolderRef{ID: "1"}},
		&CopyFolderRequest{Parent: FolderRef{ID: "2"}},
		&CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFolder, ID: "1"}, User: &UserRef{ID: "1"}, Role: CollaborationRoleEditor},
		&CreateCommentRequest{Item: ItemRef{Type: ItemTypeFile, ID: "1"}, Message: "x"},
		&UpdateCommentRequest{Message: "x"},
	} {
		sweepBodies[reflect.TypeOf(b)] = b
	}
}
