package refserver

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"testing"

	"github.com/stretchr/testify/require"
)

// avatarBody is a multipart body with a w×h PNG in part "pic" named name.
func avatarBody(t *testing.T, name string, w, h int) (*bytes.Buffer, string) {
	t.Helper()
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, w, h))))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("pic", name)
	require.NoError(t, err)
	_, err = part.Write(img.Bytes())
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	return &body, mw.FormDataContentType()
}

// What the SDK cannot send: another extension, no pic part, a body that
// is not multipart.
func TestAvatarBadRequests(t *testing.T) {
	e := newEnv(t, Options{})
	url := e.api("/users/" + e.s.UserID() + "/avatar")
	body, ct := avatarBody(t, "me.gif", 4, 4)
	resp, b := e.do("POST", url, e.s.UserToken(), body, hdr{"Content-Type": ct})
	require.Equal(t, 400, resp.StatusCode, "%s", b)
	var empty bytes.Buffer
	mw := multipart.NewWriter(&empty)
	require.NoError(t, mw.WriteField("other", "x"))
	require.NoError(t, mw.Close())
	resp, b = e.do("POST", url, e.s.UserToken(), &empty, hdr{"Content-Type": mw.FormDataContentType()})
	require.Equal(t, 400, resp.StatusCode, "%s", b)
	resp, b = e.do("POST", url, e.s.UserToken(), bytes.NewReader([]byte("{}")), hdr{"Content-Type": "application/json"})
	require.Equal(t, 400, resp.StatusCode, "%s", b)
	body, ct = avatarBody(t, "me.png", 4, 4)
	resp, b = e.do("POST", url, e.s.UserToken(), body, hdr{"Content-Type": ct})
	require.Equal(t, 201, resp.StatusCode, "%s", b)
}
