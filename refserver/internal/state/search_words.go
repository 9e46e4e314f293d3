package state

import (
	"hash/maphash"
	"iter"
)

// wordID is a word's number in the index's word table: the documents hold
// their words as these (4 bytes, no pointer for the collector to scan)
// rather than as pointers to the words' lists. A word's id is reused once
// no item holds it.
type wordID uint32

// wordTable is the index's posting lists, by word and by id: the lists in
// one slice, indexed by their words' ids (a list knows its word), and an
// open-addressing hash table (linear probing) of the ids by word — 4
// bytes a slot, no pointer, where a map[string]*postingList took 24 and
// its slack. At a million items the index holds over a million words,
// nearly all in one item (every generated file name carries a number).
//
// A list's address (list) is good until the next add: the slice may
// move then.
type wordTable struct {
	seed  maphash.Seed
	slots []uint32      // a power of two long (or empty): a word's id+1; 0: free
	lists []postingList // by id; a free id's list has no word
	free  []wordID      // the free ids
	n     int
}

func newWordTable() wordTable { return wordTable{seed: maphash.MakeSeed()} }

// home is the slot where word's probe starts.
func (t *wordTable) home(word string) int {
	return int(maphash.String(t.seed, word) & uint64(len(t.slots)-1))
}

// len is the number of words.
func (t *wordTable) len() int { return t.n }

// list is the list of the word of id.
func (t *wordTable) list(id wordID) *postingList { return &t.lists[id] }

// find is the id of word, if the table holds it.
func (t *wordTable) find(word string) (wordID, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.home(word); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if t.lists[s-1].word == word {
			return wordID(s - 1), true
		}
	}
}

// get is the list of word, nil when no item holds it.
func (t *wordTable) get(word string) *postingList {
	if id, ok := t.find(word); ok {
		return t.list(id)
	}
	return nil
}

// add files an empty list of word, which the table does not hold, and
// returns its id. The hash table grows at three quarters full.
func (t *wordTable) add(word string) wordID {
	if (t.n+1)*4 > len(t.slots)*3 {
		old := t.slots
		t.slots = make([]uint32, max(8, 2*len(old)))
		for _, s := range old {
			if s != 0 {
				t.file(s)
			}
		}
	}
	var id wordID
	if n := len(t.free); n > 0 {
		id, t.free = t.free[n-1], t.free[:n-1]
		t.lists[id] = postingList{word: word}
	} else {
		id = wordID(len(t.lists))
		t.lists = append(t.lists, postingList{word: word})
	}
	t.file(uint32(id) + 1)
	t.n++
	return id
}

// file puts the slot value s (an id+1) in the first free slot of its
// word's probe.
func (t *wordTable) file(s uint32) {
	mask := len(t.slots) - 1
	i := t.home(t.lists[s-1].word)
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// remove takes word's list out, if any, and frees its id. The ids after
// it in its probe run move back into the gap where their own probes would
// reach it, so no slot is ever a tombstone.
func (t *wordTable) remove(word string) {
	if t.n == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.home(word)
	for ; t.slots[i] == 0 || t.lists[t.slots[i]-1].word != word; i = (i + 1) & mask {
		if t.slots[i] == 0 {
			return
		}
	}
	id := wordID(t.slots[i] - 1)
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		// The id at j may fill the gap at i unless its home lies
		// cyclically in (i, j]: its probe would not pass i.
		k := t.home(t.lists[t.slots[j]-1].word)
		if i <= j && (k <= i || k > j) || i > j && k <= i && k > j {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
	t.n--
	t.lists[id] = postingList{}
	t.free = append(t.free, id)
}

// all is every word's id, in no order.
func (t *wordTable) all() iter.Seq[wordID] {
	return func(yield func(wordID) bool) {
		for _, s := range t.slots {
			if s != 0 && !yield(wordID(s-1)) {
				return
			}
		}
	}
}
