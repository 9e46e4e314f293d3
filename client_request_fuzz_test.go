package cms

import (
	"net/http"
	"strings"
	"testing"
)

// FuzzNewRequestPath: whatever path a caller passes to NewRequest, the
// request either is refused with an *ArgError or goes to the API root's
// host, below the root's path, with no "." or ".." segment and no
// fragment.
func FuzzNewRequestPath(f *testing.F) {
	for _, s := range []string{"files/1", "/folders/0/items?limit=5&fields=name", "a%2Fb/c", "x/../y", "https://evil/x", "//evil/x", "files/1#f", "%zz", "?a=b", "a/%2e%2e/b", "a/%2E/b", "a?b=%zz"} {
		f.Add(s)
	}
	c, err := NewClient(WithToken("t"), WithURLs("https://api.example.com/2.0", "https://upload.example.com/api/2.0"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string) {
		req, err := c.NewRequest(http.MethodGet, path, nil)
		if err != nil {
			if _, ok := err.(*ArgError); !ok {
				t.Fatalf("%q: %T %v, want an *ArgError", path, err, err)
			}
			return
		}
		u := req.URL()
		if u.Host != "api.example.com" || u.Scheme != "https" || u.Fragment != "" || u.User != nil {
			t.Fatalf("%q: sent to %s", path, u.Redacted())
		}
		if !strings.HasPrefix(u.Path, "/2.0/") {
			t.Fatalf("%q: path %q is not below the root", path, u.Path)
		}
		for _, seg := range strings.Split(u.EscapedPath()[len("/2.0/"):], "/") {
			if seg == "" || seg == "." || seg == ".." || strings.EqualFold(seg, "%2e") || strings.EqualFold(seg, "%2e%2e") {
				t.Fatalf("%q: segment %q in %q", path, seg, u.EscapedPath())
			}
		}
	})
}
