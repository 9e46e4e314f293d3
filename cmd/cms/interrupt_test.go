package main

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"regexp"
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

// TestInterruptAbortsSessions: an upload session the interrupted upload of
// a file kept is aborted, not left open on the service. (A tree upload's
// sessions are the SDK's to abort: its result does not name them.)
func TestInterruptAbortsSessions(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{ChunkedMinSize: 1000, PartSize: 1024})
	c := newCLI(t, srv)
	api := srv.Client(t)
	src := t.TempDir()
	put(t, filepath.Join(src, "big.bin"), strings.Repeat("b", 5000))
	for i, args := range [][]string{
		{"upload", "--chunked-threshold", "1000", filepath.Join(src, "big.bin"), "/one"},
	} {
		code, _, mkErr := c.run("mkdir", args[len(args)-1])
		require.Equal(t, exitOK, code, "%d: %s", i, mkErr)
		ctx, cancel := context.WithCancel(context.Background())
		env := map[string]string{}
		for k, v := range c.env {
			env[k] = v
		}
		env["CMS_UPLOAD_URL"] = cancellingProxyOn(t, srv.UploadURL(), cancel, func(r *http.Request) bool { return r.Method == http.MethodPut })
		var out, errOut bytes.Buffer
		code = run(ctx, args, &out, &errOut, func(k string) string { return env[k] })
		cancel()
		require.Equal(t, exitInterrupted, code, "%v: %s", args, errOut.String())
		m := regexp.MustCompile(`aborted upload session (\S+)`).FindStringSubmatch(errOut.String())
		require.NotNil(t, m, "%v: %s", args, errOut.String())
		_, _, err := api.Uploads.GetSession(context.Background(), m[1])
		assert.ErrorIs(t, err, cms.ErrNotFound, "the session is gone")
	}
}
