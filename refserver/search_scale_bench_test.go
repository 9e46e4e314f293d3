package refserver

import (
	"flag"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/proccpu"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

var searchScaleSizes = flag.String("search-scale", "50000,200000", "BenchmarkSearchScale: the numbers of files, comma-separated")

// BenchmarkSearchScale answers the search of cmd/cmsbench/scale (one word
// of a vocabulary of 1,000 that names about two thousandths of the files,
// a page of 20, by relevance, as the admin) over n files added through the
// state (-search-scale; 50k and 200k by default), the index up to date:
// through the handler (http) and the state alone (state: catch-up,
// evaluation, the transaction that checks and orders the hits, rendering
// only the page's ids). Files are in folders of 1,000 and named as the harness
// names them, as PDFs (no content to read). Besides ns/op it reports the
// process's CPU time per search (cpu-ns/op), steadier on a shared machine.
func BenchmarkSearchScale(b *testing.B) {
	for _, f := range strings.Split(*searchScaleSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			s := searchScaleServer(b, n)
			h := s.Handler()
			tok := s.AdminToken()
			benchDo(b, h, http.MethodGet, "/search?query=w042&limit=20", tok, "", "") // indexes the n items
			var admin *state.Principal
			s.st.View(func(tx *state.ReadTx) { admin = tx.Principals[tok] })
			words := make([]string, 64)
			for i := range words {
				words[i] = fmt.Sprintf("w%03d", (i*137+42)%1000)
			}
			runtime.GC() // the set-up's garbage is not the searches' to collect
			b.Run("http", func(b *testing.B) {
				b.ReportAllocs()
				defer reportCPUPerOp(b)()
				i := 0
				for b.Loop() {
					benchDo(b, h, http.MethodGet, "/search?limit=20&query="+words[i%len(words)], tok, "", "")
					i++
				}
			})
			b.Run("state", func(b *testing.B) {
				b.ReportAllocs()
				defer reportCPUPerOp(b)()
				i := 0
				for b.Loop() {
					q := &state.SearchRequest{Query: parseSearchQuery(words[i%len(words)]), HasQuery: true, Mask: state.AllSearchFields,
						Trash: "non_trashed_only", Page: wire.Page{Limit: 20}, Fields: []string{"id"}}
					i++
					err := s.st.Search(b.Context(), admin, q, func(tx *state.Tx, h *state.SearchHits) {
						if _, aerr := tx.SearchTx(admin, q, h); aerr != nil {
							b.Fatal(aerr)
						}
					})
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// searchScaleServer is a server with n files in folders of 1,000, added
// through the state and named as cmd/cmsbench/scale names them (two
// words of a vocabulary of 1,000), as PDFs.
func searchScaleServer(b *testing.B, n int) *Server {
	b.Helper()
	return filledServer(b, func(f *benchFill) {
		var folder string
		for i := range n {
			if i%1000 == 0 {
				folder = f.folder(fmt.Sprintf("f%04d", i/1000), state.RootID)
			}
			f.file(fmt.Sprintf("doc-%07d w%03d w%03d.pdf", i, i%1000, (i*7+3)%1000), folder, 40, i, time.Duration(i)*time.Second)
		}
	})
}

// reportCPUPerOp starts counting the process's CPU time and returns the
// function that reports it per op (cpu-ns/op): on a shared machine it
// varies less than the wall time.
func reportCPUPerOp(b *testing.B) func() {
	start, ok := proccpu.Used()
	return func() {
		if end, ok2 := proccpu.Used(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
