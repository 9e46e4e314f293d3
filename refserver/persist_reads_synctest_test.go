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
		async := func(method, url, contentType, body string) <-chan *httptest.ResponseRecorder {
			done := make(chan *httptest.ResponseRecorder, 1)
			go func() { done <- call(method, url, contentType, strings.NewReader(body)) }()
			return done
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

		// Folder two is renamed; its commit is held.
		entered, release := holdFirstCommit(s)
		rename := async("PUT", s.BaseURL()+"/folders/"+two, "application/json", `{"name":"two renamed"}`)
		<-entered
		// a.txt's answers show nothing of folder two: they do not wait.
		if w := call("GET", s.BaseURL()+"/files/"+a, "", nil); w.Code != 200 {
			t.Fatalf("GET a.txt: %d %s", w.Code, w.Body)
		}
		if w := call("GET", s.BaseURL()+"/files/"+a+"/content", "", nil); w.Code != http.StatusFound {
			t.Fatalf("download a.txt: %d %s", w.Code, w.Body)
		}
		if w := call("GET", s.BaseURL()+"/folders/"+one+"/items", "", nil); w.Code != 200 {
			t.Fatalf("list one: %d %s", w.Code, w.Body)
		}
		// b.txt's show its path, folder two's new name: they wait; so do
		// the listings of folder two and of the root, which shows its name.
		getB := async("GET", s.BaseURL()+"/files/"+b, "", "")
		downloadB := async("GET", s.BaseURL()+"/files/"+b+"/content", "", "")
		listTwo := async("GET", s.BaseURL()+"/folders/"+two+"/items", "", "")
		listRoot := async("GET", s.BaseURL()+"/folders/0/items", "", "")
		notYet("GET b.txt", getB)
		notYet("download b.txt", downloadB)
		notYet("list two", listTwo)
		notYet("list the root", listRoot)
		close(release)
		if w := <-listTwo; w.Code != 200 {
			t.Fatalf("list two: %d %s", w.Code, w.Body)
		}
		if w := <-listRoot; w.Code != 200 || !strings.Contains(w.Body.String(), `"two renamed"`) {
			t.Fatalf("list the root: %d %s", w.Code, w.Body)
		}
		if w := <-rename; w.Code != 200 {
			t.Fatalf("rename: %d %s", w.Code, w.Body)
		}
		if w := <-getB; w.Code != 200 || !strings.Contains(w.Body.String(), `"two renamed"`) {
			t.Fatalf("GET b.txt: %d %s", w.Code, w.Body)
		}
		if w := <-downloadB; w.Code != http.StatusFound {
			t.Fatalf("download b.txt: %d %s", w.Code, w.Body)
		}

		// A collaboration on folder one is held: access may have changed,
		// so a.txt's answers wait for it too.
		entered, release = holdFirstCommit(s)
		collab := async("POST", s.BaseURL()+"/collaborations", "application/json",
			`{"item":{"type":"folder","id":"`+one+`"},"accessible_by":{"type":"user","login":"someone@example.com"},"role":"editor"}`)
		<-entered
		getA := async("GET", s.BaseURL()+"/files/"+a, "", "")
		notYet("GET a.txt", getA)
		close(release)
		if w := <-collab; w.Code != 201 {
			t.Fatalf("collaboration: %d %s", w.Code, w.Body)
		}
		if w := <-getA; w.Code != 200 {
			t.Fatalf("GET a.txt: %d %s", w.Code, w.Body)
		}

		// A file is uploaded into folder one; its commit is held: one's
		// listing waits (its count and its entries change), two's does not.
		entered, release = holdFirstCommit(s)
		body, ct := multipartBody(t, `{"name":"c.txt","parent":{"id":"`+one+`"}}`, []byte("c"))
		up := make(chan *httptest.ResponseRecorder, 1)
		go func() { up <- call("POST", s.UploadURL()+"/files/content", ct, body) }()
		<-entered
		if w := call("GET", s.BaseURL()+"/folders/"+two+"/items", "", nil); w.Code != 200 {
			t.Fatalf("list two: %d %s", w.Code, w.Body)
		}
		listOne := async("GET", s.BaseURL()+"/folders/"+one+"/items", "", "")
		notYet("list one", listOne)
		close(release)
		if w := <-up; w.Code != 201 {
			t.Fatalf("upload: %d %s", w.Code, w.Body)
		}
		if w := <-listOne; w.Code != 200 || !strings.Contains(w.Body.String(), `"c.txt"`) || !strings.Contains(w.Body.String(), `"total_count":2`) {
			t.Fatalf("list one: %d %s", w.Code, w.Body)
		}

		// a.txt is renamed to z.txt; its commit is held: the first page of
		// one by name (one entry) now shows c.txt, whose record did not
		// change, in a.txt's place: it waits.
		entered, release = holdFirstCommit(s)
		rename = async("PUT", s.BaseURL()+"/files/"+a, "application/json", `{"name":"z.txt"}`)
		<-entered
		firstOfOne := async("GET", s.BaseURL()+"/folders/"+one+"/items?limit=1&sort=name&direction=ASC", "", "")
		notYet("the first page of one", firstOfOne)
		close(release)
		if w := <-rename; w.Code != 200 {
			t.Fatalf("rename: %d %s", w.Code, w.Body)
		}
		if w := <-firstOfOne; w.Code != 200 || !strings.Contains(w.Body.String(), `"c.txt"`) {
			t.Fatalf("the first page of one: %d %s", w.Code, w.Body)
		}

		// b.txt is deleted; its commit is held: its 404 waits, and so does
		// the listing it leaves.
		entered, release = holdFirstCommit(s)
		del := async("DELETE", s.BaseURL()+"/files/"+b, "", "")
		<-entered
		getB = async("GET", s.BaseURL()+"/files/"+b, "", "")
		listTwo = async("GET", s.BaseURL()+"/folders/"+two+"/items", "", "")
		notYet("GET deleted b.txt", getB)
		notYet("list two", listTwo)
		close(release)
		if w := <-del; w.Code != http.StatusNoContent {
			t.Fatalf("delete: %d %s", w.Code, w.Body)
		}
		if w := <-getB; w.Code != http.StatusNotFound {
			t.Fatalf("GET deleted b.txt: %d %s", w.Code, w.Body)
		}
		if w := <-listTwo; w.Code != 200 || !strings.Contains(w.Body.String(), `"total_count":0`) {
			t.Fatalf("list two: %d %s", w.Code, w.Body)
		}
	})
}
