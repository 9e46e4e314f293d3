package cms_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscapeHatchAgainstRefserver calls endpoints through NewRequest,
// NewUploadRequest and Do against the reference server: a folder created
// with a JSON body, a file uploaded as a multipart body streamed through a
// pipe (no length known), read back with a field list into the SDK's type,
// a 404 as an *APIError, and As-User honoured (the admin acting as the
// user sees the user's folder).
func TestEscapeHatchAgainstRefserver(t *testing.T) {
	t.Parallel()
	srv := cmstest.NewInProcessServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()

	req, err := c.NewRequest(http.MethodPost, "folders", map[string]any{"name": "Raw", "parent": map[string]string{"id": "0"}})
	require.NoError(t, err)
	var folder cms.Folder
	_, err = c.Do(ctx, req, &folder)
	require.NoError(t, err)
	require.NotEmpty(t, folder.ID)
	assert.Equal(t, "Raw", folder.Name)

	content := strings.Repeat("streamed through a pipe\n", 1000)
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := mw.WriteField("attributes", `{"name":"piped.txt","parent":{"id":"`+folder.ID+`"}}`)
		if err == nil {
			var part io.Writer
			if part, err = mw.CreateFormFile("file", "piped.txt"); err == nil {
				_, err = io.Copy(part, strings.NewReader(content))
			}
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, err = c.NewUploadRequest(http.MethodPost, "files/content", nil)
	require.NoError(t, err)
	require.NoError(t, req.SetBody(mw.FormDataContentType(), pr, -1))
	var uploaded struct{ Entries []*cms.File }
	_, err = c.Do(ctx, req, &uploaded)
	require.NoError(t, err)
	require.Len(t, uploaded.Entries, 1)
	sum := sha1.Sum([]byte(content))
	assert.Equal(t, hex.EncodeToString(sum[:]), uploaded.Entries[0].SHA1)

	req, err = c.NewRequest(http.MethodGet, "files/"+uploaded.Entries[0].ID+"?fields=name,size,parent", nil)
	require.NoError(t, err)
	var f cms.File
	_, err = c.Do(ctx, req, &f)
	require.NoError(t, err)
	assert.Equal(t, "piped.txt", f.Name)
	assert.Equal(t, int64(len(content)), f.Size)
	require.NotNil(t, f.Parent)
	assert.Equal(t, folder.ID, f.Parent.ID)

	req, err = c.NewRequest(http.MethodGet, "files/999999999", nil)
	require.NoError(t, err)
	_, err = c.Do(ctx, req, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)

	me, _, err := c.Users.GetMe(ctx, nil)
	require.NoError(t, err)
	asUser, err := srv.AdminClient(t).AsUser(me.ID)
	require.NoError(t, err)
	req, err = asUser.NewRequest(http.MethodGet, "folders/"+folder.ID, nil)
	require.NoError(t, err)
	var seen cms.Folder
	_, err = asUser.Do(ctx, req, &seen)
	require.NoError(t, err, "the admin acting as the user sees the user's folder")
	assert.Equal(t, "Raw", seen.Name)
}
