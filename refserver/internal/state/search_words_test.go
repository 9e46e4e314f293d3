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
	tab, want := newWordTable(), map[string]*postingList{}
	for step := range 40000 {
		w := strconv.Itoa(rng.IntN(300))
		if rng.IntN(3) == 0 {
			tab.remove(w)
			delete(want, w)
		} else if want[w] == nil {
			p := &postingList{word: w}
			tab.add(p)
			want[w] = p
		}
		if step%97 == 0 {
			for i := range 310 {
				w := strconv.Itoa(i)
				if got := tab.get(w); got != want[w] {
					t.Fatalf("step %d: get(%q) = %p, want %p", step, w, got, want[w])
				}
			}
			var got []string
			for p := range tab.all() {
				got = append(got, p.word)
			}
			slices.Sort(got)
			keys := slices.Sorted(func(yield func(string) bool) {
				for w := range want {
					if !yield(w) {
						return
					}
				}
			})
			if !slices.Equal(got, keys) || tab.len() != len(want) {
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
