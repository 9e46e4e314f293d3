package wire

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"testing"
)

func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-3/10", "bytes 4-7/10", "BYTES 0-0/1", "bytes 9-8/10", "bytes -1-2/3", "bytes 0-3/*", "0-3/10", "bytes 00-3/10", "bytes 99999999999999999999-1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cr, err := ParseContentRange(s)
		if err != nil {
			return
		}
		if cr.First < 0 || cr.First > cr.Last || cr.Last >= cr.Total {
			t.Fatalf("accepted invalid range %q: %+v", s, cr)
		}
		again, err := ParseContentRange(fmt.Sprintf("bytes %d-%d/%d", cr.First, cr.Last, cr.Total))
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
		h, err := ParseDigest(s)
		if err != nil {
			return
		}
		raw, err := hex.DecodeString(h)
		if err != nil || len(raw) != 20 {
			t.Fatalf("ParseDigest(%q) = %q", s, h)
		}
	})
}
