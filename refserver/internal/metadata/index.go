package metadata

import (
	"cmp"
	"slices"
	"sort"

	"github.com/contentapi/cms/refserver/internal/state"
)

// QueryOrder is the order of a query's results: the order_by keys, then
// creation; desc reverses the whole order.
type QueryOrder struct {
	Keys []QField
	desc bool
}

// PositionOf is the position of in in the order o: its values of the order
// keys (ok false for null) and its creation.
func PositionOf(s *state.Tx, o QueryOrder, in *state.MDInstance) state.Position {
	p := state.Position{Vals: make([]state.MDVal, len(o.Keys)), Oks: make([]bool, len(o.Keys)), Seq: in.Seq}
	for i, k := range o.Keys {
		p.Vals[i], p.Oks[i] = FieldOf(s, k, in)
	}
	return p
}

// CmpToPosition compares an instance with a position in ascending order.
func CmpToPosition(s *state.Tx, o QueryOrder, in *state.MDInstance, p state.Position) int {
	for i, k := range o.Keys {
		v, ok := FieldOf(s, k, in)
		if c := state.CmpPresent(v, ok, p.Vals[i], p.Oks[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(in.Seq, p.Seq)
}

// CmpInstances compares two instances in ascending order.
func CmpInstances(s *state.Tx, o QueryOrder, a, b *state.MDInstance) int {
	for _, k := range o.Keys {
		va, aok := FieldOf(s, k, a)
		vb, bok := FieldOf(s, k, b)
		if c := state.CmpPresent(va, aok, vb, bok); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Seq, b.Seq)
}

// SelectPage returns up to limit instances of t that match (pred true and
// keep true) after the position after (nil = from the start), in order,
// and whether more follow. With no order_by, or one template field, it
// walks an index from the marker; other orders (item fields, several
// keys) filter every instance and sort the matches.
func SelectPage(s *state.Tx, t *state.MDTemplate, o QueryOrder, pred predicate, keep func(*state.MDInstance) bool, after *state.Position, limit int) ([]*state.MDInstance, bool) {
	match := func(in *state.MDInstance) bool { return keep(in) && pred(in) == triTrue }
	out := make([]*state.MDInstance, 0, limit+1)
	collect := func(in *state.MDInstance) bool {
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
		return ScanPage(s, t, o, match, after, limit)
	}
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}

// walkSeq visits instances in creation order (reversed when desc) from
// just after the position after until visit returns false.
func walkSeq(list []*state.MDInstance, after *state.Position, desc bool, visit func(*state.MDInstance) bool) {
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

// ScanPage is SelectPage for the orders no index serves (item fields,
// several keys): it filters every instance of t after the position after,
// sorts the matches and returns the first limit, and whether more follow.
func ScanPage(s *state.Tx, t *state.MDTemplate, o QueryOrder, match func(*state.MDInstance) bool, after *state.Position, limit int) ([]*state.MDInstance, bool) {
	var out []*state.MDInstance
	for _, in := range t.BySeq {
		if after != nil {
			c := CmpToPosition(s, o, in, *after)
			if o.desc && c >= 0 || !o.desc && c <= 0 {
				continue
			}
		}
		if match(in) {
			out = append(out, in)
		}
	}
	slices.SortFunc(out, func(a, b *state.MDInstance) int {
		if o.desc {
			return CmpInstances(s, o, b, a)
		}
		return CmpInstances(s, o, a, b)
	})
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}
