package refserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/state"
)

// askZip asks for an archive of folder and returns its download URL.
func askZip(t *testing.T, s *Server, folder string) (url, id string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "http://"+state.InProcessAPIHost+state.APIRoot+"/zip_downloads",
		strings.NewReader(`{"items":[{"type":"folder","id":"`+folder+`"}]}`))
	req.Header.Set("Authorization", "Bearer "+s.UserToken())
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	var z struct {
		DownloadURL string `json:"download_url"`
		StatusURL   string `json:"status_url"`
	}
	if w.Code != http.StatusAccepted || json.Unmarshal(w.Body.Bytes(), &z) != nil {
		t.Fatalf("POST /zip_downloads: %d %s", w.Code, w.Body)
	}
	parts := strings.Split(z.StatusURL, "/")
	return z.DownloadURL, parts[len(parts)-2]
}

// A user sends at most 5 archives at once: the sixth is 429
// user_too_many_concurrent_downloads, and goes once one of the five ends.
func TestZipDownloadConcurrencyLimit(t *testing.T) {
	s, top := zipTree(t, 2, 2, 8)
	var ids []string
	for range 5 {
		_, id := askZip(t, s, top)
		ids = append(ids, id)
	}
	s.st.Update(func(tx *state.Tx) {
		for _, id := range ids {
			if _, _, aerr := tx.StartZipDownload(id); aerr != nil {
				t.Fatal(aerr)
			}
		}
	})
	url, _ := askZip(t, s, top)
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, url, nil))
	if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), `"code":"user_too_many_concurrent_downloads"`) {
		t.Fatalf("the sixth: %d %s", w.Code, w.Body)
	}
	s.st.Update(func(tx *state.Tx) { tx.FinishZipDownload(ids[0], true) })
	d := &discard{h: http.Header{}}
	s.Handler().ServeHTTP(d, httptest.NewRequest(http.MethodGet, url, nil))
	if d.code != http.StatusOK {
		t.Fatalf("once one ended: %d", d.code)
	}
}

// FuzzParseCollections: the collections member of an item update is a
// list of {"id": ...}; anything else is 400, never a panic.
func FuzzParseCollections(f *testing.F) {
	for _, seed := range []string{`[{"id":"1"}]`, `[]`, `[{}]`, `[{"id":""}]`, `[1]`, `[{"id":2}]`, `[null]`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var raw []json.RawMessage
		if json.Unmarshal([]byte(body), &raw) != nil {
			return
		}
		ids, aerr := state.ParseCollections(raw)
		if aerr == nil && len(ids) != len(raw) {
			t.Fatalf("%d ids of %d entries", len(ids), len(raw))
		}
		for _, id := range ids {
			if id == "" {
				t.Fatal("an empty id was taken")
			}
		}
	})
}

// The enterprise sends at most 10 archives at once: with 10 of other
// users in progress, a user's first is 429
// enterprise_too_many_concurrent_downloads.
func TestZipDownloadEnterpriseLimit(t *testing.T) {
	s, top := zipTree(t, 2, 2, 8)
	s.st.Update(func(tx *state.Tx) {
		for range 10 {
			tx.AddZipDownload(&state.ZipDownload{ID: tx.NewID(), User: tx.Admin, Kind: "admin", State: state.ZipInProgress, StartedAt: tx.Now()})
		}
	})
	url, _ := askZip(t, s, top)
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, url, nil))
	if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), `"code":"enterprise_too_many_concurrent_downloads"`) {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}
