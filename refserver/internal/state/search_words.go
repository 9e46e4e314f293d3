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
// one slice, indexed by their words' ids (a list knows its word), and the
// ids by word in an idHash — 4 bytes a slot, no pointer, where a
// map[string]*postingList took 24 and its slack. At a million items the
// index holds over a million words, nearly all in one item (every
// generated file name carries a number).
//
// A list's address (list) is good until the next add: the slice may
// move then.
type wordTable struct {
	seed  maphash.Seed
	ids   idHash[string, wordKeyer]
	lists []postingList // by id; a free id's list has no word
	free  []wordID      // the free ids
}

func newWordTable() wordTable { return wordTable{seed: maphash.MakeSeed()} }

// wordKeyer reads an id's word from the lists.
type wordKeyer struct {
	seed  maphash.Seed
	lists []postingList
}

func (k wordKeyer) hash(word string) uint64         { return maphash.String(k.seed, word) }
func (k wordKeyer) hashOf(id uint32) uint64         { return k.hash(k.lists[id].word) }
func (k wordKeyer) has(id uint32, word string) bool { return k.lists[id].word == word }

// keyer is the keyer of the ids as the lists are now.
func (t *wordTable) keyer() wordKeyer { return wordKeyer{t.seed, t.lists} }

// len is the number of words.
func (t *wordTable) len() int { return t.ids.n }

// list is the list of the word of id.
func (t *wordTable) list(id wordID) *postingList { return &t.lists[id] }

// find is the id of word, if the table holds it.
func (t *wordTable) find(word string) (wordID, bool) {
	id, ok := t.ids.find(word, t.keyer())
	return wordID(id), ok
}

// get is the list of word, nil when no item holds it.
func (t *wordTable) get(word string) *postingList {
	if id, ok := t.find(word); ok {
		return t.list(id)
	}
	return nil
}

// add files an empty list of word, which the table does not hold, and
// returns its id.
func (t *wordTable) add(word string) wordID {
	var id wordID
	if n := len(t.free); n > 0 {
		id, t.free = t.free[n-1], t.free[:n-1]
		t.lists[id] = postingList{word: word}
	} else {
		id = wordID(len(t.lists))
		t.lists = append(t.lists, postingList{word: word})
	}
	t.ids.add(uint32(id), t.keyer())
	return id
}

// remove takes word's list out, if any, and frees its id.
func (t *wordTable) remove(word string) {
	if id, ok := t.ids.remove(word, t.keyer()); ok {
		t.lists[id] = postingList{}
		t.free = append(t.free, wordID(id))
	}
}

// all is every word's id, in no order.
func (t *wordTable) all() iter.Seq[wordID] {
	return func(yield func(wordID) bool) {
		for id := range t.ids.all() {
			if !yield(wordID(id)) {
				return
			}
		}
	}
}
