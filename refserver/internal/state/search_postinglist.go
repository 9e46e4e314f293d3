package state

import (
	"iter"
	"slices"
)

// docOrd is an indexed item's ordinal in the search index: the index
// numbers the items it holds (searchIndex.byOrd) and its posting lists
// hold the numbers, not the items, so that they are plain integers the
// collector does not scan. An item keeps its ordinal while it is indexed;
// a dropped item's is reused. There are at most maxDocOrd+1 of them.
type docOrd uint32

// ordPosting is one item of a posting list in 4 bytes: its ordinal (above
// the low postingFieldBits) and the fields the word is in (the low bits;
// a word's posting has at least one field, so zero fields is no item).
// Sorting postings sorts them by ordinal.
type ordPosting uint32

// postingFieldBits is how many low bits of a posting hold its fields, and
// maxDocOrd the greatest ordinal the other bits hold (134 million items,
// past what a server's memory holds: an item takes over a kilobyte).
const (
	postingFieldBits = 5
	maxDocOrd        = 1<<(32-postingFieldBits) - 1
)

// Every field fits in a posting's field bits.
var _ = [1]struct{}{}[AllSearchFields>>postingFieldBits]

// postingOf is the posting of the item o in the fields f.
func postingOf(o docOrd, f SearchField) ordPosting {
	return ordPosting(o)<<postingFieldBits | ordPosting(f)
}

// ord is the posting's item.
func (e ordPosting) ord() docOrd { return docOrd(e >> postingFieldBits) }

// fields is the fields the word is in (zero: a removed item).
func (e ordPosting) fields() SearchField { return SearchField(e & (1<<postingFieldBits - 1)) }

// postingList is the items that hold one word: one item inline, a few in
// a slice (most words of a large index are in one or two items, and a map
// per word cost ~200 bytes), more in a bigPostings (search_postings.go).
//
// While a single item holds the word, one is its posting (never zero);
// otherwise one is zero and holding holds the items, or is nil while no item
// holds the word. At a million files over a million words are held by one
// item each (every generated name carries a number): such a list is 32
// bytes.
type postingList struct {
	word    string // the word, shared by the documents that hold it
	one     ordPosting
	holding *postingSet
}

// postingSet is the items of a list held by more than one item, or by
// one after others left.
type postingSet struct {
	few  []ordPosting // in no order; every one with fields
	many *bigPostings // nil while few holds them
}

// fewPostings is how many items a posting list holds in its slice.
const fewPostings = 8

// single is the one item that holds the word, if one only does and the
// list holds it inline.
func (l *postingList) single() (docOrd, bool) {
	return l.one.ord(), l.one != 0
}

// holders is the list's postingSet, nil while it has none (it holds one
// item inline, or none).
func (l *postingList) holders() *postingSet {
	if l.one != 0 {
		return nil
	}
	return l.holding
}

// setSingle makes e the one item the list holds; zero empties the list.
func (l *postingList) setSingle(e ordPosting) {
	l.one, l.holding = e, nil
}

// len is the number of items; a nil list has none.
func (l *postingList) len() int {
	if l == nil {
		return 0
	}
	if l.one != 0 {
		return 1
	}
	s := l.holding
	switch {
	case s == nil:
		return 0
	case s.many != nil:
		return s.many.n
	}
	return len(s.few)
}

// get is the fields the item o holds the word in (zero: none).
func (l *postingList) get(o docOrd) SearchField {
	if one, ok := l.single(); ok {
		if one == o {
			return l.one.fields()
		}
		return 0
	}
	s := l.holders()
	if s == nil {
		return 0
	}
	if s.many != nil {
		return s.many.get(o)
	}
	for _, e := range s.few {
		if e.ord() == o {
			return e.fields()
		}
	}
	return 0
}

// set makes f the fields the item o holds the word in; none removes it.
func (l *postingList) set(o docOrd, f SearchField) {
	if f == 0 {
		l.del(o)
		return
	}
	e := postingOf(o, f)
	if one, ok := l.single(); ok {
		if one == o {
			l.one = e
			return
		}
		l.one, l.holding = 0, &postingSet{few: []ordPosting{l.one, e}}
		return
	}
	s := l.holders()
	if s == nil {
		l.setSingle(e)
		return
	}
	if s.many != nil {
		s.many.set(o, f)
		return
	}
	for i := range s.few {
		if s.few[i].ord() == o {
			s.few[i] = e
			return
		}
	}
	if len(s.few) < fewPostings {
		s.few = append(s.few, e)
		return
	}
	s.many, s.few = newBigPostings(s.few), nil
	s.many.set(o, f)
}

// del removes the item o. A short list left with one item holds it
// inline again.
func (l *postingList) del(o docOrd) {
	if one, ok := l.single(); ok {
		if one == o {
			l.setSingle(0)
		}
		return
	}
	s := l.holders()
	if s == nil {
		return
	}
	if s.many != nil {
		s.many.del(o)
		return
	}
	for i := range s.few {
		if s.few[i].ord() == o {
			s.few = slices.Delete(s.few, i, i+1)
			break
		}
	}
	switch len(s.few) {
	case 0:
		l.setSingle(0)
	case 1:
		l.setSingle(s.few[0])
	}
}

// all is the items (their ordinals) and the fields they hold the word in;
// a nil list has none.
func (l *postingList) all() iter.Seq2[docOrd, SearchField] {
	return func(yield func(docOrd, SearchField) bool) {
		if l == nil {
			return
		}
		if one, ok := l.single(); ok {
			yield(one, l.one.fields())
			return
		}
		s := l.holders()
		if s == nil {
			return
		}
		if s.many != nil {
			s.many.all(yield)
			return
		}
		for _, e := range s.few {
			if !yield(e.ord(), e.fields()) {
				return
			}
		}
	}
}
