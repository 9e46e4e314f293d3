package refserver

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// fakeClock is an injectable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// env is a started server with a client that does not follow redirects.
type env struct {
	t     *testing.T
	s     *Server
	clock *fakeClock
	hc    *http.Client
}

// persistCheck (REFSERVER_PERSIST_CHECK=1) runs the servers of newEnv
// with Options.DataDir and compares, after every request, the database
// with the live state: a state change without its dirty mark fails the
// test that made it. It reads the variable while the tests run, so that
// go test's cache tells a run with it from one without.
func persistCheck() bool { return os.Getenv("REFSERVER_PERSIST_CHECK") != "" }

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	check := persistCheck() && opts.DataDir == "" && opts.Store == nil
	if check {
		opts.DataDir = t.TempDir()
	}
	clock := newFakeClock()
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	if opts.PartSize == 0 {
		opts.PartSize = 4
	}
	if opts.ChunkedMinSize == 0 {
		opts.ChunkedMinSize = 5
	}
	s, err := Start(opts)
	require.NoError(t, err)
	if check {
		s.db.Bolt.NoSync = true // the check is about records, not the disk
		s.db.NoSync = true
		s.db.Check = true
		t.Cleanup(func() { // after Close (cleanups run last first)
			for _, err := range s.db.CheckErrs() {
				t.Errorf("persisted state differs from the live state: %v", err)
			}
			if !t.Failed() {
				checkRestore(t, s, opts)
			}
		})
	}
	t.Cleanup(func() { _ = s.Close() })
	hc := &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport:     &http.Transport{},
	}
	t.Cleanup(hc.CloseIdleConnections)
	return &env{t: t, s: s, clock: clock, hc: hc}
}

type hdr map[string]string

// do sends a request and returns the response with its body read.
func (e *env) do(method, url, token string, body io.Reader, h hdr) (*http.Response, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, url, body)
	require.NoError(e.t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := e.hc.Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	return resp, b
}

func (e *env) doJSON(method, url, token string, v any, h hdr) (*http.Response, map[string]any) {
	e.t.Helper()
	var body io.Reader
	if v != nil {
		switch x := v.(type) {
		case string:
			body = strings.NewReader(x)
		default:
			b, err := json.Marshal(v)
			require.NoError(e.t, err)
			body = bytes.NewReader(b)
		}
		if h == nil {
			h = hdr{}
		}
		if _, ok := h["Content-Type"]; !ok {
			h["Content-Type"] = "application/json"
		}
	}
	resp, b := e.do(method, url, token, body, h)
	return resp, decodeMap(e.t, b)
}

func decodeMap(t *testing.T, b []byte) map[string]any {
	t.Helper()
	if len(b) == 0 {
		return nil
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "body: %s", b)
	return m
}

// requireAPIError checks status, code and the error body shape.
func requireAPIError(t *testing.T, resp *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	require.Equal(t, status, resp.StatusCode, "body: %v", body)
	require.NotNil(t, body, "error body")
	require.Equal(t, "error", body["type"])
	require.EqualValues(t, status, body["status"])
	require.Equal(t, code, body["code"], "body: %v", body)
	require.Equal(t, wire.HelpURL, body["help_url"])
	require.NotEmpty(t, body["request_id"])
	require.Equal(t, body["request_id"], resp.Header.Get("box-request-id"))
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
}

func (e *env) api(p string) string    { return e.s.BaseURL() + p }
func (e *env) upload(p string) string { return e.s.UploadURL() + p }

func (e *env) createFolder(token, parent, name string) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("POST", e.api("/folders"), token, map[string]any{"name": name, "parent": map[string]any{"id": parent}}, nil)
	require.Equal(e.t, http.StatusCreated, resp.StatusCode, "%v", m)
	return m
}

// multipartBody builds an upload body; order lists "attributes" and "file".
func multipartBody(t testing.TB, attrs string, data []byte, order ...string) (io.Reader, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if len(order) == 0 {
		order = []string{"attributes", "file"}
	}
	for _, o := range order {
		switch o {
		case "attributes":
			require.NoError(t, mw.WriteField("attributes", attrs))
		case "file":
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", `form-data; name="file"; filename="blob"`)
			h.Set("Content-Type", "application/octet-stream")
			w, err := mw.CreatePart(h)
			require.NoError(t, err)
			_, _ = w.Write(data)
		}
	}
	require.NoError(t, mw.Close())
	return &buf, mw.FormDataContentType()
}

