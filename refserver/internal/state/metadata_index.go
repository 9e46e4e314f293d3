package state

import (
	"cmp"
	"slices"
	"sort"

	"github.com/tidwall/btree"
)

// Query indexes. Every template keeps its instances in creation order
// (bySeq, the default query order) and, for each template field a query
// sorted by, a sortIndex: a B-tree (github.com/tidwall/btree) of the
// instances ordered by (value, creation), null values last. An index is
// built on the first query that needs it (O(n log n)) and kept in step
// after that by every create, update and delete (O(log n)), so a sorted
// page is a descent to the marker plus a walk of about one page of
// matching entries. Schema updates drop the indexes of their template; the
// next query rebuilds them.

// sortIndex orders a template's instances by one field.
type sortIndex struct {
	field string
	Tree  *btree.BTreeG[*MDInstance]
}

// cmpPresent orders two possibly null values: null after every value.
func cmpPresent(a MDVal, aok bool, b MDVal, bok bool) int {
	switch {
	case !aok && !bok:
		return 0
	case !aok:
		return 1
	case !bok:
		return -1
	}
	return cmpVals(a, b)
}

func (x *sortIndex) Cmp(a, b *MDInstance) int {
	va, aok := a.Values[x.field]
	vb, bok := b.Values[x.field]
	if c := cmpPresent(va, aok, vb, bok); c != 0 {
		return c
	}
	return cmp.Compare(a.Seq, b.Seq)
}

func (x *sortIndex) Insert(in *MDInstance) { x.Tree.Set(in) }

// Remove takes in out of the index; call it before in's values change.
func (x *sortIndex) Remove(in *MDInstance) { x.Tree.Delete(in) }

// Index returns the sort index of a template field, building it on first use.
func (t *MDTemplate) Index(field string) *sortIndex {
	if x := t.Sorted[field]; x != nil {
		return x
	}
	x := &sortIndex{field: field}
	// Guarded by s.mu like the rest of the template: no locks of its own.
	// Degree 64 (nodes of up to 127 instances): with the default 32 an
	// update's remove and insert measured about 2% slower than with the
	// google/btree this replaced (BenchmarkMetadataIndex/move); with 64
	// they are as fast, and walks and builds are faster either way.
	x.Tree = btree.NewBTreeGOptions(func(a, b *MDInstance) bool { return x.Cmp(a, b) < 0 }, btree.Options{NoLocks: true, Degree: 64})
	for _, in := range t.BySeq {
		x.Tree.Set(in)
	}
	if t.Sorted == nil {
		t.Sorted = make(map[string]*sortIndex)
	}
	t.Sorted[field] = x
	return x
}

// Walk visits the index in order (reversed when desc) from just after the
// position after (nil: from the start) until visit returns false.
func (x *sortIndex) Walk(after *Position, desc bool, visit func(*MDInstance) bool) {
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

// QueryOrder is the order of a query's results: the order_by keys, then
// creation; desc reverses the whole order.
type QueryOrder struct {
	Keys []QField
	desc bool
}

// Position is where an entry sits in a query order; a marker carries the
// position of the last entry of its page.
type Position struct {
	Vals []MDVal
	Oks  []bool
	Seq  int64
}

func (s *State) PositionOf(o QueryOrder, in *MDInstance) Position {
	p := Position{Vals: make([]MDVal, len(o.Keys)), Oks: make([]bool, len(o.Keys)), Seq: in.Seq}
	for i, k := range o.Keys {
		p.Vals[i], p.Oks[i] = s.fieldOf(k, in)
	}
	return p
}

// cmpToPosition compares an instance with a position in ascending order.
func (s *State) cmpToPosition(o QueryOrder, in *MDInstance, p Position) int {
	for i, k := range o.Keys {
		v, ok := s.fieldOf(k, in)
		if c := cmpPresent(v, ok, p.Vals[i], p.Oks[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(in.Seq, p.Seq)
}

// cmpInstances compares two instances in ascending order.
func (s *State) cmpInstances(o QueryOrder, a, b *MDInstance) int {
	for _, k := range o.Keys {
		va, aok := s.fieldOf(k, a)
		vb, bok := s.fieldOf(k, b)
		if c := cmpPresent(va, aok, vb, bok); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Seq, b.Seq)
}

// selectPage returns up to limit instances of t that match (pred true and
// keep true) after the position after (nil = from the start), in order,
// and whether more follow. With no order_by, or one template field, it
// walks an index from the marker; other orders (item fields, several
// keys) filter every instance and sort the matches.
func (s *State) selectPage(t *MDTemplate, o QueryOrder, pred predicate, keep func(*MDInstance) bool, after *Position, limit int) ([]*MDInstance, bool) {
	match := func(in *MDInstance) bool { return keep(in) && pred(in) == triTrue }
	out := make([]*MDInstance, 0, limit+1)
	collect := func(in *MDInstance) bool {
		if match(in) {
			out = append(out, in)
		}
		return len(out) <= limit
	}
	switch {
	case len(o.Keys) == 0:
		walkSeq(t.BySeq, after, o.desc, collect)
	case len(o.Keys) == 1 && !o.Keys[0].item:
		t.Index(o.Keys[0].Key).Walk(after, o.desc, collect)
	default:
		return s.scanPage(t, o, match, after, limit)
	}
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}

// walkSeq visits instances in creation order (reversed when desc) from
// just after the position after until visit returns false.
func walkSeq(list []*MDInstance, after *Position, desc bool, visit func(*MDInstance) bool) {
	if !desc {
		i := 0
		if after != nil {
			i = sort.Search(len(list), func(i int) bool { return list[i].Seq > after.Seq })
		}
		for ; i < len(list) && visit(list[i]); i++ {
		}
		return
	}
	i := len(list) - 1
	if after != nil {
		i = sort.Search(len(list), func(i int) bool { return list[i].Seq >= after.Seq }) - 1
	}
	for ; i >= 0 && visit(list[i]); i-- {
	}
}

func (s *State) scanPage(t *MDTemplate, o QueryOrder, match func(*MDInstance) bool, after *Position, limit int) ([]*MDInstance, bool) {
	var out []*MDInstance
	for _, in := range t.BySeq {
		if after != nil {
			c := s.cmpToPosition(o, in, *after)
			if o.desc && c >= 0 || !o.desc && c <= 0 {
				continue
			}
		}
		if match(in) {
			out = append(out, in)
		}
	}
	slices.SortFunc(out, func(a, b *MDInstance) int {
		if o.desc {
			return s.cmpInstances(o, b, a)
		}
		return s.cmpInstances(o, a, b)
	})
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}
