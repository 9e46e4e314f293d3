//go:build go1.25

package refserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
)

// TestReadsWaitOnlyForWhatTheyShow: on a persisted server, a file's GET,
// its download and a folder's listing answer while another request's
// commit is held when that request changed nothing they show (another
// folder), and wait for it when it changed the file's folder (their path),
// the listed folder's content, an entry, or a record of another kind (a
// collaboration: access). A read must never show a change that a crash
// could still lose.
func TestReadsWaitOnlyForWhatTheyShow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := New(Options{DataDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		h := s.Handler()
		call := func(method, url, contentType string, body io.Reader) *httptest.ResponseRecorder {
			req := httptest.NewRequest(method, url, body)
			req.Header.Set("Authorization", "Bearer "+s.UserToken())
			if contentType != "" {
				req.Header.Set("Content-Type", contentType)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			return w
		}
		id := func(w *httptest.ResponseRecorder, want int) string {
			t.Helper()
			var m struct {
				ID      string
				Entries []struct{ ID string }
			}
			if w.Code != want || json.Unmarshal(w.Body.Bytes(), &m) != nil {
				t.Fatalf("status %d, want %d: %s", w.Code, want, w.Body)
			}
			if len(m.Entries) > 0 {
				return m.Entries[0].ID
			}
			return m.ID
		}
		folder := func(name string) string {
			return id(call("POST", s.BaseURL()+"/folders", "application/json", strings.NewReader(`{"name":"`+name+`","parent":{"id":"0"}}`)), 201)
		}
		upload := func(parent, name string) string {
			body, ct := multipartBody(t, `{"name":"`+name+`","parent":{"id":"`+parent+`"}}`, []byte("content of "+name))
			return id(call("POST", s.UploadURL()+"/files/content", ct, body), 201)
		}
		one, two := folder("one"), folder("two")
		a, b := upload(one, "a.txt"), upload(two, "b.txt")

		// async runs a call whose answer may have to wait.
		async := func(method, url, contentType string, body io.Reader) <-chan *httptest.ResponseRecorder {
			done := make(chan *httptest.ResponseRecorder, 1)
			go func() { done <- call(method, url, contentType, body) }()
			return done
		}
		get := func(path string) <-chan *httptest.ResponseRecorder { return async("GET", s.BaseURL()+path, "", nil) }
		// held runs a change whose commit is held until release is called.
		held := func(method, url, contentType string, body io.Reader) (<-chan *httptest.ResponseRecorder, func()) {
			entered, release := holdFirstCommit(s)
			done := async(method, url, contentType, body)
			<-entered
			return done, func() { close(release) }
		}
		notYet := func(what string, c <-chan *httptest.ResponseRecorder) {
			t.Helper()
			synctest.Wait()
			select {
			case w := <-c:
				t.Fatalf("%s answered %d before the change it shows was committed", what, w.Code)
			default:
			}
		}
		answered := func(what string, c <-chan *httptest.ResponseRecorder, code int, shows ...string) {
			t.Helper()
			w := <-c
			if w.Code != code {
				t.Fatalf("%s: %d, want %d: %s", what, w.Code, code, w.Body)
			}
			for _, want := range shows {
				if !strings.Contains(w.Body.String(), want) {
					t.Fatalf("%s does not show %s: %s", what, want, w.Body)
				}
			}
		}
		now := func(what, path string, code int) {
			t.Helper()
			answered(what, get(path), code)
		}
		jsonBody := func(s string) io.Reader { return strings.NewReader(s) }

		// Folder two is renamed; its commit is held. a.txt's answers and
		// folder one's listing show nothing of folder two: they do not wait.
		rename, release := held("PUT", s.BaseURL()+"/folders/"+two, "application/json", jsonBody(`{"name":"two renamed"}`))
		now("GET a.txt", "/files/"+a, 200)
		now("download a.txt", "/files/"+a+"/content", http.StatusFound)
		now("list one", "/folders/"+one+"/items", 200)
		// b.txt's show its path, folder two's new name: they wait; so do
		// the listings of folder two and of the root, which shows its name.
		getB, downloadB := get("/files/"+b), get("/files/"+b+"/content")
		listTwo, listRoot := get("/folders/"+two+"/items"), get("/folders/0/items")
		notYet("GET b.txt", getB)
		notYet("download b.txt", downloadB)
		notYet("list two", listTwo)
		notYet("list the root", listRoot)
		release()
		answered("rename", rename, 200)
		answered("GET b.txt", getB, 200, `"two renamed"`)
		answered("download b.txt", downloadB, http.StatusFound)
		answered("list two", listTwo, 200)
		answered("list the root", listRoot, 200, `"two renamed"`)

		// A collaboration on folder one is held: access may have changed,
		// so a.txt's answers wait for it too.
		collab, release := held("POST", s.BaseURL()+"/collaborations", "application/json",
			jsonBody(`{"item":{"type":"folder","id":"`+one+`"},"accessible_by":{"type":"user","login":"someone@example.com"},"role":"editor"}`))
		getA := get("/files/" + a)
		notYet("GET a.txt", getA)
		release()
		answered("collaboration", collab, 201)
		answered("GET a.txt", getA, 200)

		// A file is uploaded into folder one; its commit is held: one's
		// listing waits (its count and its entries change), two's does not.
		mp, ct := multipartBody(t, `{"name":"c.txt","parent":{"id":"`+one+`"}}`, []byte("c"))
		up, release := held("POST", s.UploadURL()+"/files/content", ct, mp)
		now("list two", "/folders/"+two+"/items", 200)
		listOne := get("/folders/" + one + "/items")
		notYet("list one", listOne)
		release()
		answered("upload", up, 201)
		answered("list one", listOne, 200, `"c.txt"`, `"total_count":2`)

		// a.txt is renamed to z.txt; its commit is held: the first page of
		// one by name (one entry) now shows c.txt, whose record did not
		// change, in a.txt's place: it waits.
		rename, release = held("PUT", s.BaseURL()+"/files/"+a, "application/json", jsonBody(`{"name":"z.txt"}`))
		firstOfOne := get("/folders/" + one + "/items?limit=1&sort=name&direction=ASC")
		notYet("the first page of one", firstOfOne)
		release()
		answered("rename", rename, 200)
		answered("the first page of one", firstOfOne, 200, `"c.txt"`)

		// b.txt is deleted; its commit is held: its 404 waits, and so does
		// the listing it leaves.
		del, release := held("DELETE", s.BaseURL()+"/files/"+b, "", nil)
		getB, listTwo = get("/files/"+b), get("/folders/"+two+"/items")
		notYet("GET deleted b.txt", getB)
		notYet("list two", listTwo)
		release()
		answered("delete", del, http.StatusNoContent)
		answered("GET deleted b.txt", getB, http.StatusNotFound)
		answered("list two", listTwo, 200, `"total_count":0`)
	})
}
