package cms_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Folder locks, favorites, recent items and a zip download's status
// outlive a restart of a persisted reference server.
func TestFamiliesPersistAcrossRestart(t *testing.T) {
	ctx := context.Background()
	opts := refserver.Options{DataDir: t.TempDir()}
	start := func() (*refserver.Server, *cms.Client) {
		srv, err := refserver.Start(opts)
		require.NoError(t, err)
		c, err := cms.NewClient(cms.WithToken(srv.UserToken()), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()),
			cms.WithRetryPolicy(fastRetries))
		require.NoError(t, err)
		return srv, c
	}
	srv, c := start()
	dir, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Kept", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	f, _, err := c.Files.Upload(ctx, dir.ID, "k.txt", strings.NewReader("kept"), 4, nil)
	require.NoError(t, err)
	lock, _, err := c.FolderLocks.Create(ctx, dir.ID)
	require.NoError(t, err)
	favs, _, err := c.Collections.Favorites(ctx)
	require.NoError(t, err)
	_, _, err = c.Collections.AddItem(ctx, favs.ID, cms.ItemRef{Type: cms.ItemTypeFile, ID: f.ID})
	require.NoError(t, err)
	var archive bytes.Buffer
	res, _, err := c.ZipDownloads.Download(ctx, &cms.CreateZipDownloadRequest{Items: []cms.ZipItem{cms.ZipFolder(dir.ID)}}, &archive,
		&cms.ZipDownloadOptions{Poll: &cms.PollOptions{Interval: time.Millisecond}})
	require.NoError(t, err)
	recent, _, err := c.RecentItems.List(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, srv.Close())

	srv2, c2 := start()
	defer srv2.Close()
	require.True(t, srv2.Restored())
	locks, _, err := c2.FolderLocks.ListByFolder(ctx, dir.ID)
	require.NoError(t, err)
	require.Len(t, locks.Entries, 1)
	assert.Equal(t, lock.ID, locks.Entries[0].ID)
	_, err = c2.Folders.Delete(ctx, dir.ID, &cms.DeleteFolderOptions{Recursive: true})
	st, _ := apiStatusCode(t, err)
	assert.Equal(t, 403, st, "still locked")
	favs2, _, err := c2.Collections.Favorites(ctx)
	require.NoError(t, err)
	assert.Equal(t, favs.ID, favs2.ID)
	items, _, err := c2.Collections.ListItems(ctx, favs.ID, nil)
	require.NoError(t, err)
	require.Len(t, items.Entries, 1)
	assert.Equal(t, f.ID, items.Entries[0].ID)
	moved := *res.ZipDownload // the restarted server listens on another port
	moved.StatusURL = srv2.BaseURL() + res.ZipDownload.StatusURL[strings.Index(res.ZipDownload.StatusURL, "/zip_downloads/"):]
	status, _, err := c2.ZipDownloads.Status(ctx, &moved)
	require.NoError(t, err)
	assert.Equal(t, res.Status, status)
	recent2, _, err := c2.RecentItems.List(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, recent, recent2)
	id, _, err := c2.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "After", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	assert.NotEqual(t, lock.ID, id.ID, "ids go on after the restart")
}
