package state

import (
	"cmp"
	"maps"
	"slices"
	"unsafe"
)

// bigPostings is a long posting list (more than fewPostings items): the
// items in a slice ordered by address (itemOrder), plus the latest additions
// in a small map merged into the slice once it outgrows a fraction of
// it. A map of every item cost ~28 bytes a posting (16 for the entry,
// the rest the table's slack); the slice costs 16. At a million files
// the lists of the words every file holds (its extension, words of a
// template name) were 256 MB as maps.
//
// An item taken out of the slice stays in it, its posting zero (a word's
// posting has at least one field, so zero is none), until the next merge
// drops it: a removal does not move the slice.
type bigPostings struct {
	sorted []itemPosting     // by itemOrder (sortByItem); a zero posting is a removed item
	recent map[*Item]Posting // items not in sorted
	n      int               // items held (sorted's live ones and recent's)
	dead   int               // removed items still in sorted
}

// recentPostings is the fewest additions a big list keeps in its map
// before it merges them into the slice; it keeps up to a
// recentFraction-th of the slice's length.
const (
	recentPostings = 256
	recentFraction = 8
)

// itemOrder orders items by address. The slice is searched and merged
// on every change, and an order by id read every item compared (a cache
// miss each, at a million items: the indexing took twice as long). An
// item's address is as stable as its key in a map[*Item], which hashes
// it: the heap does not move.
func itemOrder(a, b *Item) int {
	return cmp.Compare(uintptr(unsafe.Pointer(a)), uintptr(unsafe.Pointer(b)))
}

// sortByItem sorts ps by itemOrder of their items.
func sortByItem(ps []itemPosting) {
	slices.SortFunc(ps, func(x, y itemPosting) int { return itemOrder(x.it, y.it) })
}

// newBigPostings holds the items of a short list that outgrew it.
func newBigPostings(few []itemPosting) *bigPostings {
	b := &bigPostings{sorted: slices.Clone(few), recent: map[*Item]Posting{}, n: len(few)}
	sortByItem(b.sorted)
	return b
}

// find is where it is in sorted, or -1.
func (b *bigPostings) find(it *Item) int {
	i, ok := slices.BinarySearchFunc(b.sorted, it, func(e itemPosting, t *Item) int { return itemOrder(e.it, t) })
	if !ok {
		return -1
	}
	return i
}

// get is the posting of it (zero: none).
func (b *bigPostings) get(it *Item) Posting {
	if p, ok := b.recent[it]; ok {
		return p
	}
	if i := b.find(it); i >= 0 {
		return b.sorted[i].p
	}
	return 0
}

// set makes p (not zero) the posting of it.
func (b *bigPostings) set(it *Item, p Posting) {
	if _, ok := b.recent[it]; ok {
		b.recent[it] = p
		return
	}
	if i := b.find(it); i >= 0 {
		if b.sorted[i].p == 0 {
			b.dead--
			b.n++
		}
		b.sorted[i].p = p
		return
	}
	b.recent[it] = p
	b.n++
	if len(b.recent) > max(recentPostings, len(b.sorted)/recentFraction) {
		b.merge()
	}
}

// del removes it.
func (b *bigPostings) del(it *Item) {
	if _, ok := b.recent[it]; ok {
		delete(b.recent, it)
		b.n--
		return
	}
	if i := b.find(it); i >= 0 && b.sorted[i].p != 0 {
		b.sorted[i].p = 0
		b.dead++
		b.n--
		if b.dead > max(recentPostings, len(b.sorted)/recentFraction) {
			b.merge()
		}
	}
}

// merge makes sorted hold every item (and no removed one), recent none.
func (b *bigPostings) merge() {
	add := make([]itemPosting, 0, len(b.recent))
	for it, p := range b.recent {
		add = append(add, itemPosting{it, p})
	}
	sortByItem(add)
	out := make([]itemPosting, 0, b.n)
	i, j := 0, 0
	for i < len(b.sorted) || j < len(add) {
		if j == len(add) || i < len(b.sorted) && itemOrder(b.sorted[i].it, add[j].it) < 0 {
			if b.sorted[i].p != 0 {
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
		b.recent = map[*Item]Posting{} // a map does not shrink
	}
}

// all yields the items and their postings.
func (b *bigPostings) all(yield func(*Item, Posting) bool) {
	for _, e := range b.sorted {
		if e.p != 0 && !yield(e.it, e.p) {
			return
		}
	}
	for it, p := range maps.All(b.recent) {
		if !yield(it, p) {
			return
		}
	}
}
