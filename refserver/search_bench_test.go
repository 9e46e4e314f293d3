package refserver

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkSearch100k answers one search page over 100,000 items (names
// of three words from a vocabulary of 1,000, so a word matches ~300
// items): a word, a phrase, an AND and a NOT query, by relevance and by
// modified_at. The index is built before the timer starts; every query
// evaluates through it, filters by the access model and renders a page.
func BenchmarkSearch100k(b *testing.B) {
	const n = 100_000
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	tx, end := beginTx(s.st)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	word := func(i int) string { return fmt.Sprintf("w%03d", i%1000) }
	for i := range n {
		content := blob.RefOf(BlobInfo{ID: blob.NewID(), Size: int64(i % 1000), SHA1: fmt.Sprintf("%040x", i)})
		tx.AddItem(&state.Item{Typ: "file", ID: tx.NewID(), Name: word(i) + " " + word(i*7+3) + " " + word(i*13+5) + ".pdf", ParentID: state.RootID,
			Owner: tx.Admin, CreatedBy: tx.Admin, ModBy: tx.Admin, CreatedAt: now, ModifiedAt: now.Add(time.Duration(i) * time.Second),
			Versions: []*state.Version{state.NewVersion(tx.NewID(), content, now, tx.Admin)}})
	}
	end()
	if _, err := s.st.CatchUpSearch(b.Context()); err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	for name, query := range map[string]string{
		"word":        "query=w042",
		"phrase":      "query=%22w042+w297%22",
		"and":         "query=w042+AND+w297",
		"not":         "query=w042+AND+NOT+w297",
		"modified_at": "query=w042&sort=modified_at&limit=100",
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchDo(b, h, http.MethodGet, "/search?"+query, s.AdminToken(), "", "")
			}
		})
	}
}
