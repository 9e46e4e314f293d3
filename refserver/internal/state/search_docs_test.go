package state

import (
	"math/rand/v2"
	"testing"
)

// TestDocTableAsAMap checks the index's documents by item against a map
// under random puts and drops, ordinals reused, in a table small enough
// for long probe runs that wrap around its end.
func TestDocTableAsAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	items := make([]*Item, 300)
	for i := range items {
		items[i] = &Item{ID: string(rune('a' + i))}
	}
	x := NewSearchIndex()
	want := map[*Item]*SearchDoc{}
	for step := range 40000 {
		it := items[rng.IntN(len(items))]
		if rng.IntN(3) == 0 {
			x.drop(it)
			delete(want, it)
		} else {
			d := &docDraft{SearchDoc: &SearchDoc{data: make([]uint64, 1), nwords: 1}, words: []docWord{{"w", FieldName}}}
			x.put(it, d)
			want[it] = d.SearchDoc
		}
		if step%97 == 0 {
			for _, it := range items {
				if got := x.doc(it); got != want[it] {
					t.Fatalf("step %d: doc(%s) = %p, want %p", step, it.ID, got, want[it])
				}
			}
			if x.docs.n != len(want) || len(x.byOrd)-len(x.free) != len(want) || x.postings.get("w").len() != len(want) {
				t.Fatalf("step %d: the index holds %d documents, %d ordinals, %d postings; want %d", step, x.docs.n, len(x.byOrd)-len(x.free), x.postings.get("w").len(), len(want))
			}
		}
	}
}