func (e *env) uploadRaw(token, url, attrs string, data []byte, h hdr, order ...string) (*http.Response, map[string]any) {
	e.t.Helper()
	body, ct := multipartBody(e.t, attrs, data, order...)
	if h == nil {
		h = hdr{}
	}
	h["Content-Type"] = ct
	resp, b := e.do("POST", url, token, body, h)
	return resp, decodeMap(e.t, b)
}

// uploadFile uploads a new file and returns its File--Full record.
func (e *env) uploadFile(token, parent, name string, data []byte) map[string]any {
	e.t.Helper()
	attrs := fmt.Sprintf(`{"name":%q,"parent":{"id":%q}}`, name, parent)
	resp, m := e.uploadRaw(token, e.upload("/files/content"), attrs, data, nil)
	require.Equal(e.t, http.StatusCreated, resp.StatusCode, "%v", m)
	require.EqualValues(e.t, 1, m["total_count"])
	return m["entries"].([]any)[0].(map[string]any)
}

func sha1Hex(b []byte) string { s := sha1.Sum(b); return hex.EncodeToString(s[:]) }

func digestOf(b []byte) string {
	s := sha1.Sum(b)
	return "sha=" + base64.StdEncoding.EncodeToString(s[:])
}

// snapshot is a fingerprint of the server state, to check that rejected
// requests change nothing.
func snapshot(s *Server) string {
	tx, end := beginTx(s.st)
	defer end()
	var lines []string
	for _, it := range tx.Items.All() {
		l := fmt.Sprintf("%s %s %q parent=%s seq=%d owner=%s", it.Typ, it.ID, it.Name, it.ParentID, it.Seq, it.Owner.ID)
		for _, v := range it.Versions {
			l += fmt.Sprintf(" v%s:%s", v.ID, v.Blob.SHA1())
		}
		lines = append(lines, l)
	}
	for _, ss := range tx.Sessions.All() {
		l := fmt.Sprintf("session %s size=%d", ss.ID, ss.FileSize)
		for _, pt := range state.SortedParts(ss) {
			l += fmt.Sprintf(" %s@%d+%d", pt.ID, pt.Offset, pt.Size)
		}
		lines = append(lines, l)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func blobCount(t *testing.T, s *Server) int {
	t.Helper()
	small := 0
	d, ok := s.st.Store.(*blob.Dir)
	if sb, isSmall := s.st.Store.(*persist.SmallBlobs); isSmall {
		d, ok, small = sb.Dir(), true, sb.Len()
	}
	if ok {
		blobs, err := filepath.Glob(filepath.Join(d.Path(), "*.blob"))
		require.NoError(t, err)
		// Parts of open upload sessions count as blobs: they are in their
		// session's assembly file until the commit or the abort.
		tx, end := beginTx(s.st)
		defer end()
		parts := 0
		for _, ss := range tx.Sessions.All() {
			if id := ss.Asm.ID(); id != "" {
				if _, err := os.Stat(filepath.Join(d.Path(), blob.AssemblyFile(id))); err == nil {
					parts += len(ss.Parts)
				}
			}
		}
		return len(blobs) + parts + small
	}
	m, ok := s.st.Store.(*blob.Memory)
	require.True(t, ok)
	return m.Len() // parts of open upload sessions count as blobs
}

// jsonEncode writes v as JSON.
func jsonEncode(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// beginTx opens a transaction of st that stays open across statements
// until end is called: for tests that set up or read the model over
// several steps. The transaction is an ordinary Update, run on a goroutine
// that holds it until end.
func beginTx(st *state.State) (tx *state.Tx, end func()) {
	txc, done := make(chan *state.Tx), make(chan struct{})
	go st.Update(func(tx *state.Tx) {
		txc <- tx
		<-done
	})
	return <-txc, func() { close(done) }
}
