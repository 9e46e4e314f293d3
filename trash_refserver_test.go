package cms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrashRestoreAndPurge(t *testing.T) {
	t.Parallel()
	_, c := refServer(t, cmstest.Options{})
	ctx := context.Background()

	dir, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Work", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	f, _, err := c.Files.Upload(ctx, dir.ID, "plan.txt", strings.NewReader("plan"), 4, nil)
	require.NoError(t, err)

	_, err = c.Files.Delete(ctx, f.ID, nil)
	require.NoError(t, err)
	_, _, err = c.Files.Get(ctx, f.ID, nil)
	require.ErrorIs(t, err, cms.ErrNotFound)

	trashed, _, err := c.Trash.GetFile(ctx, f.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, "trashed", trashed.ItemStatus)
	assert.False(t, trashed.TrashedAt.IsZero())
	assert.True(t, trashed.PurgedAt.After(trashed.TrashedAt))

	// The name is taken by now: the restore is a conflict naming the new file.
	clash, _, err := c.Files.Upload(ctx, dir.ID, "plan.txt", strings.NewReader("new"), 3, nil)
	require.NoError(t, err)
	_, _, err = c.Trash.RestoreFile(ctx, f.ID, nil, nil)
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	require.ErrorIs(t, err, cms.ErrConflict)
	assert.Equal(t, "item_name_in_use", apiErr.Code)
	assert.ErrorIs(t, err, cms.ErrItemNameInUse)
	assert.Equal(t, clash.ID, apiErr.Conflicts()[0].ID)

	restored, resp, err := c.Trash.RestoreFile(ctx, f.ID, &cms.RestoreRequest{Name: "plan (old).txt"}, nil)
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, "plan (old).txt", restored.Name)
	assert.Equal(t, "active", restored.ItemStatus)
	assert.True(t, restored.TrashedAt.IsZero())

	// A folder restores with its content; a folder gone needs a new parent.
	_, err = c.Folders.Delete(ctx, dir.ID, &cms.DeleteFolderOptions{Recursive: true})
	require.NoError(t, err)
	folder, _, err := c.Trash.GetFolder(ctx, dir.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, "Trash", folder.PathCollection.Entries[0].Name)
	_, _, err = c.Trash.GetFile(ctx, clash.ID, nil)
	require.ErrorIs(t, err, cms.ErrNotFound, "content trashed with its folder is reached through the folder")
	_, _, err = c.Trash.RestoreFolder(ctx, dir.ID, nil, nil)
	require.NoError(t, err)
	page, _, err := c.Folders.ListItems(ctx, dir.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, page.TotalCount)

	_, err = c.Files.Delete(ctx, clash.ID, nil)
	require.NoError(t, err)
	_, err = c.Folders.Delete(ctx, dir.ID, &cms.DeleteFolderOptions{Recursive: true})
	require.NoError(t, err)
	_, err = c.Trash.PurgeFolder(ctx, dir.ID)
	require.NoError(t, err)
	_, _, err = c.Trash.RestoreFile(ctx, clash.ID, nil, nil)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "parent_folder_unavailable", apiErr.Code)
	assert.ErrorIs(t, err, cms.ErrParentFolderUnavailable)
	got, _, err := c.Trash.RestoreFile(ctx, clash.ID, &cms.RestoreRequest{Parent: &cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "0", got.Parent.ID)

	_, err = c.Files.Delete(ctx, got.ID, nil)
	require.NoError(t, err)
	resp, err = c.Trash.PurgeFile(ctx, got.ID)
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
	_, _, err = c.Trash.GetFile(ctx, got.ID, nil)
	require.ErrorIs(t, err, cms.ErrNotFound)
}

