package state

import (
	"cmp"

	"github.com/tidwall/btree"
)

// Query indexes. Every template keeps its instances in creation order
// (BySeq, the default query order) and, for each template field a query
// sorted by, a SortIndex: a B-tree (github.com/tidwall/btree) of the
// instances ordered by (value, creation), null values last. An index is
// built on the first query that needs it (O(n log n)) and kept in step
// after that by every create, update and delete (O(log n)), so a sorted
// page is a descent to the marker plus a walk of about one page of
// matching entries. Schema updates drop the indexes of their template; the
// next query rebuilds them.

// SortIndex orders a template's instances by one field.
type SortIndex struct {
	field string
	Tree  *btree.BTreeG[*MDInstance]
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

// Cmp orders two instances by the index's field (null last), then by
// creation.
func (x *SortIndex) Cmp(a, b *MDInstance) int {
	va, aok := a.Values[x.field]
	vb, bok := b.Values[x.field]
	if c := CmpPresent(va, aok, vb, bok); c != 0 {
		return c
	}
	return cmp.Compare(a.Seq, b.Seq)
}

// Insert files in in the index; call it once in's values are set.
func (x *SortIndex) Insert(in *MDInstance) { x.Tree.Set(in) }

// Remove takes in out of the index; call it before in's values change.
func (x *SortIndex) Remove(in *MDInstance) { x.Tree.Delete(in) }

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
	x.Tree = btree.NewBTreeGOptions(func(a, b *MDInstance) bool { return x.Cmp(a, b) < 0 }, btree.Options{NoLocks: true, Degree: 64})
	for _, in := range t.BySeq {
		x.Tree.Set(in)
	}
	if t.Sorted == nil {
		t.Sorted = make(map[string]*SortIndex)
	}
	t.Sorted[field] = x
	return x
}

// Walk visits the index in order (reversed when desc) from just after the
// position after (nil: from the start) until visit returns false.
func (x *SortIndex) Walk(after *Position, desc bool, visit func(*MDInstance) bool) {
	if after == nil {
		if desc {
			x.Tree.Reverse(visit)
		} else {
			x.Tree.Scan(visit)
		}
		return
	}
	pivot := &MDInstance{Seq: after.Seq, Values: map[string]MDVal{}}
	if after.Oks[0] {
		pivot.Values[x.field] = after.Vals[0]
	}
	skip := func(in *MDInstance) bool { return x.Cmp(in, pivot) == 0 || visit(in) }
	if desc {
		x.Tree.Descend(pivot, skip) // pivot and below
	} else {
		x.Tree.Ascend(pivot, skip) // pivot and above
	}
}

// Position is where an entry sits in a query order; a marker carries the
// position of the last entry of its page.
type Position struct {
	Vals []MDVal
	Oks  []bool
	Seq  int64
}
