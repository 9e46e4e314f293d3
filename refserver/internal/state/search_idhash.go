package state

import "iter"

// idHash is an open-addressing hash table (linear probing, removal by
// backward shift: no slot is ever a tombstone) of small numbers, each
// found by a key that a keyer reads from what the number names: 4 bytes a
// slot and no pointer for the collector to scan, where a Go map from the
// key held the key too and its slack. The search index keeps its words'
// ids by word (wordTable) and its documents' ordinals by item (docTable)
// in one.
//
// A keyer is passed to each call, so that it may read a slice that moves
// (the lists of the words, the ordinals' items). A number's key must not
// change while the table holds it.
type idHash[K any, F idKeyer[K]] struct {
	slots []uint32 // a power of two long (or empty): a number+1; 0: free
	n     int
}

// idKeyer reads the keys of an idHash's numbers and hashes keys: has(id,
// k) is key(id) == k and hashOf(id) hash(key(id)).
type idKeyer[K any] interface {
	hash(k K) uint64
	hashOf(id uint32) uint64
	has(id uint32, k K) bool
}

// home is the slot where the probe for a hash h starts.
func (t *idHash[K, F]) home(h uint64) int { return int(h & uint64(len(t.slots)-1)) }

// find is the number of key k, if the table holds it.
func (t *idHash[K, F]) find(k K, f F) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.home(f.hash(k)); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if f.has(s-1, k) {
			return s - 1, true
		}
	}
}

// add files id, whose key the table does not hold. The table doubles at
// three quarters full.
func (t *idHash[K, F]) add(id uint32, f F) {
	if (t.n+1)*4 > len(t.slots)*3 {
		old := t.slots
		t.slots = make([]uint32, max(8, 2*len(old)))
		for _, s := range old {
			if s != 0 {
				t.file(s, f)
			}
		}
	}
	t.file(id+1, f)
	t.n++
}

// file puts the slot value s (a number+1) in the first free slot of its
// key's probe.
func (t *idHash[K, F]) file(s uint32, f F) {
	mask := len(t.slots) - 1
	i := t.home(f.hashOf(s - 1))
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// remove takes the number of key k out, if the table holds it, while the
// keyer still reads its key, and returns it. The numbers after it in its
// probe run move back into the gap where their own probes would reach it.
func (t *idHash[K, F]) remove(k K, f F) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	i := t.home(f.hash(k))
	for ; t.slots[i] == 0 || !f.has(t.slots[i]-1, k); i = (i + 1) & mask {
		if t.slots[i] == 0 {
			return 0, false
		}
	}
	removed := t.slots[i] - 1
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		// The number at j may fill the gap at i unless its home lies
		// cyclically in (i, j]: its probe would not pass i.
		h := t.home(f.hashOf(t.slots[j] - 1))
		if i <= j && (h <= i || h > j) || i > j && h <= i && h > j {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
	t.n--
	return removed, true
}

// all is every number of the table, in no order.
func (t *idHash[K, F]) all() iter.Seq[uint32] {
	return func(yield func(uint32) bool) {
		for _, s := range t.slots {
			if s != 0 && !yield(s-1) {
				return
			}
		}
	}
}
