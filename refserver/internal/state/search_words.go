package state

import (
	"hash/maphash"
	"iter"
)

// wordTable is the index's posting lists by word: an open-addressing hash
// table (linear probing) of the lists themselves, each of which knows its
// word — 8 bytes a slot where a map[string]*postingList took 24 and its
// slack. At a million items the index holds over a million words, nearly
// all in one item (every generated file name carries a number), and the
// map was ~55 MB of them.
type wordTable struct {
	seed  maphash.Seed
	slots []*postingList // a power of two long (or empty); nil: free
	n     int
}

func newWordTable() wordTable { return wordTable{seed: maphash.MakeSeed()} }

// home is the slot where word's probe starts.
func (t *wordTable) home(word string) int {
	return int(maphash.String(t.seed, word) & uint64(len(t.slots)-1))
}

// len is the number of words.
func (t *wordTable) len() int { return t.n }

// get is the list of word, nil when no item holds it.
func (t *wordTable) get(word string) *postingList {
	if t.n == 0 {
		return nil
	}
	mask := len(t.slots) - 1
	for i := t.home(word); ; i = (i + 1) & mask {
		if p := t.slots[i]; p == nil || p.word == word {
			return p
		}
	}
}

// add files p, whose word the table does not hold. The table grows at
// three quarters full.
func (t *wordTable) add(p *postingList) {
	if (t.n+1)*4 > len(t.slots)*3 {
		old := t.slots
		t.slots, t.n = make([]*postingList, max(8, 2*len(old))), 0
		for _, q := range old {
			if q != nil {
				t.add(q)
			}
		}
	}
	mask := len(t.slots) - 1
	i := t.home(p.word)
	for t.slots[i] != nil {
		i = (i + 1) & mask
	}
	t.slots[i] = p
	t.n++
}

// remove takes word's list out, if any. The lists after it in its probe
// run move back into the gap where their own probes would reach it, so
// no slot is ever a tombstone.
func (t *wordTable) remove(word string) {
	if t.n == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.home(word)
	for ; t.slots[i] == nil || t.slots[i].word != word; i = (i + 1) & mask {
		if t.slots[i] == nil {
			return
		}
	}
	for j := (i + 1) & mask; t.slots[j] != nil; j = (j + 1) & mask {
		// The list at j may fill the gap at i unless its home lies
		// cyclically in (i, j]: its probe would not pass i.
		k := t.home(t.slots[j].word)
		if i <= j && (k <= i || k > j) || i > j && k <= i && k > j {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = nil
	t.n--
}

// all is every list of the table, in no order.
func (t *wordTable) all() iter.Seq[*postingList] {
	return func(yield func(*postingList) bool) {
		for _, p := range t.slots {
			if p != nil && !yield(p) {
				return
			}
		}
	}
}
