package cms_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/require"
)

// TestEverydayContentAgainstRefServer: the SDK's Update, Lock, Unlock and
// Copy of files and folders, and FileVersions, against the reference
// server — the wire shapes the wire tests pin are the ones the server
// takes and answers.
func TestEverydayContentAgainstRefServer(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	admin := srv.AdminClient(t)
	ctx := context.Background()
	mk := func(parent, name string) *cms.Folder {
		f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: parent}}, nil)
		require.NoError(t, err)
		return f
	}
	a, b := mk("0", "a"), mk("0", "b")
	sub := mk(a.ID, "sub")
	f, _, err := c.Files.Upload(ctx, a.ID, "f.txt", strings.NewReader("v1"), 2, nil)
	require.NoError(t, err)

	// Rename, move, describe and tag a file, with if-match.
	got, _, err := c.Files.Update(ctx, f.ID, &cms.UpdateFileRequest{Name: "g.txt", Parent: &cms.FolderRef{ID: b.ID},
		Description: cms.Ptr("moved"), Tags: []string{"t1"}}, &cms.UpdateItemOptions{IfMatch: f.ETag, Fields: []string{"name", "parent", "description", "tags"}})
	require.NoError(t, err)
	require.Equal(t, "g.txt", got.Name)
	require.Equal(t, b.ID, got.Parent.ID)
	require.Equal(t, []string{"t1"}, got.Tags)
	_, _, err = c.Files.Update(ctx, f.ID, &cms.UpdateFileRequest{Name: "h.txt"}, &cms.UpdateItemOptions{IfMatch: f.ETag})
	require.ErrorIs(t, err, cms.ErrPreconditionFailed)

	// Folders: a cycle is refused, a move works.
	_, _, err = c.Folders.Update(ctx, a.ID, &cms.UpdateFolderRequest{Parent: &cms.FolderRef{ID: sub.ID}}, nil)
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 400, apiErr.StatusCode)
	moved, _, err := c.Folders.Update(ctx, sub.ID, &cms.UpdateFolderRequest{Name: "sub2", Parent: &cms.FolderRef{ID: b.ID}}, nil)
	require.NoError(t, err)
	require.Equal(t, "sub2", moved.Name)
	_, _, err = c.Folders.Update(ctx, moved.ID, &cms.UpdateFolderRequest{Name: "G.TXT"}, nil)
	require.ErrorIs(t, err, cms.ErrItemNameInUse)

	// Lock: the admin cannot rename or download it; unlock.
	locked, _, err := c.Files.Lock(ctx, f.ID, &cms.LockRequest{IsDownloadPrevented: true}, &cms.UpdateItemOptions{Fields: []string{"lock"}})
	require.NoError(t, err)
	require.NotNil(t, locked.Lock)
	require.True(t, locked.Lock.IsDownloadPrevented)
	_, _, err = admin.Files.Update(ctx, f.ID, &cms.UpdateFileRequest{Name: "x.txt"}, nil)
	require.ErrorIs(t, err, cms.ErrAccessDeniedItemLocked)
	_, _, err = admin.Files.DownloadTo(ctx, f.ID, io.Discard, nil)
	require.ErrorIs(t, err, cms.ErrAccessDeniedItemLocked)
	unlocked, _, err := c.Files.Unlock(ctx, f.ID, &cms.UpdateItemOptions{Fields: []string{"lock"}})
	require.NoError(t, err)
	require.Nil(t, unlocked.Lock)

	// Versions: two more, list, trash, restore, promote.
	for _, v := range []string{"v2", "v3"} {
		_, _, err := c.Files.UploadVersion(ctx, f.ID, strings.NewReader(v), int64(len(v)), nil)
		require.NoError(t, err)
	}
	var versions []*cms.FileVersion
	for v, err := range c.FileVersions.ListByFileIter(ctx, f.ID, &cms.ListFileVersionsOptions{Limit: 1}) {
		require.NoError(t, err)
		versions = append(versions, v)
	}
	require.Len(t, versions, 2, "over two pages of one; the current version is not listed")
	v1 := versions[1]
	_, err = c.FileVersions.Delete(ctx, f.ID, v1.ID, nil)
	require.NoError(t, err)
	trashed, _, err := c.FileVersions.Get(ctx, f.ID, v1.ID, nil)
	require.NoError(t, err)
	require.False(t, trashed.TrashedAt.IsZero())
	restored, _, err := c.FileVersions.Restore(ctx, f.ID, v1.ID)
	require.NoError(t, err)
	require.True(t, restored.TrashedAt.IsZero())
	require.False(t, restored.RestoredAt.IsZero())
	promoted, _, err := c.FileVersions.Promote(ctx, f.ID, v1.ID, nil)
	require.NoError(t, err)
	require.Equal(t, v1.SHA1, promoted.SHA1)
	var buf bytes.Buffer
	_, _, err = c.Files.DownloadTo(ctx, f.ID, &buf, nil)
	require.NoError(t, err)
	require.Equal(t, "v1", buf.String())

	// Copies.
	fc, _, err := c.Files.Copy(ctx, f.ID, &cms.CopyFileRequest{Parent: cms.FolderRef{ID: a.ID}, Name: "copy.txt"}, nil)
	require.NoError(t, err)
	require.Equal(t, "copy.txt", fc.Name)
	bc, _, err := c.Folders.Copy(ctx, b.ID, &cms.CopyFolderRequest{Parent: cms.FolderRef{ID: a.ID}}, nil)
	require.NoError(t, err)
	require.Equal(t, "b", bc.Name)
	n := 0
	for _, err := range c.Folders.Walk(ctx, bc.ID, nil) {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, 2, n, "the copy holds g.txt and sub2")
	_, _, err = c.Folders.Copy(ctx, b.ID, &cms.CopyFolderRequest{Parent: cms.FolderRef{ID: a.ID}}, nil)
	require.True(t, errors.Is(err, cms.ErrItemNameInUse), "%v", err)
}
