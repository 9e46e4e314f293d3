package refserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// bigFolder is an in-process server with a folder of n files of the admin.
func bigFolder(b *testing.B, n int) (*Server, string) {
	b.Helper()
	var id string
	s := filledServer(b, func(f *benchFill) {
		id = f.folder("big", state.RootID)
		for i := range n {
			f.file(fmt.Sprintf("file-%06d.txt", (i*7919)%n), id, int64(i%1000), i, time.Duration(i%97)*time.Second)
		}
	})
	return s, id
}

// BenchmarkListFolderPage serves one page of 1000 entries from a folder of
// 20,000 files: the last offset page, a marker page in the middle, and a
// page sorted by size in descending order.
func BenchmarkListFolderPage(b *testing.B) {
	s, id := bigFolder(b, 20000)
	h := s.Handler()
	for name, query := range map[string]string{
		"offset_last":   "?limit=1000&offset=19000",
		"marker_middle": "?limit=1000&usemarker=true&marker=" + wire.EncodeMarker(10000),
		"size_desc":     "?limit=1000&sort=size&direction=DESC&offset=5000",
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchDo(b, h, http.MethodGet, "/folders/"+id+"/items"+query, s.AdminToken(), "", "")
			}
		})
	}
}

// BenchmarkCreateInLargeFolder creates folders in a folder of 20,000 files
// (a name check, an insert into the folder's index, the answer).
func BenchmarkCreateInLargeFolder(b *testing.B) {
	s, id := bigFolder(b, 20000)
	h := s.Handler()
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		body := fmt.Sprintf(`{"name":"new-%d","parent":{"id":%q}}`, i, id)
		req := httptest.NewRequest(http.MethodPost, "http://"+state.InProcessAPIHost+state.APIRoot+"/folders?fields=id,name", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.AdminToken())
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}

// BenchmarkListTrashPage serves one page of 100 entries of a trash of
// 20,000 files (the trash index: no scan of every item, no sort per page):
// a page by name in the middle, by date in descending order, and by marker.
func BenchmarkListTrashPage(b *testing.B) {
	s, id := bigFolder(b, 20000)
	tx, end := beginTx(s.st)
	for _, it := range tx.Folders.Index(id, nil).All() {
		tx.TrashItem(it, tx.Admin)
	}
	end()
	h := s.Handler()
	for name, query := range map[string]string{
		"name_middle": "?limit=100&sort=name&offset=10000",
		"date_desc":   "?limit=100&sort=date&direction=DESC&offset=5000",
		"marker":      "?limit=100&usemarker=true&marker=" + wire.EncodeMarker(15000),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchDo(b, h, http.MethodGet, "/folders/trash/items"+query, s.AdminToken(), "", "")
			}
		})
	}
}
