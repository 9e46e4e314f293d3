package refserver

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzMultipartUpload feeds arbitrary bodies to the upload handler: it must
// never panic, must answer 201 or a 4xx, and must not leak blobs on failure.
func FuzzMultipartUpload(f *testing.F) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("attributes", `{"name":"a.txt","parent":{"id":"0"}}`)
	fw, _ := mw.CreateFormFile("file", "a.txt")
	_, _ = fw.Write([]byte("hello"))
	_ = mw.Close()
	f.Add(buf.Bytes(), mw.Boundary())
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nxx\r\n--b--\r\n"), "b")
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"attributes\"\r\n\r\n{\"name\":\"x\"}\r\n--b--\r\n"), "b")
	f.Add([]byte("garbage"), "b")
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, body []byte, boundary string) {
		req := httptest.NewRequest("POST", s.UploadURL()+"/files/content", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.UserToken())
		req.Header.Set("Content-Type", "multipart/form-data; boundary=\""+boundary+"\"")
		before := blobCount(t, s)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch {
		case rec.Code == http.StatusCreated:
		case rec.Code >= 400 && rec.Code < 500:
			if after := blobCount(t, s); after != before {
				t.Fatalf("rejected upload (%d) changed blob count %d -> %d", rec.Code, before, after)
			}
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
	})
}
