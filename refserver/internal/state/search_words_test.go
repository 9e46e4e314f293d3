package state

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestWordTableAsAMap checks the word table against a map under random
// adds and removes, in a table small enough for long probe runs that wrap
// around its end.
func TestWordTableAsAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tab, want := newWordTable(), map[string]bool{}
	for step := range 40000 {
		w := strconv.Itoa(rng.IntN(300))
		if rng.IntN(3) == 0 {
			tab.remove(w)
			delete(want, w)
		} else if !want[w] {
			id := tab.add(w)
			if got := tab.list(id).word; got != w {
				t.Fatalf("step %d: add(%q) filed %q", step, w, got)
			}
			want[w] = true
		}
		if step%97 == 0 {
			for i := range 310 {
				w := strconv.Itoa(i)
				got := tab.get(w)
				if (got != nil) != want[w] || got != nil && got.word != w {
					t.Fatalf("step %d: get(%q) = %v, want it held: %v", step, w, got, want[w])
				}
			}
			var got []string
			for id := range tab.all() {
				got = append(got, tab.list(id).word)
			}
			slices.Sort(got)
			keys := slices.Sorted(func(yield func(string) bool) {
				for w := range want {
					if !yield(w) {
						return
					}
				}
			})
			if !slices.Equal(got, keys) || tab.len() != len(want) || len(tab.lists)-len(tab.free) != len(want) {
				t.Fatalf("step %d: table holds %d words %v, want %d %v", step, tab.len(), got, len(want), keys)
			}
		}
	}
	var empty wordTable
	empty.remove("x")
	if empty.get("x") != nil || empty.len() != 0 {
		t.Error("an empty table holds something")
	}
}
