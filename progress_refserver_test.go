package cms_test

import (
	"bytes"
	"context"
	"io"
	"sync/atomic"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// progressLog records Progress calls and fails the test if two overlap or
// if the bytes ever go backwards within one pass.
type progressLog struct {
	t      *testing.T
	inside atomic.Int32
	calls  []cms.Progress
}

func (l *progressLog) fn(p cms.Progress) {
	if l.inside.Add(1) != 1 {
		l.t.Error("progress calls overlap")
	}
	defer l.inside.Add(-1)
	if n := len(l.calls); n > 0 && p.Bytes < l.calls[n-1].Bytes {
		l.t.Errorf("bytes went back: %d after %d", p.Bytes, l.calls[n-1].Bytes)
	}
	l.calls = append(l.calls, p)
}

func (l *progressLog) last() cms.Progress {
	l.t.Helper()
	require.NotEmpty(l.t, l.calls)
	return l.calls[len(l.calls)-1]
}

// TestProgressOnEveryTransfer: the one Progress type reports an upload in
// one request (known and unknown size), a chunked upload, a new version, a
// download and DownloadTo, ending with every byte moved and the total.
func TestProgressOnEveryTransfer(t *testing.T) {
	t.Parallel()
	_, c := refServer(t, cmstest.Options{PartSize: 1 << 20, ChunkedMinSize: 1})
	ctx := context.Background()
	data := bytes.Repeat([]byte("0123456789abcdef"), 200_000) // 3.2 MB
	size := int64(len(data))

	one := &progressLog{t: t}
	f, _, err := c.Files.Upload(ctx, "0", "one.bin", bytes.NewReader(data), size, &cms.UploadOptions{ChunkedThreshold: 1 << 30, Progress: one.fn})
	require.NoError(t, err)
	assert.Equal(t, cms.Progress{Bytes: size, TotalBytes: size}, one.last())
	assert.Greater(t, len(one.calls), 3, "called as the bytes go, not once")

	unknown := &progressLog{t: t}
	_, _, err = c.Files.UploadInOneRequest(ctx, "0", "unknown.bin", io.MultiReader(bytes.NewReader(data)), -1, &cms.OneRequestUploadOptions{Progress: unknown.fn})
	require.NoError(t, err)
	assert.Equal(t, cms.Progress{Bytes: size, TotalBytes: size}, unknown.last(), "the total is known at the end")
	assert.Equal(t, int64(-1), unknown.calls[0].TotalBytes, "unknown while sending")

	parts := &progressLog{t: t}
	_, _, err = c.Files.Upload(ctx, "0", "chunked.bin", bytes.NewReader(data), size, &cms.UploadOptions{ChunkedThreshold: 1, Progress: parts.fn})
	require.NoError(t, err)
	last := parts.last()
	assert.Equal(t, size, last.Bytes)
	assert.Equal(t, size, last.TotalBytes)
	assert.Equal(t, last.TotalParts, last.PartsDone)
	assert.Positive(t, last.TotalParts)
	assert.NotEmpty(t, last.SessionID)

	version := &progressLog{t: t}
	_, _, err = c.Files.UploadVersion(ctx, f.ID, bytes.NewReader(data[:1000]), 1000, &cms.UploadVersionOptions{Progress: version.fn})
	require.NoError(t, err)
	assert.Equal(t, int64(1000), version.last().Bytes)

	down := &progressLog{t: t}
	body, _, err := c.Files.Download(ctx, f.ID, &cms.DownloadOptions{Progress: down.fn})
	require.NoError(t, err)
	n, err := io.Copy(io.Discard, body)
	require.NoError(t, err)
	require.NoError(t, body.Close())
	assert.Equal(t, int64(1000), n)
	assert.Equal(t, int64(1000), down.last().Bytes)

	to := &progressLog{t: t}
	var buf bytes.Buffer
	_, _, err = c.Files.DownloadTo(ctx, f.ID, &buf, &cms.DownloadOptions{Progress: to.fn})
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), to.last().Bytes)

	// A chunked upload's own Progress wins over UploadOptions'.
	own := &progressLog{t: t}
	_, _, err = c.Files.Upload(ctx, "0", "own.bin", bytes.NewReader(data), size, &cms.UploadOptions{ChunkedThreshold: 1,
		Progress: func(cms.Progress) { t.Error("the outer Progress was called") }, Chunked: &cms.ChunkedUploadOptions{Progress: own.fn}})
	require.NoError(t, err)
	assert.Equal(t, size, own.last().Bytes)
}
