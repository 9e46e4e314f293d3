package refserver

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// avatarBody is a multipart body with a w×h PNG in part "pic" named name.
func avatarBody(t testing.TB, name string, w, h int) (*bytes.Buffer, string) {
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

// FuzzAvatarUpload feeds arbitrary bodies to POST /users/{id}/avatar: it
// must never panic, must answer 201, 200 or a 4xx, and a refused upload
// must leave no blob behind.
func FuzzAvatarUpload(f *testing.F) {
	body, ct := avatarBody(f, "me.png", 4, 4)
	_, boundary, _ := strings.Cut(ct, "boundary=")
	f.Add(body.Bytes(), boundary)
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"pic\"; filename=\"a.png\"\r\n\r\n\x89PNG\r\n\x1a\n\r\n--b--\r\n"), "b")
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"pic\"; filename=\"a.jpg\"\r\n\r\n\xff\xd8\xff\r\n--b--\r\n"), "b")
	f.Add([]byte("garbage"), "b")
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, body []byte, boundary string) {
		req := httptest.NewRequest("POST", s.BaseURL()+"/users/"+s.UserID()+"/avatar", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.UserToken())
		req.Header.Set("Content-Type", "multipart/form-data; boundary=\""+boundary+"\"")
		before := blobCount(t, s)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch {
		case rec.Code == http.StatusCreated || rec.Code == http.StatusOK:
		case rec.Code >= 400 && rec.Code < 500:
			if after := blobCount(t, s); after != before {
				t.Fatalf("rejected avatar (%d) changed blob count %d -> %d", rec.Code, before, after)
			}
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
	})
}

// The blob of a replaced or deleted avatar leaves the store (through the
// transaction's outbox, once the change is committed); the current one
// stays.
func TestAvatarBlobLeavesOnReplaceAndDelete(t *testing.T) {
	e := newEnv(t, Options{DataDir: t.TempDir()})
	url := e.api("/users/" + e.s.UserID() + "/avatar")
	before := blobCount(t, e.s)
	body, ct := avatarBody(t, "me.png", 4, 4)
	resp, b := e.do("POST", url, e.s.UserToken(), body, hdr{"Content-Type": ct})
	require.Equal(t, 201, resp.StatusCode, "%s", b)
	require.Equal(t, before+1, blobCount(t, e.s), "the first avatar's blob")
	body, ct = avatarBody(t, "me.png", 8, 8)
	resp, b = e.do("POST", url, e.s.UserToken(), body, hdr{"Content-Type": ct})
	require.Equal(t, 200, resp.StatusCode, "%s", b)
	require.Equal(t, before+1, blobCount(t, e.s), "the replaced avatar's blob is gone")
	resp, b = e.do("DELETE", url, e.s.UserToken(), nil, nil)
	require.Equal(t, 204, resp.StatusCode, "%s", b)
	require.Equal(t, before, blobCount(t, e.s), "the deleted avatar's blob is gone")
}
