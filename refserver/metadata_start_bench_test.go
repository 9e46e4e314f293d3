package refserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkMetadataQueryAfterStart measures the first metadata queries of
// a server whose field indexes are as a start leaves them (issue 35: the
// first query that filtered on a field built its index, ~2 µs an
// instance, holding the state's lock), with an instance on each of
// 20,000 and 100,000 files. Each round forgets the template's indexes as
// a restart does (forgetIndexes), then:
//
//   - at-once: 50 queries `code = :c` (10 matches each) back to back,
//     each followed by a GET of a file, starting at once: first-ms is the
//     first query, q-p50-ms and q-p99-ms the queries' percentiles over
//     every round, get-p99-ms the GETs';
//   - settled: the same once the builder has filed every index (at
//     least a second after the start; built-ms is when it had): a server
//     that answered other requests first, as the scale harness's does.
//     Before the builder, the first query built its index whenever it
//     came.
func BenchmarkMetadataQueryAfterStart(b *testing.B) {
	for _, n := range []int{20_000, 100_000} {
		s, items := benchServerCoded(b, n, true)
		h := s.Handler()
		r := rand.New(rand.NewPCG(uint64(n), 35))
		for _, mode := range []string{"at-once", "settled"} {
			b.Run(fmt.Sprintf("%s/n=%d", mode, n), func(b *testing.B) {
				var first, qs, gets, built []float64
				for range b.N {
					start := time.Now()
					forgetIndexes(s)
					if mode == "settled" {
						time.Sleep(time.Second)
						for !indexesBuilt(s) {
							time.Sleep(5 * time.Millisecond)
						}
						built = append(built, float64(time.Since(start).Milliseconds()))
					}
					for i := range 50 {
						params, _ := json.Marshal(map[string]any{"c": fmt.Sprintf("c%05d", r.IntN(n/10))})
						body := fmt.Sprintf(`{"from":"%s.contract","ancestor_folder_id":"0","query":"code = :c","query_params":%s,"limit":100}`,
							s.st.EnterpriseScope(), params)
						t0 := time.Now()
						benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", body)
						d := float64(time.Since(t0).Microseconds()) / 1000
						qs = append(qs, d)
						if i == 0 {
							first = append(first, d)
						}
						t0 = time.Now()
						benchDo(b, h, "GET", "/files/"+items[r.IntN(n)].ID, s.AdminToken(), "", "")
						gets = append(gets, float64(time.Since(t0).Microseconds())/1000)
					}
				}
				b.ReportMetric(pct(first, 50), "first-ms")
				b.ReportMetric(pct(qs, 50), "q-p50-ms")
				b.ReportMetric(pct(qs, 99), "q-p99-ms")
				b.ReportMetric(pct(gets, 99), "get-p99-ms")
				if built != nil {
					b.ReportMetric(pct(built, 50), "built-ms")
				}
				s.ResetRequests()
			})
		}
	}
}

// indexesBuilt reports whether the builder has filed every index.
func indexesBuilt(s *Server) bool {
	done := true
	s.st.View(func(tx *state.ReadTx) {
		for _, t := range tx.Metadata.Order {
			for _, x := range t.Sorted {
				done = done && x.Complete()
			}
		}
	})
	return done
}

// pct is the p-th percentile of d.
func pct(d []float64, p int) float64 {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[min(len(d)-1, len(d)*p/100)]
}

// forgetIndexes leaves the templates' query indexes as a start leaves
// them: none, and the builder started on them (StartMetadataIndexer, as
// New does once the state is loaded).
func forgetIndexes(s *Server) {
	s.st.Update(func(tx *state.Tx) {
		for _, t := range tx.Metadata.Order {
			t.Sorted = nil
		}
	})
	s.st.StartMetadataIndexer()
}
