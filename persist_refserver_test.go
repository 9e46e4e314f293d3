package cms_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A chunked upload stopped half-way outlives a restart of a persisted
// reference server (Options.DataDir): Resume on the new server, with the
// same token, sends only the missing parts and commits. cmd/refserver's
// tests do the same with a server process killed by SIGKILL.
func TestResumeAcrossPersistedRefserverRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := refserver.Options{DataDir: dir, PartSize: testPartSize, ChunkedMinSize: 1}
	srv, c := uploadServer(t, opts)
	data := make([]byte, 12*testPartSize+7)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	stop, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	errStop := errors.New("stopped half-way")
	_, _, err := c.Uploads.UploadChunked(stop, "0", "half.bin", bytes.NewReader(data), int64(len(data)), &cms.ChunkedUploadOptions{
		Concurrency: 1,
		Progress: func(p cms.Progress) {
			if p.PartsDone == 5 {
				cancel(errStop)
			}
		},
	})
	var uerr *cms.UploadError
	require.ErrorAs(t, err, &uerr)
	require.True(t, uerr.SessionKept)
	before := srv.Requests()
	require.NoError(t, srv.Close())

	srv2, c2 := uploadServer(t, opts)
	require.True(t, srv2.Restored())
	assert.Equal(t, srv.UserToken(), srv2.UserToken())
	f, _, err := c2.Uploads.Resume(ctx, uerr.SessionID, bytes.NewReader(data), int64(len(data)), nil)
	require.NoError(t, err)
	sum := sha1.Sum(data)
	assert.Equal(t, hex.EncodeToString(sum[:]), f.SHA1)
	info, ok := srv2.UploadSession(uerr.SessionID)
	require.True(t, ok)
	assert.Equal(t, refserver.SessionCommitted, info.State)
	puts := 0
	for _, r := range srv2.Requests() {
		if r.Method == "PUT" {
			puts++
		}
	}
	stored := 0
	for _, r := range before {
		if r.Method == "PUT" && r.Status == 200 {
			stored++
		}
	}
	assert.Equal(t, info.TotalParts-stored, puts, "only the missing parts were sent after the restart")
}
