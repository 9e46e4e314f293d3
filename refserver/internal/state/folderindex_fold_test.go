package state

import (
	"hash/maphash"
	"math/rand/v2"
	"testing"
)

// TestFoldKeyer: the folder index's keyer tells an item's fold and its
// hash without making it exactly as FoldName's string does, for ASCII
// names, names of other scripts, case orbits (the Kelvin sign, the long
// s, dotted I) and invalid UTF-8.
func TestFoldKeyer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "\u0130", "i", "I", "\u0131", "é", "É", "ß", "ẞ", "Σ", "σ", "ς", "日", "\xff", "\xe2\x82", "😀", ".", " "}
	var f foldKeyer
	names := []string{"", "a", "\u212a", "\xff"}
	for range 3000 {
		name := ""
		for range rng.IntN(8) {
			name += alphabet[rng.IntN(len(alphabet))]
		}
		names = append(names, name)
	}
	for i, name := range names {
		it := &Item{Name: name, ID: "1"}
		it.slot = slotFor(it)
		fold := FoldName(name)
		if got := f.key(it); got != fold {
			t.Fatalf("key(%q) = %q, want %q", name, got, fold)
		}
		if f.hashOf(it) != maphash.String(itemHashSeed, fold) || f.hash(fold) != f.hashOf(it) {
			t.Fatalf("hashOf(%q) is not the hash of %q", name, fold)
		}
		if !f.has(it, fold) {
			t.Fatalf("has(%q, %q) false", name, fold)
		}
		other := FoldName(names[(i*7+1)%len(names)])
		if f.has(it, other) != (other == fold) {
			t.Fatalf("has(%q, %q) = %v", name, other, !(other == fold))
		}
		for _, k := range []string{fold + "a", fold + "\u212a", "x" + fold, fold + "\xff", "\xff"} {
			if k == fold {
				continue
			}
			if f.has(it, k) {
				t.Fatalf("has(%q, %q) true", name, k)
			}
		}
		if len(fold) > 0 && f.has(it, fold[:len(fold)-1]) {
			t.Fatalf("has(%q, %q) true", name, fold[:len(fold)-1])
		}
	}
}
