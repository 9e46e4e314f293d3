package metadata

import (
	"cmp"
	"math"
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
// and whether more follow. Without candidates (plan, PlanQuery), no
// order_by or one template field walks an index from the marker until
// the page is full, and other orders (item fields, several keys) filter
// every instance and sort the matches.
//
// With candidates, the cheaper of the two is a bet on how dense the
// matches are. A set of c candidates costs about c steps of a B-tree's
// walk to read (and a sort for ranges); a walk in order costs about
// (limit+1)·n/m tests of instances, each some ten times a read, to find
// a page among m matches. So a set of up to √(4·(limit+1)·n) is read at
// once; a larger one only after a walk of as many steps has not filled
// the page (the matches are sparse), and one over maxCandidates never.
// The bet costs dense queries the read of that first set: at 50,000
// instances, about 0.2 ms on a query matching a third of them
// (BenchmarkMetadataQuerySelective/dense-*). With √((limit+1)·n) that
// read is halved, but a query whose set of 12,500 holds a tenth of
// matches took 6.5 ms instead of 0.9 ms: its walk ran out of steps and
// the whole set was read and sorted.
func SelectPage(s *state.Tx, t *state.MDTemplate, o QueryOrder, pred predicate, plan *Plan, keep func(*state.MDInstance) bool, after *state.Position, limit int) ([]*state.MDInstance, bool) {
	match := func(in *state.MDInstance) bool { return keep(in) && pred(in) == triTrue }
	// One template field is walked in its index once that is complete;
	// while the builder is at it, the order is sorted as other orders are
	// (and the query helps it, as PlanQuery does).
	walkable := len(o.Keys) == 0
	if len(o.Keys) == 1 && !o.Keys[0].item {
		x := t.QueryIndex(o.Keys[0].Key)
		t.HelpBuild(x)
		walkable = x.Complete()
	}
	if plan.root != nil {
		n := len(t.BySeq)
		most, tried := maxCandidates(n), 0
		if walkable {
			few := min(most, max(64, int(math.Sqrt(4*float64(limit+1)*float64(n)))))
			if cands, ok := plan.gather(few); ok {
				return pageOfCandidates(s, o, match, cands, after, limit)
			}
			if page, more, done := walkPage(t, o, match, after, limit, few); done {
				return page, more
			}
			tried = few
		}
		if most > tried { // a set larger than tried is not read again
			if cands, ok := plan.gather(most); ok {
				return pageOfCandidates(s, o, match, cands, after, limit)
			}
		}
	}
	if !walkable {
		return ScanPage(s, t.BySeq, o, match, after, limit)
	}
	page, more, _ := walkPage(t, o, match, after, limit, -1)
	return page, more
}

// walkPage walks the instances of t in a walkable order (none, or one
// template field) from the position after, collecting up to limit
// matches, for at most budget steps (< 0: no limit); done is false when
// the budget ran out first.
func walkPage(t *state.MDTemplate, o QueryOrder, match func(*state.MDInstance) bool, after *state.Position, limit, budget int) (page []*state.MDInstance, more, done bool) {
	out := make([]*state.MDInstance, 0, limit+1)
	steps := 0
	done = true
	collect := func(in *state.MDInstance) bool {
		if steps++; budget >= 0 && steps > budget {
			done = false
			return false
		}
		if match(in) {
			out = append(out, in)
		}
		return len(out) <= limit
	}
	if len(o.Keys) == 0 {
		walkSeq(t.BySeq, after, o.desc, collect)
	} else {
		t.QueryIndex(o.Keys[0].Key).Walk(after, o.desc, collect)
	}
	if !done {
		return nil, false, false
	}
	if len(out) > limit {
		return out[:limit], true, true
	}
	return out, false, true
}

// pageOfCandidates is SelectPage over a candidate set (creation order):
// with no order_by it walks the candidates from the marker as the scan
// walks every instance, stopping at the page's end; other orders filter
// the candidates and sort the matches.
func pageOfCandidates(s *state.Tx, o QueryOrder, match func(*state.MDInstance) bool, cands []*state.MDInstance, after *state.Position, limit int) ([]*state.MDInstance, bool) {
	if len(o.Keys) > 0 {
		return ScanPage(s, cands, o, match, after, limit)
	}
	out := make([]*state.MDInstance, 0, limit+1)
	walkSeq(cands, after, o.desc, func(in *state.MDInstance) bool {
		if match(in) {
			out = append(out, in)
		}
		return len(out) <= limit
	})
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
// several keys) and for candidate sets: it filters the instances of list
// after the position after, sorts the matches and returns the first
// limit, and whether more follow.
func ScanPage(s *state.Tx, list []*state.MDInstance, o QueryOrder, match func(*state.MDInstance) bool, after *state.Position, limit int) ([]*state.MDInstance, bool) {
	var out []*state.MDInstance
	for _, in := range list {
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
