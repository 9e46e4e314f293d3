package cms

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	sweepBodies[reflect.TypeOf(AvatarImageTypeJPEG)] = AvatarImageTypePNG
}

// formPart reads the one part of a multipart/form-data body.
func formPart(t *testing.T, c wireCall) (*multipart.Part, []byte) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(c.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/form-data", mt)
	mr := multipart.NewReader(strings.NewReader(c.Body), params["boundary"])
	p, err := mr.NextPart()
	require.NoError(t, err)
	b, err := io.ReadAll(p)
	require.NoError(t, err)
	_, err = mr.NextPart()
	require.ErrorIs(t, err, io.EOF, "one part only")
	return p, b
}

func TestAvatarsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 5000)...)
	w.serve("GET /users/{id}/avatar", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "image/png")
		_, _ = rw.Write(png)
	})
	var posts atomic.Int32
	w.serve("POST /users/{id}/avatar", func(rw http.ResponseWriter, r *http.Request) {
		if posts.Add(1) == 1 {
			writeJSON(rw, http.StatusBadGateway, []byte(`{"type":"error","status":502,"code":"bad_gateway","message":"try again"}`))
			return
		}
		writeJSON(rw, http.StatusCreated, []byte(`{"pic_urls":{"small":"https://example.com/s.png","large":"https://example.com/l.png","preview":"https://example.com/p.png"}}`))
	})
	w.answer("DELETE /users/{id}/avatar", http.StatusNoContent, "")
	ctx := context.Background()
	as := w.e.client.Avatars

	body, resp, err := as.Get(ctx, "11")
	require.NoError(t, err)
	got, err := io.ReadAll(body)
	require.NoError(t, err)
	require.NoError(t, body.Close())
	assert.Equal(t, png, got)
	assert.Equal(t, "image/png", resp.Header.Get("Content-Type"))
	assert.Equal(t, "/users/11/avatar", w.last(t).Path)

	// A seekable image is sent again after a 502.
	av, resp, err := as.Upload(ctx, "11", AvatarImageTypePNG, bytes.NewReader(png), -1)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, &UserAvatar{PicURLs: &AvatarURLs{Small: "https://example.com/s.png", Large: "https://example.com/l.png", Preview: "https://example.com/p.png"}}, av)
	calls := w.all()
	require.Len(t, calls, 3)
	for _, c := range calls[1:] {
		assert.Equal(t, "POST /users/11/avatar", c.Method+" "+c.Path)
		p, b := formPart(t, c)
		assert.Equal(t, "pic", p.FormName())
		assert.Equal(t, "avatar.png", p.FileName())
		assert.Equal(t, "image/png", p.Header.Get("Content-Type"))
		assert.Equal(t, png, b, "every attempt sends the whole image")
	}

	// A plain reader is sent once.
	posts.Store(0)
	_, _, err = as.Upload(ctx, "11", AvatarImageTypeJPEG, io.MultiReader(strings.NewReader("\xff\xd8\xff jpeg")), 8)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusBadGateway, ae.StatusCode)
	assert.Len(t, w.all(), 4, "not retried")
	p, b := formPart(t, w.last(t))
	assert.Equal(t, "avatar.jpg", p.FileName())
	assert.Equal(t, "image/jpeg", p.Header.Get("Content-Type"))
	assert.Equal(t, "\xff\xd8\xff jpeg", string(b))

	_, err = as.Delete(ctx, "11")
	require.NoError(t, err)
	assert.Equal(t, http.MethodDelete, w.last(t).Method)

	n := w.count()
	_, _, err = as.Get(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = as.Upload(ctx, "11", "gif", bytes.NewReader(png), -1)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = as.Upload(ctx, "11", "", bytes.NewReader(png), -1)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = as.Upload(ctx, "11", AvatarImageTypePNG, nil, 1)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = as.Upload(ctx, "11", AvatarImageTypePNG, strings.NewReader("x"), MaxAvatarSize+1)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = as.Upload(ctx, "11", AvatarImageTypePNG, bytes.NewReader(make([]byte, MaxAvatarSize+1)), -1)
	assert.ErrorIs(t, err, ErrInvalidArgument, "a seekable source's size is known")
	_, err = as.Delete(ctx, "a/b")
	assert.ErrorIs(t, err, ErrInvalidID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("GET /users/{id}/avatar", http.StatusNotFound, `{"type":"error","status":404,"code":"not_found","message":"No avatar"}`)
	_, _, err = w2.e.client.Avatars.Get(ctx, "11")
	assert.ErrorIs(t, err, ErrNotFound)
}
