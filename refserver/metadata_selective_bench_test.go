package refserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkMetadataQuerySelective serves queries with exactly 10 matches
// and no order_by, through the handler, with an instance on each of 5,000
// and of 50,000 files (issue 35: a query's cost should follow its
// matches, not the template's instances): an equality on a string field,
// a range on a float field, an IN list and a LIKE with a literal prefix.
func BenchmarkMetadataQuerySelective(b *testing.B) {
	type query struct {
		name, q string
		params  func(n int) map[string]any
	}
	queries := []query{
		{"eq", "code = :c", func(n int) map[string]any { return map[string]any{"c": fmt.Sprintf("c%05d", n/20)} }},
		{"range", "amount >= :lo AND amount < :hi", func(n int) map[string]any {
			return map[string]any{"lo": n / 2, "hi": n/2 + 10}
		}},
		{"in", "amount IN (:a0, :a1, :a2, :a3, :a4, :a5, :a6, :a7, :a8, :a9)", func(n int) map[string]any {
			m := map[string]any{}
			for i := range 10 {
				m[fmt.Sprintf("a%d", i)] = i * (n / 10)
			}
			return m
		}},
		{"like", "customer LIKE :p", func(n int) map[string]any { return map[string]any{"p": fmt.Sprintf("Customer %04d%%", n/20)} }},
	}
	// Queries that match much of the template: a planner must not make
	// them slower than the walk that fills a page in a few hundred steps.
	dense := []query{
		{"dense-eq", "status = :s", func(int) map[string]any { return map[string]any{"s": "active"} }},
		{"dense-range", "amount < :a", func(n int) map[string]any { return map[string]any{"a": n / 4} }},
		{"dense-and", "amount < :a AND customer ILIKE :p", func(n int) map[string]any {
			return map[string]any{"a": n / 4, "p": "%0"}
		}},
	}
	for _, n := range []int{5_000, 50_000} {
		s, _ := benchServerCoded(b, n, true)
		h := s.Handler()
		for _, q := range append(queries, dense...) {
			params, _ := json.Marshal(q.params(n))
			body := fmt.Sprintf(`{"from":"%s.contract","ancestor_folder_id":"0","query":%q,"query_params":%s,"limit":100}`,
				s.st.EnterpriseScope(), q.q, params)
			b.Run(fmt.Sprintf("%s/n=%d", q.name, n), func(b *testing.B) {
				w := benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", body) // checks the answer
				var out struct {
					Entries []json.RawMessage `json:"entries"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || len(out.Entries) != 10 && !strings.HasPrefix(q.name, "dense") {
					b.Fatalf("%s: %d entries (want 10), %v: %s", q.q, len(out.Entries), err, strings.TrimSpace(w.Body.String()))
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", body)
				}
				b.StopTimer()
				s.ResetRequests()
			})
		}
	}
}
