package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver"
)

// fakeElements is a dist folder with stand-ins for the bundles.
func fakeElements(t *testing.T) string {
	dir := t.TempDir()
	for _, name := range []string{"explorer.js", "explorer.css", "uploader.js", "uploader.css", "picker.js"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("/* "+name+" */"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPagesMintADownscopedTokenPerView(t *testing.T) {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	be, err := refserverBackend(srv)
	if err != nil {
		t.Fatal(err)
	}
	app := httptest.NewServer(newApp(be, fakeElements(t)))
	t.Cleanup(app.Close)

	tokenRE := regexp.MustCompile(`\.show\("0", "([^"]+)"`)
	get := func(path string) (int, string) {
		resp, err := http.Get(app.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	seen := map[string]bool{}
	for _, p := range []struct{ path, element string }{{"/", "ContentExplorer"}, {"/", "ContentExplorer"}, {"/upload", "ContentUploader"}} {
		status, body := get(p.path)
		if status != http.StatusOK || !strings.Contains(body, `new Box["`+p.element+`"]()`) {
			t.Fatalf("GET %s: %d\n%s", p.path, status, body)
		}
		m := tokenRE.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("GET %s: no token in the page\n%s", p.path, body)
		}
		tok := m[1]
		if tok == srv.UserToken() || strings.Contains(body, srv.UserToken()) {
			t.Fatalf("GET %s: the page holds the app's own token", p.path)
		}
		if seen[tok] {
			t.Fatalf("GET %s: a token was served twice", p.path)
		}
		seen[tok] = true
		if !strings.Contains(body, `apiHost: "`+strings.TrimSuffix(srv.BaseURL(), "/2.0")+`"`) {
			t.Fatalf("GET %s: apiHost is not the server's origin\n%s", p.path, body)
		}
		// The token works for what the page does, and for no more.
		req, _ := http.NewRequest("GET", srv.BaseURL()+"/folders/0/items", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[string]int{"/": 200, "/upload": 403}[p.path]; resp.StatusCode != want {
			t.Errorf("GET %s's token listing the root: %d, want %d", p.path, resp.StatusCode, want)
		}
	}
	if status, body := get("/elements/explorer.js"); status != 200 || body != "/* explorer.js */" {
		t.Errorf("explorer.js: %d %q", status, body)
	}
	if status, _ := get("/elements/picker.js"); status != http.StatusNotFound {
		t.Errorf("picker.js is not served: %d", status)
	}
}
