package cms_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWatermarksApplyReadRemove(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	dir, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Board", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	f, _, err := c.Files.Upload(ctx, dir.ID, "minutes.txt", strings.NewReader("m"), 1, nil)
	require.NoError(t, err)

	type ops struct {
		name   string
		id     string
		get    func(context.Context, string) (*cms.Watermark, *cms.Response, error)
		apply  func(context.Context, string) (*cms.Watermark, *cms.Response, error)
		remove func(context.Context, string) (*cms.Response, error)
	}
	for _, o := range []ops{
		{"file", f.ID, c.Watermarks.GetFile, c.Watermarks.ApplyFile, c.Watermarks.RemoveFile},
		{"folder", dir.ID, c.Watermarks.GetFolder, c.Watermarks.ApplyFolder, c.Watermarks.RemoveFolder},
	} {
		t.Run(o.name, func(t *testing.T) {
			_, _, err := o.get(ctx, o.id)
			require.ErrorIs(t, err, cms.ErrNotFound, "none yet")
			wm, resp, err := o.apply(ctx, o.id)
			require.NoError(t, err)
			assert.Equal(t, 201, resp.StatusCode)
			assert.True(t, wm.Created)
			assert.False(t, wm.CreatedAt.IsZero())
			again, resp, err := o.apply(ctx, o.id)
			require.NoError(t, err)
			assert.Equal(t, 200, resp.StatusCode)
			assert.False(t, again.Created, "the second apply updates")
			assert.True(t, wm.CreatedAt.Equal(again.CreatedAt))
			got, _, err := o.get(ctx, o.id)
			require.NoError(t, err)
			assert.False(t, got.Created)
			assert.True(t, again.ModifiedAt.Equal(got.ModifiedAt))
			resp, err = o.remove(ctx, o.id)
			require.NoError(t, err)
			assert.Equal(t, 204, resp.StatusCode)
			_, err = o.remove(ctx, o.id)
			require.ErrorIs(t, err, cms.ErrNotFound, "nothing left to remove")
		})
	}

	_, _, err = c.Watermarks.ApplyFolder(ctx, dir.ID)
	require.NoError(t, err)
	got, _, err := c.Files.Get(ctx, f.ID, &cms.GetFileOptions{Fields: []string{"watermark_info"}})
	require.NoError(t, err)
	require.NotNil(t, got.WatermarkInfo)
	assert.True(t, got.WatermarkInfo.IsWatermarked)
	assert.True(t, got.WatermarkInfo.IsWatermarkInherited)

	var apiErr *cms.APIError
	_, _, err = srv.AppClient(t).Watermarks.ApplyFile(ctx, f.ID)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 403, apiErr.StatusCode)

	srv.ResetRequests()
	for _, call := range []func() error{
		func() error { _, _, err := c.Watermarks.GetFile(ctx, ""); return err },
		func() error { _, _, err := c.Watermarks.GetFolder(ctx, "../1"); return err },
		func() error { _, _, err := c.Watermarks.ApplyFile(ctx, ""); return err },
		func() error { _, _, err := c.Watermarks.ApplyFolder(ctx, ""); return err },
		func() error { _, err := c.Watermarks.RemoveFile(ctx, ""); return err },
		func() error { _, err := c.Watermarks.RemoveFolder(ctx, ""); return err },
	} {
		var argErr *cms.ArgError
		assert.True(t, errors.As(call(), &argErr))
	}
	assert.Empty(t, srv.Requests())
}

func TestWatermarkJSON(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	b, err := json.Marshal(cms.Watermark{CreatedAt: at, ModifiedAt: at, Created: true})
	require.NoError(t, err)
	assert.JSONEq(t, `{"watermark":{"created_at":"2026-02-03T04:05:06Z","modified_at":"2026-02-03T04:05:06Z"}}`, string(b))
	var w cms.Watermark
	require.NoError(t, json.Unmarshal(b, &w))
	assert.True(t, at.Equal(w.CreatedAt))
	assert.False(t, w.Created)
}
