package refserver

import (
	"cmp"
	"slices"
	"sort"
)

// Query indexes. Every template keeps its instances in creation order
// (bySeq, the default query order) and, for each template field a query
// sorted by, a sortIndex: the instances ordered by (value, creation), null
// values last. An index is built on the first query that needs it
// (O(n log n)) and kept in step after that by every create, update and
// delete (a binary search and one slice move: O(log n + n) with a tiny
// constant), so a sorted page is a binary search to the marker plus a walk
// of about one page of matching entries. Schema updates drop the indexes
// of their template; the next query rebuilds them.

// sortIndex orders a template's instances by one field.
type sortIndex struct {
	field string
	list  []*mdInstance
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

// search is the position of in (by its current values) in the index.
func (x *sortIndex) search(in *mdInstance) int {
	return sort.Search(len(x.list), func(i int) bool { return x.cmp(x.list[i], in) >= 0 })
}

func (x *sortIndex) insert(in *mdInstance) {
	x.list = slices.Insert(x.list, x.search(in), in)
}

// remove takes in out of the index; call it before in's values change.
func (x *sortIndex) remove(in *mdInstance) {
	if i := x.search(in); i < len(x.list) && x.list[i] == in {
		x.list = slices.Delete(x.list, i, i+1)
	}
}

// index returns the sort index of a template field, building it on first use.
func (t *mdTemplate) index(field string) *sortIndex {
	if x := t.sorted[field]; x != nil {
		return x
	}
	x := &sortIndex{field: field, list: slices.Clone(t.bySeq)}
	slices.SortFunc(x.list, x.cmp)
	if t.sorted == nil {
		t.sorted = make(map[string]*sortIndex)
	}
	t.sorted[field] = x
	return x
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

func (s *Server) positionOf(o queryOrder, in *mdInstance) position {
	p := position{vals: make([]mdVal, len(o.keys)), oks: make([]bool, len(o.keys)), seq: in.seq}
	for i, k := range o.keys {
		p.vals[i], p.oks[i] = s.fieldOf(k, in)
	}
	return p
}

// cmpToPosition compares an instance with a position in ascending order.
func (s *Server) cmpToPosition(o queryOrder, in *mdInstance, p position) int {
	for i, k := range o.keys {
		v, ok := s.fieldOf(k, in)
		if c := cmpPresent(v, ok, p.vals[i], p.oks[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(in.seq, p.seq)
}

// cmpInstances compares two instances in ascending order.
func (s *Server) cmpInstances(o queryOrder, a, b *mdInstance) int {
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
func (s *Server) selectPage(t *mdTemplate, o queryOrder, pred predicate, keep func(*mdInstance) bool, after *position, limit int) ([]*mdInstance, bool) {
	match := func(in *mdInstance) bool { return keep(in) && pred(in) == triTrue }
	var list []*mdInstance
	switch {
	case len(o.keys) == 0:
		list = t.bySeq
	case len(o.keys) == 1 && !o.keys[0].item:
		list = t.index(o.keys[0].key).list
	default:
		return s.scanPage(t, o, match, after, limit)
	}
	out := make([]*mdInstance, 0, min(limit+1, len(list)))
	if !o.desc {
		i := 0
		if after != nil {
			i = sort.Search(len(list), func(i int) bool { return s.cmpToPosition(o, list[i], *after) > 0 })
		}
		for ; i < len(list) && len(out) <= limit; i++ {
			if match(list[i]) {
				out = append(out, list[i])
			}
		}
	} else {
		i := len(list) - 1
		if after != nil {
			i = sort.Search(len(list), func(i int) bool { return s.cmpToPosition(o, list[i], *after) >= 0 }) - 1
		}
		for ; i >= 0 && len(out) <= limit; i-- {
			if match(list[i]) {
				out = append(out, list[i])
			}
		}
	}
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}

func (s *Server) scanPage(t *mdTemplate, o queryOrder, match func(*mdInstance) bool, after *position, limit int) ([]*mdInstance, bool) {
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
