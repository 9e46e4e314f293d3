package state

import (
	"hash/maphash"
	"iter"
	"math/bits"
)

// itemHash is a hash table of items, each found by the key K its keyer F
// reads from the item itself: open addressing with linear probing, and
// removal by backward shift (no slot is ever a tombstone). A slot is a
// pointer, 8 bytes, where a map from the key to the item holds the key
// too (a string: 16 bytes more) and a Go map's slack: a big map is a
// directory of tables whose count is a power of two, up to twice the room
// its items need (the items table at a million items: 45 MB). Here the
// table is any length (a probe starts at the hash's multiply-high by it)
// and grows by half at three quarters full.
//
// An item's key must not change while it is in the table.
type itemHash[K comparable, F itemKeyer[K]] struct {
	f     F
	slots []*Item // nil: free
	n     int
}

// itemKeyer reads an item's key in an itemHash, and hashes keys: has(it,
// k) is key(it) == k and hashOf(it) hash(key(it)), which a keyer may
// tell without making the key.
type itemKeyer[K comparable] interface {
	key(it *Item) K
	hash(k K) uint64
	has(it *Item, k K) bool
	hashOf(it *Item) uint64
}

// itemHashSeed seeds the hashes of the keys of every itemHash.
var itemHashSeed = maphash.MakeSeed()

// home is the slot where the probe for a key of hash h starts.
func (t *itemHash[K, F]) home(h uint64) int {
	hi, _ := bits.Mul64(h, uint64(len(t.slots)))
	return int(hi)
}

// len is the number of items.
func (t *itemHash[K, F]) len() int { return t.n }

// get is the item of key k, nil when there is none.
func (t *itemHash[K, F]) get(k K) *Item {
	if t.n == 0 {
		return nil
	}
	for i := t.home(t.f.hash(k)); ; {
		it := t.slots[i]
		if it == nil || t.f.has(it, k) {
			return it
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
}

// set files it under its key, in place of the item filed under it before
// (returned; nil: none).
func (t *itemHash[K, F]) set(it *Item) (old *Item) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.resize(max(8, len(t.slots)+len(t.slots)/2))
	}
	k := t.f.key(it)
	i := t.home(t.f.hash(k))
	for ; t.slots[i] != nil; i++ {
		if t.f.has(t.slots[i], k) {
			old, t.slots[i] = t.slots[i], it
			return old
		}
		if i == len(t.slots)-1 {
			i = -1
		}
	}
	t.slots[i] = it
	t.n++
	return nil
}

// grow makes room for n items in all (a load that knows how many it
// files), so that the table does not grow step by step.
func (t *itemHash[K, F]) grow(n int) {
	if size := n + n/2; size > len(t.slots) {
		t.resize(size)
	}
}

// resize moves the items into a table of size slots.
func (t *itemHash[K, F]) resize(size int) {
	old := t.slots
	t.slots = make([]*Item, size)
	for _, it := range old {
		if it == nil {
			continue
		}
		i := t.home(t.f.hashOf(it))
		for t.slots[i] != nil {
			if i++; i == len(t.slots) {
				i = 0
			}
		}
		t.slots[i] = it
	}
}

// remove takes the item of key k out and returns it (nil: none). The
// items after it in its probe run move back into the gap where their own
// probes would pass it.
func (t *itemHash[K, F]) remove(k K) *Item {
	if t.n == 0 {
		return nil
	}
	i := t.home(t.f.hash(k))
	for {
		it := t.slots[i]
		if it == nil {
			return nil
		}
		if t.f.has(it, k) {
			break
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
	removed := t.slots[i]
	for j := i; ; {
		if j++; j == len(t.slots) {
			j = 0
		}
		it := t.slots[j]
		if it == nil {
			break
		}
		// The item at j may fill the gap at i unless its home lies
		// cyclically in (i, j]: its probe would not pass i.
		h := t.home(t.f.hashOf(it))
		if i <= j && (h <= i || h > j) || i > j && h <= i && h > j {
			t.slots[i] = it
			i = j
		}
	}
	t.slots[i] = nil
	t.n--
	return removed
}

// all is every item of the table, in no order.
func (t *itemHash[K, F]) all() iter.Seq[*Item] {
	return func(yield func(*Item) bool) {
		for _, it := range t.slots {
			if it != nil && !yield(it) {
				return
			}
		}
	}
}
