package cms_test

import (
	"encoding/json"
	"testing"

	"github.com/contentapi/cms"
)

// FuzzRetentionLength decodes retention_length and max_extension_length
// from anything the service (or a man in the middle) may send: no panic, a
// decoded length round-trips, and a negative number of days never comes out.
func FuzzRetentionLength(f *testing.F) {
	for _, s := range []string{`"365"`, `365`, `"indefinite"`, `"none"`, `null`, `""`, `-1`, `1.5`, `"99999999999"`, `{}`, `[1]`, `"\u0031"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var l cms.RetentionLength
		if err := json.Unmarshal(b, &l); err == nil {
			if l.Days() < 0 {
				t.Fatalf("negative days from %q", b)
			}
			out, err := json.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			var back cms.RetentionLength
			if err := json.Unmarshal(out, &back); err != nil || back != l {
				t.Fatalf("round trip of %q: %s -> %+v (%v)", b, out, back, err)
			}
		}
		var x cms.MaxExtensionLength
		if err := json.Unmarshal(b, &x); err == nil && x.Days() < 0 {
			t.Fatalf("negative extension from %q", b)
		}
	})
}
