package refserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// searchStallNewFiles is how many files BenchmarkSearchStall writes before
// each round of searches.
const searchStallNewFiles = 5_000

// BenchmarkSearchStall measures what a search costs the other clients of
// the server (issue 35): n items (5k, and 50k unless -short), then, each
// round, 5,000 new text files uploaded through the handler, then 5
// searches one after the other while 2 other clients GET files, each
// pausing 1 ms between requests, for the searches' time and at least 200
// ms. It reports the GETs' latency during the searches (get-p50-ms,
// get-p99-ms, get-max-ms), the first search after the writes (search1-ms)
// and the median search (search-ms). Run with -benchtime=Nx for N rounds
// (each round adds 5,000 files); ns/op is a round's searches and is not
// the figure to read.
func BenchmarkSearchStall(b *testing.B) {
	for _, n := range []int{5_000, 50_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			if n > 5_000 && testing.Short() {
				b.Skip("-short: the 5k case only")
			}
			s := searchBenchServer(b, n)
			h := s.Handler()
			tok := s.AdminToken()
			ids := searchBenchFileIDs(s, 1000)
			benchDo(b, h, http.MethodGet, "/search?query=w042", tok, "", "") // indexes the n items
			var gets, firsts, searches []time.Duration
			b.ResetTimer()
			for round := range b.N {
				b.StopTimer()
				uploadSearchBenchFiles(b, h, tok, round, searchStallNewFiles)
				b.StartTimer()
				g, first, all := searchWhileGetting(b, h, tok, ids)
				gets = append(gets, g...)
				firsts = append(firsts, first)
				searches = append(searches, all...)
			}
			b.StopTimer()
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(percentile(gets, 50)), "get-p50-ms")
			b.ReportMetric(ms(percentile(gets, 99)), "get-p99-ms")
			b.ReportMetric(ms(percentile(gets, 100)), "get-max-ms")
			b.ReportMetric(float64(len(gets))/float64(b.N), "gets/round")
			b.ReportMetric(ms(percentile(firsts, 50)), "search1-ms")
			b.ReportMetric(ms(percentile(searches, 50)), "search-ms")
		})
	}
}

// BenchmarkSearchLatency answers one search page over n items (5k, and
// 50k unless -short) whose index is up to date: a word matching ~n/1000
// items and a prefix matching ~n/100, through the handler.
func BenchmarkSearchLatency(b *testing.B) {
	for _, n := range []int{5_000, 50_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			if n > 5_000 && testing.Short() {
				b.Skip("-short: the 5k case only")
			}
			s := searchBenchServer(b, n)
			h := s.Handler()
			tok := s.AdminToken()
			benchDo(b, h, http.MethodGet, "/search?query=w042", tok, "", "") // indexes the n items
			for name, query := range map[string]string{"word": "query=w042", "prefix": "query=w04"} {
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						benchDo(b, h, http.MethodGet, "/search?"+query, tok, "", "")
					}
				})
			}
		})
	}
}

// searchBenchServer is a server with n files in the root folder, added
// through the state: names of three words from a vocabulary of 1,000
// (w000 to w999), PDFs (no content to index).
func searchBenchServer(b *testing.B, n int) *Server {
	b.Helper()
	word := func(i int) string { return fmt.Sprintf("w%03d", i%1000) }
	return filledServer(b, func(f *benchFill) {
		for i := range n {
			f.file(word(i)+" "+word(i*7+3)+" "+word(i*13+5)+".pdf", state.RootID, int64(i%1000), i, time.Duration(i)*time.Second)
		}
	})
}

// searchBenchFileIDs returns the ids of up to k files of s.
func searchBenchFileIDs(s *Server, k int) []string {
	var ids []string
	s.st.View(func(tx *state.ReadTx) {
		for _, it := range tx.Items.All() {
			if it.Typ == "file" && len(ids) < k {
				ids = append(ids, it.ID)
			}
		}
	})
	return ids
}

