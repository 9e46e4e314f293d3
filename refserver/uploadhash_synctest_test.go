//go:build go1.25

package refserver

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// gatedStore is a memory store whose assemblies block every read back
// (the session's hash worker's) until the test lets it through: one read
// per value sent on gate, every read once gate is closed.
type gatedStore struct {
	*blob.Memory
	gate  chan struct{}
	reads atomic.Int32 // reads begun
}

func (g *gatedStore) NewAssembly(ctx context.Context, size int64) (blob.Assembly, error) {
	a, err := g.Memory.NewAssembly(ctx, size)
	return gatedAssembly{a, g}, err
}

type gatedAssembly struct {
	blob.Assembly
	g *gatedStore
}

// Discard keeps the content: a worker that goes on after its session
// ended would read on, not fail.
func (a gatedAssembly) Discard() error { return nil }

func (a gatedAssembly) ReadAt(p []byte, off int64) (int, error) {
	a.g.reads.Add(1)
	<-a.g.gate
	return a.Assembly.ReadAt(p, off)
}

// hashTestServer is an in-process server on a gated store whose sessions
// take parts of 1 MiB (four reads of the hash worker's 256 KiB buffer).
type hashTestServer struct {
	t     *testing.T
	s     *Server
	store *gatedStore
}

func newHashTestServer(t *testing.T) *hashTestServer {
	store := &gatedStore{Memory: blob.NewMemory(), gate: make(chan struct{})}
	s, err := New(Options{Store: store, PartSize: 1 << 20, ChunkedMinSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	return &hashTestServer{t, s, store}
}

func (h *hashTestServer) call(method, url string, body []byte, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+h.s.UserToken())
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.s.Handler().ServeHTTP(w, req)
	return w
}

// session creates a session for size bytes and returns its URL.
func (h *hashTestServer) session(size int) string {
	w := h.call("POST", h.s.UploadURL()+"/files/upload_sessions", fmt.Appendf(nil, `{"folder_id":"0","file_size":%d,"file_name":"big.bin"}`, size),
		map[string]string{"Content-Type": "application/json"})
	var sess struct{ ID string }
	if err := json.Unmarshal(w.Body.Bytes(), &sess); err != nil || w.Code != http.StatusCreated {
		h.t.Fatalf("creating the session: %d %s", w.Code, w.Body)
	}
	return h.s.UploadURL() + "/files/upload_sessions/" + sess.ID
}

// put uploads data[first:first+n] and returns the part record.
func (h *hashTestServer) put(url string, data []byte, first, n int) json.RawMessage {
	part := data[first : first+n]
	w := h.call("PUT", url, part, map[string]string{
		"Content-Type": "application/octet-stream", "Digest": digestOf(part),
		"Content-Range": fmt.Sprintf("bytes %d-%d/%d", first, first+n-1, len(data)),
	})
	var out struct{ Part json.RawMessage }
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || w.Code != http.StatusOK {
		h.t.Fatalf("uploading the part at %d: %d %s", first, w.Code, w.Body)
	}
	return out.Part
}

// TestPartAnswersBeforeWholeHash: a part's request answers while the
// session's hash worker still reads the part back for the whole-file
// hash; the commit waits for the worker and gets the file's SHA1.
func TestPartAnswersBeforeWholeHash(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHashTestServer(t)
		data := bytes.Repeat([]byte("0123456789abcdef"), (2<<20)/16) // two parts
		url := h.session(len(data))
		p0 := h.put(url, data, 0, 1<<20) // answered: the worker is held at its first read
		synctest.Wait()
		if n := h.store.reads.Load(); n != 1 {
			t.Fatalf("%d reads begun after the first part, want 1 (the worker, held)", n)
		}
		p1 := h.put(url, data, 1<<20, 1<<20)
		sum := sha1.Sum(data)
		body := fmt.Appendf(nil, `{"parts":[%s,%s]}`, p0, p1)
		done := make(chan *httptest.ResponseRecorder, 1)
		go func() {
			done <- h.call("POST", url+"/commit", body, map[string]string{"Content-Type": "application/json", "Digest": digestOf(data)})
		}()
		synctest.Wait()
		select {
		case w := <-done:
			t.Fatalf("the commit answered %d while the worker was held: %s", w.Code, w.Body)
		default:
		}
		close(h.store.gate)
		w := <-done
		if w.Code != http.StatusCreated || !strings.Contains(w.Body.String(), hex.EncodeToString(sum[:])) {
			t.Fatalf("the commit: %d %s", w.Code, w.Body)
		}
		if n := h.store.reads.Load(); n != 8 {
			t.Errorf("%d reads for two parts of 1 MiB, want 8 (each byte read back once)", n)
		}
		if err := h.s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSessionEndStopsWholeHash: a session that is aborted, or found
// expired, stops its hash worker at its next read; the parts after are
// not read back.
func TestSessionEndStopsWholeHash(t *testing.T) {
	for _, how := range []string{"aborted", "expired"} {
		t.Run(how, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHashTestServer(t)
				t.Cleanup(func() { _ = h.s.Close() })
				data := bytes.Repeat([]byte{7}, 2<<20)
				url := h.session(len(data))
				h.put(url, data, 0, 1<<20)
				h.put(url, data, 1<<20, 1<<20)
				synctest.Wait()
				var w *httptest.ResponseRecorder
				switch how {
				case "aborted":
					w = h.call("DELETE", url, nil, nil)
				case "expired":
					time.Sleep(8 * 24 * time.Hour) // the session's lifetime is 7 days
					w = h.call("GET", url, nil, nil)
				}
				if w.Code != http.StatusNoContent && w.Code != http.StatusNotFound {
					t.Fatalf("ending the session: %d %s", w.Code, w.Body)
				}
				h.store.gate <- struct{}{} // the read under way ends
				synctest.Wait()
				if n := h.store.reads.Load(); n != 1 {
					t.Errorf("%d reads begun, want 1: the worker goes on after the session ended", n)
				}
			})
		})
	}
}

// TestCloseWaitsForWholeHash: the server's Close stops the hash workers
// and returns only once they are gone.
func TestCloseWaitsForWholeHash(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHashTestServer(t)
		data := bytes.Repeat([]byte{9}, 2<<20)
		url := h.session(len(data))
		h.put(url, data, 0, 1<<20)
		synctest.Wait()
		closed := make(chan error, 1)
		go func() { closed <- h.s.Close() }()
		synctest.Wait()
		select {
		case <-closed:
			t.Fatal("Close returned while a hash worker was reading")
		default:
		}
		h.store.gate <- struct{}{}
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		if n := h.store.reads.Load(); n != 1 {
			t.Errorf("%d reads begun, want 1: the worker goes on after Close", n)
		}
	})
}
