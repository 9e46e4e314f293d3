package state

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"testing"
)

// nameKeyer keys items by name; with few set, every name hashes to one of
// few values (long probe runs that wrap around the table's end).
type nameKeyer struct{ few bool }

func (nameKeyer) key(it *Item) string { return it.Name }

func (nameKeyer) has(it *Item, k string) bool { return it.Name == k }

func (f nameKeyer) hashOf(it *Item) uint64 { return f.hash(it.Name) }

func (f nameKeyer) hash(k string) uint64 {
	h := maphash.String(itemHashSeed, k)
	if f.few {
		h = (h % 3) * (1 << 62) // homes at the start, a third and two thirds in, and the end
	}
	return h
}

// TestItemHashAsAMap: random sets, replacements and removals in an
// itemHash leave it holding what a map holds, with good hashes and with
// colliding ones.
func TestItemHashAsAMap(t *testing.T) {
	for _, few := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(1, 2))
		tab := itemHash[string, nameKeyer]{f: nameKeyer{few: few}}
		want := map[string]*Item{}
		for step := range 20000 {
			name := fmt.Sprint(rng.IntN(300))
			switch rng.IntN(3) {
			case 0, 1:
				it := &Item{Name: name}
				if old := tab.set(it); old != want[name] {
					t.Fatalf("few=%v step %d: set(%s) replaced %p, want %p", few, step, name, old, want[name])
				}
				want[name] = it
			default:
				if got := tab.remove(name); got != want[name] {
					t.Fatalf("few=%v step %d: remove(%s) = %p, want %p", few, step, name, got, want[name])
				}
				delete(want, name)
			}
			if step%97 == 0 {
				if tab.len() != len(want) {
					t.Fatalf("few=%v step %d: len %d, want %d", few, step, tab.len(), len(want))
				}
				for i := range 300 {
					k := fmt.Sprint(i)
					if got := tab.get(k); got != want[k] {
						t.Fatalf("few=%v step %d: get(%s) = %p, want %p", few, step, k, got, want[k])
					}
				}
				n := 0
				for it := range tab.all() {
					if want[it.Name] != it {
						t.Fatalf("few=%v step %d: all yields %s, not held", few, step, it.Name)
					}
					n++
				}
				if n != len(want) {
					t.Fatalf("few=%v step %d: all yields %d, want %d", few, step, n, len(want))
				}
			}
		}
		tab.grow(1000)
		for k, it := range want {
			if tab.get(k) != it {
				t.Fatalf("few=%v: get(%s) after grow", few, k)
			}
		}
	}
}
