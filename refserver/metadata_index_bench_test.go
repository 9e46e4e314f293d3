package refserver

import (
	"strconv"
	"testing"
)

// BenchmarkMetadataIndex measures a sort index alone (no HTTP, no patch),
// on 10,000 instances of one template: building it, moving an instance
// (remove, change the value, insert: what an update does) and walking a
// page of 100 from a marker in both directions.
func BenchmarkMetadataIndex(b *testing.B) {
	s, items := benchServer(b, 10_000)
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.template(s.enterpriseScope(), "contract")
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			delete(t.sorted, "amount")
			t.index("amount")
		}
	})
	x := t.index("amount")
	b.Run("move", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			in := t.instances[items[i%len(items)].id]
			x.remove(in)
			v := 20_000 + i
			in.values["amount"] = mdVal{kind: valNumber, s: strconv.Itoa(v), f: float64(v)}
			x.insert(in)
		}
	})
	o := queryOrder{keys: []qField{{key: "amount"}}}
	after := s.positionOf(o, t.instances[items[len(items)/2].id])
	for _, desc := range []bool{false, true} {
		name := "walk-asc"
		if desc {
			name = "walk-desc"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				n := 0
				x.walk(&after, desc, func(*mdInstance) bool { n++; return n < 100 })
			}
		})
	}
}
