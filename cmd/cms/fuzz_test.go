package main

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseRef: any argument parses to one form or a usage error, never a
// panic; an accepted id is digits only.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"file:1", "folder:0", "/a/b", "12", "", "file:", "folder:x", "/", "file:1/2", " 7 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseRef(s)
		if err != nil {
			if !isUsage(err) {
				t.Fatalf("%q: %v is not a usage error", s, err)
			}
			return
		}
		if r.path == "" && !validID(r.id) {
			t.Fatalf("%q: accepted id %q", s, r.id)
		}
		if r.path != "" && !strings.HasPrefix(r.path, "/") {
			t.Fatalf("%q: path %q", s, r.path)
		}
	})
}

// FuzzErrorText: whatever an error says (the service's answers are in
// it), its line has one "cms: " prefix and never shows the secret.
func FuzzErrorText(f *testing.F) {
	for _, s := range []string{
		"cms: GET http://h/2.0/folders/1/items?fields=name%2Csize: 404 not_found",
		"uploading: cms: cms: x", `Get "https://u:p@h/x?access_token=s3cret-token": dial`, "http://", "https://%zz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		line := errorText("ls", errors.New(msg), "s3cret-token")
		if !strings.HasPrefix(line, "cms: ls: ") || strings.Count(line, "cms: ") != 1 {
			t.Fatalf("%q: %q", msg, line)
		}
		if strings.Contains(line, "s3cret-token") {
			t.Fatalf("%q: the secret in %q", msg, line)
		}
	})
}
