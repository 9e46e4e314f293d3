package state

import (
	"cmp"

	"github.com/tidwall/btree"
)

// Query indexes. Every template keeps its instances in creation order
// (BySeq, the default query order) and, for each template field a query
// sorted by or filtered on, a SortIndex: a B-tree (github.com/tidwall/btree)
// of the instances ordered by (value, creation), null values last. An
// index is built on the first query that needs it (O(n log n)) and kept in
// step after that by every create, update and delete (O(log n)), so a
// sorted page is a descent to the marker plus a walk of about one page of
// matching entries, and a filter's candidates are a descent plus a walk
// of its range (the metadata package's query planner). Schema updates
// drop the indexes of their template; the next query rebuilds them.
//
// An entry holds a copy of its key (the value's kind, text and number, and
// the creation), so that descents and range walks read the B-tree's nodes
// only, not each instance's map of values.

// SortIndex orders a template's instances by one field.
type SortIndex struct {
	field string
	tree  *btree.BTreeG[indexEntry]
}

// indexEntry is an instance in a SortIndex, with its key.
type indexEntry struct {
	kind byte // of the value (MDVal.Kind)
	ok   bool // false: no value (null)
	s    string
	f    float64
	seq  int64
	in   *MDInstance
}

// key is the entry's value (without a list: lists do not order).
func (e indexEntry) key() MDVal { return MDVal{Kind: e.kind, S: e.s, F: e.f} }

// cmpEntries orders entries by value (null last), then creation.
func cmpEntries(a, b indexEntry) int {
	if c := CmpPresent(a.key(), a.ok, b.key(), b.ok); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// CmpPresent orders two possibly null values: null after every value.
func CmpPresent(a MDVal, aok bool, b MDVal, bok bool) int {
	switch {
	case !aok && !bok:
		return 0
	case !aok:
		return 1
	case !bok:
		return -1
	}
	return CmpVals(a, b)
}

// entry is in's entry in the index: its current value of the field.
func (x *SortIndex) entry(in *MDInstance) indexEntry {
	v, ok := in.Values[x.field]
	return indexEntry{kind: v.Kind, ok: ok, s: v.S, f: v.F, seq: in.Seq, in: in}
}

// Cmp orders two instances by the index's field (null last), then by
// creation.
func (x *SortIndex) Cmp(a, b *MDInstance) int { return cmpEntries(x.entry(a), x.entry(b)) }

// Insert files in in the index; call it once in's values are set.
func (x *SortIndex) Insert(in *MDInstance) { x.tree.Set(x.entry(in)) }

// Remove takes in out of the index; call it before in's values change
// (its entry is found by the values it was filed with).
func (x *SortIndex) Remove(in *MDInstance) { x.tree.Delete(x.entry(in)) }

// Len is the number of instances in the index.
func (x *SortIndex) Len() int { return x.tree.Len() }

// Index returns the sort index of a template field, building it on first use.
func (t *MDTemplate) Index(field string) *SortIndex {
	if x := t.Sorted[field]; x != nil {
		return x
	}
	x := &SortIndex{field: field}
	// Reached through a transaction like the rest of the template: no locks of its own.
	// Degree 64 (nodes of up to 127 instances): with the default 32 an
	// update's remove and insert measured about 2% slower than with the
	// google/btree this replaced (BenchmarkMetadataIndex/move); with 64
	// they are as fast, and walks and builds are faster either way.
	x.tree = btree.NewBTreeGOptions(func(a, b indexEntry) bool { return cmpEntries(a, b) < 0 }, btree.Options{NoLocks: true, Degree: 64})
	for _, in := range t.BySeq {
		x.tree.Set(x.entry(in))
	}
	if t.Sorted == nil {
		t.Sorted = make(map[string]*SortIndex)
	}
	t.Sorted[field] = x
	return x
}

// pivot is the entry at position p (its first value and creation).
func pivot(p *Position) indexEntry {
	v := p.Vals[0]
	return indexEntry{kind: v.Kind, ok: p.Oks[0], s: v.S, f: v.F, seq: p.Seq}
}

// Walk visits the index in order (reversed when desc) from just after the
// position after (nil: from the start) until visit returns false.
func (x *SortIndex) Walk(after *Position, desc bool, visit func(*MDInstance) bool) {
	each := func(e indexEntry) bool { return visit(e.in) }
	if after == nil {
		if desc {
			x.tree.Reverse(each)
		} else {
			x.tree.Scan(each)
		}
		return
	}
	p := pivot(after)
	skip := func(e indexEntry) bool { return cmpEntries(e, p) == 0 || visit(e.in) }
	if desc {
		x.tree.Descend(p, skip) // pivot and below
	} else {
		x.tree.Ascend(p, skip) // pivot and above
	}
}

// Ascend visits the index in ascending order from the position from
// (inclusive; nil: from the start) until visit returns false, with each
// instance's value of the field (ok false: null) and creation (Seq) read
// from the index.
func (x *SortIndex) Ascend(from *Position, visit func(v MDVal, ok bool, seq int64, in *MDInstance) bool) {
	each := func(e indexEntry) bool { return visit(e.key(), e.ok, e.seq, e.in) }
	if from == nil {
		x.tree.Scan(each)
		return
	}
	x.tree.Ascend(pivot(from), each)
}

// Position is where an entry sits in a query order; a marker carries the
// position of the last entry of its page.
type Position struct {
	Vals []MDVal
	Oks  []bool
	Seq  int64
}
