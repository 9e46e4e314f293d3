package cms_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pngImage is a w×h PNG.
func pngImage(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))))
	return buf.Bytes()
}

func TestAvatarsRefserver(t *testing.T) {
	t.Parallel()
	srv, user := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t)
	ctx := context.Background()
	pic := pngImage(t, 64, 64)

	_, _, err := user.Avatars.Get(ctx, srv.UserID())
	apiCode(t, err, 404, "not_found")
	got, resp, err := user.Avatars.Upload(ctx, srv.UserID(), cms.AvatarImageTypePNG, bytes.NewReader(pic), int64(len(pic)))
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	require.NotNil(t, got.PicURLs)
	assert.NotEmpty(t, got.PicURLs.Large)
	rc, resp, err := admin.Avatars.Get(ctx, srv.UserID())
	require.NoError(t, err)
	body, err := io.ReadAll(rc)
	require.NoError(t, err)
	require.NoError(t, rc.Close())
	assert.Equal(t, pic, body)
	assert.Equal(t, "image/png", resp.Header.Get("Content-Type"))

	// The admin replaces it: 200.
	pic2 := pngImage(t, 32, 32)
	_, resp, err = admin.Avatars.Upload(ctx, srv.UserID(), cms.AvatarImageTypePNG, bytes.NewReader(pic2), -1)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)

	// Refused: another user's, too many pixels, too many bytes, not the
	// format named, no such user.
	_, _, err = user.Avatars.Upload(ctx, srv.AdminUserID(), cms.AvatarImageTypePNG, bytes.NewReader(pic), -1)
	apiCode(t, err, 403, "forbidden")
	_, err = user.Avatars.Delete(ctx, srv.AdminUserID())
	apiCode(t, err, 403, "forbidden")
	wide := pngImage(t, 1025, 2)
	_, _, err = user.Avatars.Upload(ctx, srv.UserID(), cms.AvatarImageTypePNG, bytes.NewReader(wide), -1)
	apiCode(t, err, 400, "bad_request")
	big := append(pngImage(t, 8, 8), make([]byte, 1<<20)...)
	_, _, err = user.Avatars.Upload(ctx, srv.UserID(), cms.AvatarImageTypePNG, io.MultiReader(bytes.NewReader(big)), -1) // a plain reader: the SDK cannot know the size
	apiCode(t, err, 400, "bad_request")
	_, _, err = user.Avatars.Upload(ctx, srv.UserID(), cms.AvatarImageTypeJPEG, bytes.NewReader(pic), -1)
	apiCode(t, err, 400, "bad_request")
	_, _, err = admin.Avatars.Upload(ctx, "999999", cms.AvatarImageTypePNG, bytes.NewReader(pic), -1)
	apiCode(t, err, 404, "not_found")
	rc, _, err = user.Avatars.Get(ctx, srv.UserID())
	require.NoError(t, err)
	body, _ = io.ReadAll(rc)
	rc.Close()
	assert.Equal(t, pic2, body, "refused uploads change nothing")

	resp, err = user.Avatars.Delete(ctx, srv.UserID())
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
	_, _, err = user.Avatars.Get(ctx, srv.UserID())
	apiCode(t, err, 404, "not_found")
	_, err = user.Avatars.Delete(ctx, srv.UserID())
	apiCode(t, err, 404, "not_found")
}

// An avatar outlives a restart of a persisted server.
func TestAvatarPersists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	opts := cmstest.Options{DataDir: t.TempDir()}
	srv := cmstest.NewServer(t, opts)
	pic := pngImage(t, 16, 16)
	_, _, err := srv.Client(t).Avatars.Upload(ctx, srv.UserID(), cms.AvatarImageTypePNG, bytes.NewReader(pic), int64(len(pic)))
	require.NoError(t, err)
	require.NoError(t, srv.Close())
	srv2 := cmstest.NewServer(t, opts)
	rc, _, err := srv2.Client(t).Avatars.Get(ctx, srv2.UserID())
	require.NoError(t, err)
	defer rc.Close()
	body, err := io.ReadAll(rc)
	require.NoError(t, err)
	assert.Equal(t, pic, body)
}
