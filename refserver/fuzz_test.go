package refserver

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"
)

func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-3/10", "bytes 4-7/10", "BYTES 0-0/1", "bytes 9-8/10", "bytes -1-2/3", "bytes 0-3/*", "0-3/10", "bytes 00-3/10", "bytes 99999999999999999999-1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cr, err := parseContentRange(s)
		if err != nil {
			return
		}
		if cr.first < 0 || cr.first > cr.last || cr.last >= cr.total {
			t.Fatalf("accepted invalid range %q: %+v", s, cr)
		}
		again, err := parseContentRange(fmt.Sprintf("bytes %d-%d/%d", cr.first, cr.last, cr.total))
		if err != nil || again != cr {
			t.Fatalf("round trip of %q: %+v %v", s, again, err)
		}
	})
}

func FuzzDigest(f *testing.F) {
	sum := sha1.Sum([]byte("x"))
	b64 := base64.StdEncoding.EncodeToString(sum[:])
	for _, s := range []string{"sha=" + b64, "SHA=" + b64, "md5=abc, sha=" + b64, "sha=", "sha=abc", "", "sha"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := parseDigest(s)
		if err != nil {
			return
		}
		raw, err := hex.DecodeString(h)
		if err != nil || len(raw) != 20 {
			t.Fatalf("parseDigest(%q) = %q", s, h)
		}
	})
}

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
