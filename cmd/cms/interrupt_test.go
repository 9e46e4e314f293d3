package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cancellingProxy forwards to the upload root and cancels the command's
// context on the first request it sees: ctrl-C in the middle of a
// transfer, in-process.
func cancellingProxy(t *testing.T, target string, cancel context.CancelFunc) string {
	return cancellingProxyOn(t, target, cancel, func(*http.Request) bool { return true })
}

// cancellingProxyOn cancels on the first request when says yes.
func cancellingProxyOn(t *testing.T, target string, cancel context.CancelFunc, when func(*http.Request) bool) string {
	u, err := url.Parse(target)
	require.NoError(t, err)
	var once sync.Once
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	rp.ErrorLog = log.New(io.Discard, "", 0)
	ps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if when(r) {
			once.Do(cancel)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ps.Close)
	return ps.URL + u.Path
}

// TestInterruptedTransfer: a transfer interrupted says "interrupted" (not
// "context canceled") and exits 130, with --json too.
func TestInterruptedTransfer(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	src := t.TempDir()
	for i := range 8 {
		put(t, filepath.Join(src, "d", string(rune('a'+i))+".txt"), strings.Repeat("x", 1000))
	}
	for i, args := range [][]string{
		{"upload", src, "/one"},
		{"upload", "--json", src, "/two"},
		{"upload", filepath.Join(src, "d", "a.txt"), "/three"},
	} {
		code, _, mkErr := c.run("mkdir", args[len(args)-1])
		require.Equal(t, exitOK, code, "%d: %s", i, mkErr)
		ctx, cancel := context.WithCancel(context.Background())
		env := map[string]string{}
		for k, v := range c.env {
			env[k] = v
		}
		env["CMS_UPLOAD_URL"] = cancellingProxy(t, srv.UploadURL(), cancel)
		var out, errOut bytes.Buffer
		code = run(ctx, args, &out, &errOut, func(k string) string { return env[k] })
		cancel()
		assert.Equal(t, exitInterrupted, code, "%v: %s", args, errOut.String())
		assert.Contains(t, errOut.String(), "interrupted", args)
		assert.NotContains(t, errOut.String(), "context canceled", args)
	}

	// Interrupted before anything: the same.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"download", "folder:0", t.TempDir()}, &out, &errOut, func(k string) string { return c.env[k] })
	assert.Equal(t, exitInterrupted, code, errOut.String())
	assert.Equal(t, "cms: download: interrupted\n", errOut.String())
}

// sessionSpy forwards to the upload root, remembers the id of every upload
// session created, and cancels the command's context on the first part
// sent: ctrl-C in the middle of a chunked upload.
type sessionSpy struct {
	mu  sync.Mutex
	ids []string
}

func (sp *sessionSpy) proxy(t *testing.T, target string, cancel context.CancelFunc) string {
	u, err := url.Parse(target)
	require.NoError(t, err)
	var once sync.Once
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	rp.ErrorLog = log.New(io.Discard, "", 0)
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method != http.MethodPost || !strings.HasSuffix(resp.Request.URL.Path, "/upload_sessions") {
			return nil
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		var sess struct{ ID string }
		if json.Unmarshal(b, &sess) == nil && sess.ID != "" {
			sp.mu.Lock()
			sp.ids = append(sp.ids, sess.ID)
			sp.mu.Unlock()
		}
		return nil
	}
	ps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			once.Do(cancel)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ps.Close)
	return ps.URL + u.Path
}

// TestInterruptedChunkedUpload: an upload session an interrupted upload
// leaves is kept, and the next run resumes it (a file and a tree); with
// --no-resume it is aborted, not left open on the service.
func TestInterruptedChunkedUpload(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{ChunkedMinSize: 1000, PartSize: 1024})
	c := newCLI(t, srv)
	api := srv.Client(t)
	src := t.TempDir()
	content := strings.Repeat("0123456789", 500)
	put(t, filepath.Join(src, "big.bin"), content)
	interrupted := func(args ...string) []string {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		env := map[string]string{}
		for k, v := range c.env {
			env[k] = v
		}
		spy := &sessionSpy{}
		env["CMS_UPLOAD_URL"] = spy.proxy(t, srv.UploadURL(), cancel)
		var out, errOut bytes.Buffer
		code := run(ctx, args, &out, &errOut, func(k string) string { return env[k] })
		require.Equal(t, exitInterrupted, code, "%v: %s", args, errOut.String())
		require.NotEmpty(t, spy.ids, "%v: a session was made", args)
		return append(spy.ids, errOut.String())
	}
	for i, args := range [][]string{
		{"upload", "--chunked-threshold", "1000", filepath.Join(src, "big.bin"), "/one"},
		{"upload", "--chunked-threshold", "1000", src, "/tree"},
	} {
		dest := args[len(args)-1]
		c.runOK("mkdir", dest)
		got := interrupted(args...)
		assert.Contains(t, got[len(got)-1], "1 upload sessions kept", i)
		store, err := cms.LoadFileSessionStore(c.env["CMS_UPLOAD_SESSIONS"])
		require.NoError(t, err)
		assert.Equal(t, 1, store.Len(), i)
		_, _, err = api.Uploads.GetSession(context.Background(), got[0])
		require.NoError(t, err, "%d: the session is open for the next run", i)

		c.runOK(args...)
		assert.Equal(t, content, c.runOK("cat", dest+"/big.bin"), i)
		store, err = cms.LoadFileSessionStore(c.env["CMS_UPLOAD_SESSIONS"])
		require.NoError(t, err)
		assert.Equal(t, 0, store.Len(), "%d: resumed and forgotten", i)
		c.runOK("rm", dest+"/big.bin")

		got = interrupted(append([]string{"upload", "--no-resume"}, args[1:]...)...)
		_, _, err = api.Uploads.GetSession(context.Background(), got[0])
		assert.ErrorIs(t, err, cms.ErrNotFound, "%d: --no-resume: the session is aborted", i)
	}
}
