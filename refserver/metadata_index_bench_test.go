package refserver

import (
	"strconv"
	"testing"

	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkMetadataIndex measures a sort index alone (no HTTP, no patch),
// on 10,000 instances of one template: building it, moving an instance
// (remove, change the value, insert: what an update does) and walking a
// page of 100 from a marker in both directions.
func BenchmarkMetadataIndex(b *testing.B) {
	s, items := benchServer(b, 10_000)
	tx, end := beginTx(s.st)
	defer end()
	t := tx.Template(tx.EnterpriseScope(), "contract")
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			delete(t.Sorted, "amount")
			t.Index("amount")
		}
	})
	x := t.Index("amount")
	b.Run("move", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			in := t.Instances[items[i%len(items)].ID]
			x.Remove(in)
			v := 20_000 + i
			in.Values.Set("amount", state.MDVal{Kind: state.ValNumber, S: strconv.Itoa(v), F: float64(v)})
			x.Insert(in)
		}
	})
	o := metadata.QueryOrder{Keys: []metadata.QField{{Key: "amount"}}}
	after := metadata.PositionOf(tx, o, t.Instances[items[len(items)/2].ID])
	for _, desc := range []bool{false, true} {
		name := "walk-asc"
		if desc {
			name = "walk-desc"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				n := 0
				x.Walk(&after, desc, func(*state.MDInstance) bool { n++; return n < 100 })
			}
		})
	}
}
