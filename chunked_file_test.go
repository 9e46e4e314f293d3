package cms_test

import (
	"context"
	"os"
	"path/filepath"
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
