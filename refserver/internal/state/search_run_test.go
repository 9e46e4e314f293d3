package state

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestFirstKIsTheSortedPrefix: firstK keeps, in order, the first k of
// what it is given, as a full sort would (the search orders only its
// page and those before it).
func TestFirstKIsTheSortedPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	order := func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmpNewest(a.it, b.it)
	}
	for round := range 200 {
		n := rng.IntN(300)
		all := make([]scored, n)
		for i := range all {
			it := &Item{ID: fmt.Sprint(100 + i), ModifiedAt: base.Add(time.Duration(rng.IntN(20)) * time.Second)}
			all[i] = scored{it, rng.IntN(5)}
		}
		k := rng.IntN(n + 10)
		f := newFirstK(min(k, n), order)
		for _, v := range all {
			f.add(v)
		}
		want := slices.Clone(all)
		slices.SortFunc(want, order)
		want = want[:min(k, n)]
		got := f.sorted()
		if len(got) != len(want) {
			t.Fatalf("round %d: %d kept, want %d", round, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("round %d (n %d, k %d): at %d got %s/%d, want %s/%d", round, n, k, i, got[i].it.ID, got[i].score, want[i].it.ID, want[i].score)
			}
		}
	}
}
