package state

import (
	"cmp"
	"slices"
)

// bigPostings is a long posting list (more than fewPostings items): the
// items in a slice ordered by ordinal, plus the latest additions in a
// small map merged into the slice once it outgrows a fraction of it. A
// map of every item cost ~28 bytes a posting (16 for the entry, the rest
// the table's slack); the slice costs 4, and holds no pointer. At a
// million files the lists of the words every file holds (its extension,
// words of a template name) were 256 MB as maps.
//
// An item taken out of the slice stays in it, its fields zero, until the
// next merge drops it: a removal does not move the slice.
type bigPostings struct {
	sorted []ordPosting           // by ordinal; zero fields: a removed item
	recent map[docOrd]SearchField // items not in sorted
	n      int                    // items held (sorted's live ones and recent's)
	dead   int                    // removed items still in sorted
}

// recentPostings is the fewest additions a big list keeps in its map
// before it merges them into the slice; it keeps up to a
// recentFraction-th of the slice's length.
const (
	recentPostings = 256
	recentFraction = 8
)

// newBigPostings holds the items of a short list that outgrew it.
func newBigPostings(few []ordPosting) *bigPostings {
	b := &bigPostings{sorted: slices.Clone(few), recent: map[docOrd]SearchField{}, n: len(few)}
	slices.Sort(b.sorted)
	return b
}

// find is where o is in sorted, or -1.
func (b *bigPostings) find(o docOrd) int {
	i, ok := slices.BinarySearchFunc(b.sorted, o, func(e ordPosting, o docOrd) int { return cmp.Compare(e.ord(), o) })
	if !ok {
		return -1
	}
	return i
}

// get is the fields of o (zero: none).
func (b *bigPostings) get(o docOrd) SearchField {
	if f, ok := b.recent[o]; ok {
		return f
	}
	if i := b.find(o); i >= 0 {
		return b.sorted[i].fields()
	}
	return 0
}

// set makes f (not zero) the fields of o.
func (b *bigPostings) set(o docOrd, f SearchField) {
	if _, ok := b.recent[o]; ok {
		b.recent[o] = f
		return
	}
	if i := b.find(o); i >= 0 {
		if b.sorted[i].fields() == 0 {
			b.dead--
			b.n++
		}
		b.sorted[i] = postingOf(o, f)
		return
	}
	b.recent[o] = f
	b.n++
	if len(b.recent) > max(recentPostings, len(b.sorted)/recentFraction) {
		b.merge()
	}
}

// del removes o.
func (b *bigPostings) del(o docOrd) {
	if _, ok := b.recent[o]; ok {
		delete(b.recent, o)
		b.n--
		return
	}
	if i := b.find(o); i >= 0 && b.sorted[i].fields() != 0 {
		b.sorted[i] = postingOf(o, 0)
		b.dead++
		b.n--
		if b.dead > max(recentPostings, len(b.sorted)/recentFraction) {
			b.merge()
		}
	}
}

// merge makes sorted hold every item (and no removed one), recent none.
func (b *bigPostings) merge() {
	add := make([]ordPosting, 0, len(b.recent))
	for o, f := range b.recent {
		add = append(add, postingOf(o, f))
	}
	slices.Sort(add)
	out := make([]ordPosting, 0, b.n)
	i, j := 0, 0
	for i < len(b.sorted) || j < len(add) {
		if j == len(add) || i < len(b.sorted) && b.sorted[i].ord() < add[j].ord() {
			if b.sorted[i].fields() != 0 {
				out = append(out, b.sorted[i])
			}
			i++
			continue
		}
		out = append(out, add[j])
		j++
	}
	b.sorted, b.dead = out, 0
	clear(b.recent)
	if len(add) > recentPostings {
		b.recent = map[docOrd]SearchField{} // a map does not shrink
	}
}

// all yields the items and their fields.
func (b *bigPostings) all(yield func(docOrd, SearchField) bool) {
	for _, e := range b.sorted {
		if e.fields() != 0 && !yield(e.ord(), e.fields()) {
			return
		}
	}
	for o, f := range b.recent {
		if !yield(o, f) {
			return
		}
	}
}
