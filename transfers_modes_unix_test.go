//go:build unix

package cms_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDownloadModes: new files get 0o666 and new directories 0o777, less
// the umask (as os.Create and os.Mkdir give them); a replaced file keeps
// its mode. Not parallel: the umask is the process's.
func TestDownloadModes(t *testing.T) {
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	root, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "modes", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	sub, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "sub", Parent: cms.FolderRef{ID: root.ID}}, nil)
	require.NoError(t, err)
	script, _, err := c.Files.UploadInOneRequest(ctx, root.ID, "run.sh", strings.NewReader("echo 1"), 6, nil)
	require.NoError(t, err)
	_, _, err = c.Files.UploadInOneRequest(ctx, sub.ID, "data.txt", strings.NewReader("d"), 1, nil)
	require.NoError(t, err)

	dst := filepath.Join(t.TempDir(), "out")
	_, err = c.Transfers.DownloadDir(ctx, root.ID, dst, nil)
	require.NoError(t, err)
	mode := func(p string) os.FileMode {
		fi, err := os.Stat(filepath.Join(dst, p))
		require.NoError(t, err)
		return fi.Mode().Perm()
	}
	assert.Equal(t, os.FileMode(0o775), mode("."), "the target directory")
	assert.Equal(t, os.FileMode(0o775), mode("sub"))
	assert.Equal(t, os.FileMode(0o664), mode("run.sh"))
	assert.Equal(t, os.FileMode(0o664), mode("sub/data.txt"))

	// A replaced file keeps its mode, through a tree and a single download.
	require.NoError(t, os.Chmod(filepath.Join(dst, "run.sh"), 0o755))
	_, _, err = c.Files.UploadVersion(ctx, script.ID, strings.NewReader("echo 2"), 6, nil)
	require.NoError(t, err)
	res, err := c.Transfers.DownloadDir(ctx, root.ID, dst, nil)
	require.NoError(t, err)
	require.Equal(t, 1, res.Updated)
	assert.Equal(t, os.FileMode(0o755), mode("run.sh"))
	require.NoError(t, os.Chmod(filepath.Join(dst, "run.sh"), 0o700))
	_, _, err = c.Files.UploadVersion(ctx, script.ID, strings.NewReader("echo 3"), 6, nil)
	require.NoError(t, err)
	res, err = c.Transfers.DownloadFile(ctx, script.ID, dst, nil)
	require.NoError(t, err)
	require.Equal(t, 1, res.Updated)
	assert.Equal(t, os.FileMode(0o700), mode("run.sh"))

	// A new single file too.
	res, err = c.Transfers.DownloadFile(ctx, script.ID, filepath.Join(dst, "copy.sh"), nil)
	require.NoError(t, err)
	require.Equal(t, 1, res.Created)
	assert.Equal(t, os.FileMode(0o664), mode("copy.sh"))
}
