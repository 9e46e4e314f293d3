package refserver

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
	tree  *btree.BTreeG[*mdInstance]
}

// cmpPresent orders two possibly null values: null after every value.
func cmpPresent(a mdVal, aok bool, b mdVal, bok bool) int {
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

func (x *sortIndex) cmp(a, b *mdInstance) int {
	va, aok := a.values[x.field]
	vb, bok := b.values[x.field]
	if c := cmpPresent(va, aok, vb, bok); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

func (x *sortIndex) insert(in *mdInstance) { x.tree.Set(in) }

// remove takes in out of the index; call it before in's values change.
func (x *sortIndex) remove(in *mdInstance) { x.tree.Delete(in) }

// index returns the sort index of a template field, building it on first use.
func (t *mdTemplate) index(field string) *sortIndex {
	if x := t.sorted[field]; x != nil {
		return x
	}
	x := &sortIndex{field: field}
	// Guarded by s.mu like the rest of the template: no locks of its own.
	// Degree 64 (nodes of up to 127 instances): with the default 32 an
	// update's remove and insert measured about 2% slower than with the
	// google/btree this replaced (BenchmarkMetadataIndex/move); with 64
	// they are as fast, and walks and builds are faster either way.
	x.tree = btree.NewBTreeGOptions(func(a, b *mdInstance) bool { return x.cmp(a, b) < 0 }, btree.Options{NoLocks: true, Degree: 64})
	for _, in := range t.bySeq {
		x.tree.Set(in)
	}
	if t.sorted == nil {
		t.sorted = make(map[string]*sortIndex)
	}
	t.sorted[field] = x
	return x
}

// walk visits the index in order (reversed when desc) from just after the
// position after (nil: from the start) until visit returns false.
func (x *sortIndex) walk(after *position, desc bool, visit func(*mdInstance) bool) {
	if after == nil {
		if desc {
			x.tree.Reverse(visit)
		} else {
			x.tree.Scan(visit)
		}
		return
	}
	pivot := &mdInstance{seq: after.seq, values: map[string]mdVal{}}
	if after.oks[0] {
		pivot.values[x.field] = after.vals[0]
	}
	skip := func(in *mdInstance) bool { return x.cmp(in, pivot) == 0 || visit(in) }
	if desc {
		x.tree.Descend(pivot, skip) // pivot and below
	} else {
		x.tree.Ascend(pivot, skip) // pivot and above
	}
}

// queryOrder is the order of a query's results: the order_by keys, then
// creation; desc reverses the whole order.
type queryOrder struct {
	keys []qField
	desc bool
}

// position is where an entry sits in a query order; a marker carries the
// position of the last entry of its page.
type position struct {
	vals []mdVal
	oks  []bool
	seq  int64
}

func (s *state) positionOf(o queryOrder, in *mdInstance) position {
	p := position{vals: make([]mdVal, len(o.keys)), oks: make([]bool, len(o.keys)), seq: in.seq}
	for i, k := range o.keys {
		p.vals[i], p.oks[i] = s.fieldOf(k, in)
	}
	return p
}

// cmpToPosition compares an instance with a position in ascending order.
func (s *state) cmpToPosition(o queryOrder, in *mdInstance, p position) int {
	for i, k := range o.keys {
		v, ok := s.fieldOf(k, in)
		if c := cmpPresent(v, ok, p.vals[i], p.oks[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(in.seq, p.seq)
}

// cmpInstances compares two instances in ascending order.
func (s *state) cmpInstances(o queryOrder, a, b *mdInstance) int {
	for _, k := range o.keys {
		va, aok := s.fieldOf(k, a)
		vb, bok := s.fieldOf(k, b)
		if c := cmpPresent(va, aok, vb, bok); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.seq, b.seq)
}

// selectPage returns up to limit instances of t that match (pred true and
// keep true) after the position after (nil = from the start), in order,
// and whether more follow. With no order_by, or one template field, it
// walks an index from the marker; other orders (item fields, several
// keys) filter every instance and sort the matches.
func (s *state) selectPage(t *mdTemplate, o queryOrder, pred predicate, keep func(*mdInstance) bool, after *position, limit int) ([]*mdInstance, bool) {
	match := func(in *mdInstance) bool { return keep(in) && pred(in) == triTrue }
	out := make([]*mdInstance, 0, limit+1)
	collect := func(in *mdInstance) bool {
		if match(in) {
			out = append(out, in)
		}
		return len(out) <= limit
	}
	switch {
	case len(o.keys) == 0:
		walkSeq(t.bySeq, after, o.desc, collect)
	case len(o.keys) == 1 && !o.keys[0].item:
		t.index(o.keys[0].key).walk(after, o.desc, collect)
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
func walkSeq(list []*mdInstance, after *position, desc bool, visit func(*mdInstance) bool) {
	if !desc {
		i := 0
		if after != nil {
			i = sort.Search(len(list), func(i int) bool { return list[i].seq > after.seq })
		}
		for ; i < len(list) && visit(list[i]); i++ {
		}
		return
	}
	i := len(list) - 1
	if after != nil {
		i = sort.Search(len(list), func(i int) bool { return list[i].seq >= after.seq }) - 1
	}
	for ; i >= 0 && visit(list[i]); i-- {
	}
}

func (s *state) scanPage(t *mdTemplate, o queryOrder, match func(*mdInstance) bool, after *position, limit int) ([]*mdInstance, bool) {
	var out []*mdInstance
	for _, in := range t.bySeq {
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
	slices.SortFunc(out, func(a, b *mdInstance) int {
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
