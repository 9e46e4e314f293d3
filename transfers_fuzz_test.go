package cms

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFoldName: two names have the same key exactly when strings.EqualFold
// says they are equal, as the service compares them.
func FuzzFoldName(f *testing.F) {
	for _, s := range [][2]string{{"Docs", "docs"}, {"k", "\u212a"}, {"ſ", "S"}, {"Straße", "STRASSE"}, {"é", "É"}, {"ǅ", "ǆ"}, {"a/B", "A/b"}, {"\xff", "\xfe"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := foldName(a) == foldName(b), strings.EqualFold(a, b); got != want {
			t.Fatalf("foldName(%q)=%q foldName(%q)=%q; EqualFold %v", a, foldName(a), b, foldName(b), want)
		}
	})
}

// FuzzCheckLocalName: a name the check lets through is one element that
// stays inside the directory it is joined to.
func FuzzCheckLocalName(f *testing.F) {
	for _, s := range []string{"a.txt", "../x", "..", ".", "a/b", `a\b`, "/abs", "nul\x00", "", "C:x", "con", " x", "x "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkLocalName(name) != nil {
			return
		}
		dir := filepath.FromSlash("/base/dir")
		p := filepath.Join(dir, name)
		if filepath.Dir(p) != dir || filepath.Base(p) != name {
			t.Fatalf("%q passed the check but joins to %q", name, p)
		}
	})
}