// uploadSearchBenchFiles uploads k new text files to the root folder
// through the handler, each of about 1 KB of words of the vocabulary.
func uploadSearchBenchFiles(b *testing.B, h http.Handler, tok string, round, k int) {
	b.Helper()
	var text strings.Builder
	for i := range k {
		text.Reset()
		for j := range 150 {
			fmt.Fprintf(&text, "w%03d ", (i*31+j*17+round)%1000)
		}
		attrs := fmt.Sprintf(`{"name":"r%d-%d note.txt","parent":{"id":"0"}}`, round, i)
		body, ct := multipartBody(b, attrs, []byte(text.String()))
		req := httptest.NewRequest(http.MethodPost, "http://"+state.InProcessUploadHost+state.UploadRoot+"/files/content", body)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", ct)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusCreated {
			b.Fatalf("upload: %d %s", w.Code, w.Body)
		}
	}
}

// searchWhileGetting runs 5 searches one after the other while 2 clients
// GET files of ids, and returns the GETs' latencies, the first search's and
// every search's.
func searchWhileGetting(b *testing.B, h http.Handler, tok string, ids []string) (gets []time.Duration, first time.Duration, searches []time.Duration) {
	b.Helper()
	stop := startGetting(b, h, tok, ids)
	start := time.Now()
	for i, query := range []string{"w042", "note", "%22w001+w018%22", "w7", "w100+AND+NOT+w200"} {
		t0 := time.Now()
		benchDo(b, h, http.MethodGet, "/search?query="+query, tok, "", "")
		d := time.Since(t0)
		if i == 0 {
			first = d
		}
		searches = append(searches, d)
	}
	if rest := 200*time.Millisecond - time.Since(start); rest > 0 {
		time.Sleep(rest)
	}
	return stop(), first, searches
}

// startGetting starts 2 clients that GET files of ids one after the other,
// each pausing 1 ms between requests, and returns the function that stops
// them and gives their latencies.
func startGetting(b *testing.B, h http.Handler, tok string, ids []string) (stop func() []time.Duration) {
	b.Helper()
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var gets []time.Duration
	for c := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; ; i += 2 {
				select {
				case <-done:
					return
				default:
				}
				req := httptest.NewRequest(http.MethodGet, "http://"+state.InProcessAPIHost+state.APIRoot+"/files/"+ids[i%len(ids)], nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				w := httptest.NewRecorder()
				t0 := time.Now()
				h.ServeHTTP(w, req)
				d := time.Since(t0)
				if w.Code != http.StatusOK {
					b.Errorf("GET file: %d %s", w.Code, w.Body)
					return
				}
				mu.Lock()
				gets = append(gets, d)
				mu.Unlock()
				time.Sleep(time.Millisecond)
			}
		}()
	}
	return func() []time.Duration {
		close(done)
		wg.Wait()
		return gets
	}
}

// percentile is the p-th percentile (nearest rank) of ds; 0 when empty.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// BenchmarkSearchWideStall measures what a search that matches many items
// costs the other clients: n items (50k, 5k with -short), then searches
// of a prefix that matches 10% of them (w1: w100 to w199), one after the
// other for 300 ms, while 2 other clients GET files, each pausing 1 ms
// between requests. It reports the GETs' latency (get-p50-ms,
// get-p99-ms, get-max-ms) and the median search (search-ms).
func BenchmarkSearchWideStall(b *testing.B) {
	n := 50_000
	if testing.Short() {
		n = 5_000
	}
	s := searchBenchServer(b, n)
	h := s.Handler()
	tok := s.AdminToken()
	ids := searchBenchFileIDs(s, 1000)
	benchDo(b, h, http.MethodGet, "/search?query=w1", tok, "", "") // indexes the n items
	var gets, searches []time.Duration
	for b.Loop() {
		stop := startGetting(b, h, tok, ids)
		for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
			t0 := time.Now()
			benchDo(b, h, http.MethodGet, "/search?query=w1", tok, "", "")
			searches = append(searches, time.Since(t0))
		}
		gets = append(gets, stop()...)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(percentile(gets, 50)), "get-p50-ms")
	b.ReportMetric(ms(percentile(gets, 99)), "get-p99-ms")
	b.ReportMetric(ms(percentile(gets, 100)), "get-max-ms")
	b.ReportMetric(ms(percentile(searches, 50)), "search-ms")
}
