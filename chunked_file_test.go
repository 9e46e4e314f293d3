package cms_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUploadChunkedFromFile: an *os.File source is sent part by part from
// the file itself (sendfile on Linux), also after the file was renamed and
// deleted while open; a pipe, which is an *os.File without ReadAt, is read
// through part buffers.
func TestUploadChunkedFromFile(t *testing.T) {
	t.Parallel()
	_, c := uploadServer(t, refserver.Options{})
	ctx := context.Background()
	content, want := randomContent(5*testPartSize+1234, 11)
	dir := t.TempDir()
	path := filepath.Join(dir, "src.bin")
	require.NoError(t, os.WriteFile(path, content, 0o600))

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	up, _, err := c.Uploads.UploadChunked(ctx, "0", "from-file.bin", f, int64(len(content)), &cms.ChunkedUploadOptions{Concurrency: 3})
	require.NoError(t, err)
	assert.Equal(t, want, up.SHA1)

	require.NoError(t, os.Rename(path, path+".moved"))
	require.NoError(t, os.Remove(path+".moved"))
	up, _, err = c.Uploads.UploadChunked(ctx, "0", "from-deleted-file.bin", f, int64(len(content)), nil)
	require.NoError(t, err)
	assert.Equal(t, want, up.SHA1, "the open file is read, whatever its name")

	r, w, err := os.Pipe()
	require.NoError(t, err)
	go func() {
		_, _ = w.Write(content)
		w.Close()
	}()
	defer r.Close()
	up, _, err = c.Uploads.UploadChunked(ctx, "0", "from-pipe.bin", r, int64(len(content)), nil)
	require.NoError(t, err)
	assert.Equal(t, want, up.SHA1)
}

// countingReaderAt counts the bytes read through ReadAt and fails reads at
// or past failAt (when set).
type countingReaderAt struct {
	r      *bytes.Reader
	read   atomic.Int64
	failAt int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if c.failAt > 0 && off+int64(len(p)) > c.failAt {
		return 0, errors.New("disk on fire")
	}
	n, err := c.r.ReadAt(p, off)
	c.read.Add(int64(n))
	return n, err
}

func (c *countingReaderAt) Read([]byte) (int, error) {
	return 0, errors.New("an io.ReaderAt source is read with ReadAt")
}

// TestUploadChunkedReadsAReaderAtOnceForItsHashes: an io.ReaderAt source is
// read once for both digests (the whole file's and each part's) and once
// more, part by part, as the bodies are sent: twice its size in all. A
// source that ends early, or fails, stops the upload with what happened.
func TestUploadChunkedReadsAReaderAtOnceForItsHashes(t *testing.T) {
	t.Parallel()
	_, c := uploadServer(t, refserver.Options{})
	ctx := context.Background()
	const size = 7*testPartSize + 4321
	content, want := randomContent(size, 12)

	src := &countingReaderAt{r: bytes.NewReader(content)}
	up, _, err := c.Uploads.UploadChunked(ctx, "0", "read-once.bin", src, size, &cms.ChunkedUploadOptions{Concurrency: 3})
	require.NoError(t, err)
	assert.Equal(t, want, up.SHA1)
	assert.Equal(t, int64(2*size), src.read.Load(), "hashed from one read, sent from another")

	_, _, err = c.Uploads.UploadChunked(ctx, "0", "short.bin", &countingReaderAt{r: bytes.NewReader(content)}, size+10, nil)
	var short *cms.SourceSizeError
	require.ErrorAs(t, err, &short)
	assert.Equal(t, int64(size), short.Read, "says how many bytes were read")

	_, _, err = c.Uploads.UploadChunked(ctx, "0", "failing.bin", &countingReaderAt{r: bytes.NewReader(content), failAt: 3*testPartSize + 1}, size, nil)
	assert.ErrorContains(t, err, fmt.Sprintf("reading part at %d: disk on fire", 3*testPartSize))
}