func TestTrashListPages(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	var want []string
	for i := range 5 {
		name := fmt.Sprintf("t%d.txt", i)
		f, _, err := c.Files.Upload(ctx, "0", name, strings.NewReader("x"), 1, nil)
		require.NoError(t, err)
		_, err = c.Files.Delete(ctx, f.ID, nil)
		require.NoError(t, err)
		want = append(want, name)
	}

	page, _, err := c.Trash.ListItems(ctx, &cms.ListTrashOptions{Limit: 2, Sort: cms.TrashSortName})
	require.NoError(t, err)
	assert.Equal(t, 5, page.TotalCount)
	assert.Len(t, page.Entries, 2)

	opts := &cms.ListTrashOptions{Limit: 2, Fields: []string{"name", "trashed_at"}}
	var names []string
	for it, err := range c.Trash.ListItemsIter(ctx, opts) {
		require.NoError(t, err)
		require.NotNil(t, it.File)
		assert.False(t, it.File.TrashedAt.IsZero())
		names = append(names, it.Name)
	}
	assert.Equal(t, want, names)
	assert.Equal(t, 0, opts.Offset, "the iterator never changes opts")
	assertQueries := func(has bool) {
		t.Helper()
		reqs := srv.Requests()
		require.NotEmpty(t, reqs)
		for _, r := range reqs {
			assert.Equal(t, has, strings.Contains(r.RawQuery, "usemarker=true"), r.RawQuery)
		}
		srv.ResetRequests()
	}
	srv.ResetRequests()
	for range c.Trash.ListItemsIter(ctx, opts) {
	}
	assertQueries(true) // marker paging by default
	names = nil
	for it, err := range c.Trash.ListItemsIter(ctx, &cms.ListTrashOptions{Limit: 2, Sort: cms.TrashSortName, Direction: "DESC"}) {
		require.NoError(t, err)
		names = append(names, it.Name)
	}
	assert.Equal(t, []string{want[4], want[3], want[2], want[1], want[0]}, names)
	assertQueries(false) // offset paging for a sorted list

	p := c.Trash.NewListItemsPaginator(&cms.ListTrashOptions{Limit: 2})
	pages := 0
	for p.HasMorePages() {
		_, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		pages++
	}
	assert.Equal(t, 3, pages)

	// Marker pages one at a time, resumed from a kept marker.
	mopts := &cms.ListTrashByMarkerOptions{Limit: 2, Fields: []string{"name"}}
	mpag := c.Trash.NewListItemsByMarkerPaginator(mopts)
	names = nil
	var markers []string
	for mpag.HasMorePages() {
		pg, resp, err := mpag.NextPage(ctx)
		require.NoError(t, err)
		assert.Equal(t, pg.NextMarker, resp.NextMarker)
		markers = append(markers, mpag.NextMarker())
		for _, it := range pg.Entries {
			names = append(names, it.Name)
		}
	}
	assert.Equal(t, want, names)
	assert.Len(t, markers, 3, "five items in pages of two")
	assert.Empty(t, mopts.Marker, "the paginator never changes opts")
	resumed := c.Trash.NewListItemsByMarkerPaginator(&cms.ListTrashByMarkerOptions{Limit: 2, Marker: markers[0]})
	pg, _, err := resumed.NextPage(ctx)
	require.NoError(t, err)
	require.Len(t, pg.Entries, 2)
	assert.Equal(t, want[2], pg.Entries[0].Name)

	names = nil
	for it, err := range c.Trash.ListItemsByMarkerIter(ctx, &cms.ListTrashByMarkerOptions{Limit: 2}) {
		require.NoError(t, err)
		names = append(names, it.Name)
	}
	assert.Equal(t, want, names)
	mp, resp, err := c.Trash.ListItemsByMarker(ctx, &cms.ListTrashByMarkerOptions{Limit: 3})
	require.NoError(t, err)
	assert.NotEmpty(t, mp.NextMarker)
	assert.Equal(t, mp.NextMarker, resp.NextMarker)
}

func TestTrashArgumentErrors(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	srv.ResetRequests()
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"get file", func() error { _, _, err := c.Trash.GetFile(ctx, "", nil); return err }, cms.ErrMissingID},
		{"get folder", func() error { _, _, err := c.Trash.GetFolder(ctx, "../x", nil); return err }, cms.ErrInvalidID},
		{"get web link", func() error { _, _, err := c.Trash.GetWebLink(ctx, "", nil); return err }, cms.ErrMissingID},
		{"restore parent", func() error {
			_, _, err := c.Trash.RestoreFile(ctx, "1", &cms.RestoreRequest{Parent: &cms.FolderRef{}}, nil)
			return err
		}, cms.ErrMissingID},
		{"restore folder", func() error { _, _, err := c.Trash.RestoreFolder(ctx, "", nil, nil); return err }, cms.ErrMissingID},
		{"restore web link", func() error { _, _, err := c.Trash.RestoreWebLink(ctx, "a/b", nil, nil); return err }, cms.ErrInvalidID},
		{"purge file", func() error { _, err := c.Trash.PurgeFile(ctx, ""); return err }, cms.ErrMissingID},
		{"purge folder", func() error { _, err := c.Trash.PurgeFolder(ctx, ""); return err }, cms.ErrMissingID},
		{"purge web link", func() error { _, err := c.Trash.PurgeWebLink(ctx, ""); return err }, cms.ErrMissingID},
		{"negative offset", func() error { _, _, err := c.Trash.ListItems(ctx, &cms.ListTrashOptions{Offset: -1}); return err }, cms.ErrInvalidArgument},
		{"bad sort", func() error { _, _, err := c.Trash.ListItems(ctx, &cms.ListTrashOptions{Sort: "id"}); return err }, cms.ErrInvalidArgument},
		{"bad direction", func() error { _, _, err := c.Trash.ListItems(ctx, &cms.ListTrashOptions{Direction: "up"}); return err }, cms.ErrInvalidArgument},
		{"negative marker limit", func() error {
			_, _, err := c.Trash.ListItemsByMarker(ctx, &cms.ListTrashByMarkerOptions{Limit: -1})
			return err
		}, cms.ErrInvalidArgument},
	}
	for _, tc := range cases {
		err := tc.call()
		var argErr *cms.ArgError
		assert.True(t, errors.As(err, &argErr), tc.name)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
	assert.Empty(t, srv.Requests(), "nothing is sent for a rejected argument")

	// The service's errors come back typed.
	_, _, err := c.Trash.GetWebLink(ctx, "123", nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)
	_, err = c.Trash.PurgeWebLink(ctx, "123")
	assert.ErrorIs(t, err, cms.ErrNotFound)
}
