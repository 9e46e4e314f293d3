package main

import (
	"bytes"
	"context"
	"crypto/sha1"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newCeilingTestServer runs the ceiling's receiving side in the test
// process, writing into a file of its own.
func newCeilingTestServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "file")
	f, err := os.Create(dst)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	srv := httptest.NewServer(&ceilingServer{dst: f, landed: map[int64]int64{}, whole: sha1.New()})
	t.Cleanup(srv.Close)
	return srv, dst
}

// TestCeilingUploadLandsTheFile uploads a file through the ceiling's
// clients (the file's and the reader's), whose workers send parts out of
// order at concurrency 3, and checks the receiver's copy and that its
// whole-file hash worker agreed with the client's digest at the commit.
func TestCeilingUploadLandsTheFile(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	content := bytes.Repeat([]byte("0123456789abcdef"), 70_001) // parts of 64 KiB, the last one short
	require.NoError(t, os.WriteFile(src, content, 0o600))
	for name, upload := range map[string]ceilingUploader{"file": ceilingUpload, "reader": ceilingReaderUpload} {
		srv, dst := newCeilingTestServer(t)
		require.NoError(t, upload(context.Background(), srv.URL, src, int64(len(content)), 64<<10, 3), name)
		got, err := os.ReadFile(dst)
		require.NoError(t, err)
		assert.Equal(t, content, got, name)
	}
}

// TestCeilingCommitChecksTheWholeDigest: parts landed out of order are
// hashed by the worker once the run is contiguous, and the commit refuses a
// digest that is not the file's.
func TestCeilingCommitChecksTheWholeDigest(t *testing.T) {
	srv, _ := newCeilingTestServer(t)
	ctx := context.Background()
	hc := srv.Client()
	a, b := bytes.Repeat([]byte{'a'}, 1000), bytes.Repeat([]byte{'b'}, 700)
	for _, p := range []struct {
		off int64
		buf []byte
	}{{1000, b}, {0, a}} { // the second part first: no worker until the first lands
		sum := sha1.Sum(p.buf)
		require.NoError(t, putCeilingPart(ctx, hc, srv.URL, p.off, int64(len(p.buf)), bytes.NewReader(p.buf), sum[:]))
	}
	assert.Error(t, ceilingCommit(ctx, hc, srv.URL, make([]byte, sha1.Size)))
	whole := sha1.Sum(append(append([]byte{}, a...), b...))
	require.NoError(t, ceilingCommit(ctx, hc, srv.URL, whole[:]))

	bad := sha1.Sum([]byte("x"))
	err := putCeilingPart(ctx, hc, srv.URL, 1700, 1, bytes.NewReader([]byte("y")), bad[:])
	assert.Error(t, err, "a part whose digest is wrong")
}
