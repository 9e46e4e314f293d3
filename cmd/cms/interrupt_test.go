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
	"strings"
	"sync"
	"testing"

	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cancellingProxy forwards to the upload root and cancels the command's
// context on the first request it sees: ctrl-C in the middle of a
// transfer, in-process.
func cancellingProxy(t *testing.T, target string, cancel context.CancelFunc) string {
	u, err := url.Parse(target)
	require.NoError(t, err)
	var once sync.Once
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	rp.ErrorLog = log.New(io.Discard, "", 0)
	ps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(cancel)
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
