package state

import (
	"iter"
	"slices"
	"unsafe"
)

// postingList is the items that hold one word: one item inline, a few in
// a slice (most words of a large index are in one or two items, and a map
// per word cost ~200 bytes), more in a bigPostings (search_postings.go).
//
// ref and one hold them. While a single item holds the word, ref is that
// *Item and one its posting, never zero (a word's posting has at least
// one field); otherwise one is zero and ref is the list's *postingSet, or
// nil while no item holds the word. At a million files over a million
// words are held by one item each (every generated name carries a
// number): such a list is 32 bytes, where one with a slice was 48 and the
// slice's 16.
type postingList struct {
	word string // the word, shared by the documents that hold it
	ref  unsafe.Pointer
	one  Posting
}

// postingSet is the items of a list held by more than one item, or by
// one after others left.
type postingSet struct {
	few  []itemPosting
	many *bigPostings // nil while few holds them
}

// itemPosting is one item of a posting list.
type itemPosting struct {
	it *Item
	p  Posting
}

// fewPostings is how many items a posting list holds in its slice.
const fewPostings = 8

// single is the one item that holds the word, if one only does and the
// list holds it inline.
func (l *postingList) single() (*Item, bool) {
	if l.one == 0 {
		return nil, false
	}
	return (*Item)(l.ref), true
}

// holders is the list's postingSet, nil while it has none (it holds one
// item inline, or none).
func (l *postingList) holders() *postingSet {
	if l.one != 0 {
		return nil
	}
	return (*postingSet)(l.ref)
}

// setSingle makes it, with posting p, the one item the list holds; a nil
// item empties the list.
func (l *postingList) setSingle(it *Item, p Posting) {
	if it == nil {
		l.ref, l.one = nil, 0
		return
	}
	l.ref, l.one = unsafe.Pointer(it), p
}

// len is the number of items; a nil list has none.
func (l *postingList) len() int {
	if l == nil {
		return 0
	}
	if _, ok := l.single(); ok {
		return 1
	}
	s := l.holders()
	switch {
	case s == nil:
		return 0
	case s.many != nil:
		return s.many.n
	}
	return len(s.few)
}

// get is the posting of it (zero: none).
func (l *postingList) get(it *Item) Posting {
	if one, ok := l.single(); ok {
		if one == it {
			return l.one
		}
		return 0
	}
	s := l.holders()
	if s == nil {
		return 0
	}
	if s.many != nil {
		return s.many.get(it)
	}
	for _, e := range s.few {
		if e.it == it {
			return e.p
		}
	}
	return 0
}

// set makes p the posting of it; a zero posting (none) removes it.
func (l *postingList) set(it *Item, p Posting) {
	if p == 0 {
		l.del(it)
		return
	}
	if one, ok := l.single(); ok {
		if one == it {
			l.one = p
			return
		}
		s := &postingSet{few: []itemPosting{{one, l.one}, {it, p}}}
		l.ref, l.one = unsafe.Pointer(s), 0
		return
	}
	s := l.holders()
	if s == nil {
		l.setSingle(it, p)
		return
	}
	if s.many != nil {
		s.many.set(it, p)
		return
	}
	for i := range s.few {
		if s.few[i].it == it {
			s.few[i].p = p
			return
		}
	}
	if len(s.few) < fewPostings {
		s.few = append(s.few, itemPosting{it, p})
		return
	}
	s.many, s.few = newBigPostings(s.few), nil
	s.many.set(it, p)
}

// del removes it. A short list left with one item holds it inline again.
func (l *postingList) del(it *Item) {
	if one, ok := l.single(); ok {
		if one == it {
			l.setSingle(nil, 0)
		}
		return
	}
	s := l.holders()
	if s == nil {
		return
	}
	if s.many != nil {
		s.many.del(it)
		return
	}
	for i := range s.few {
		if s.few[i].it == it {
			s.few = slices.Delete(s.few, i, i+1)
			break
		}
	}
	switch len(s.few) {
	case 0:
		l.setSingle(nil, 0)
	case 1:
		l.setSingle(s.few[0].it, s.few[0].p)
	}
}

// all is the items and their postings; a nil list has none.
func (l *postingList) all() iter.Seq2[*Item, Posting] {
	return func(yield func(*Item, Posting) bool) {
		if l == nil {
			return
		}
		if one, ok := l.single(); ok {
			yield(one, l.one)
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
			if !yield(e.it, e.p) {
				return
			}
		}
	}
}
