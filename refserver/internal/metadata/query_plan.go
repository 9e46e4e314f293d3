package metadata

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/state"
)

// Query planning (issue 35: a query's cost follows its matches, not the
// template's instances). Without a plan, a query tests every instance of
// its template. The planner reads the parsed query's AND/OR tree and,
// where it can, takes a candidate set from the template's field indexes
// (state.SortIndex: instances ordered by one field's value, then by
// creation, null values last):
//
//   - a comparison (= < <= > >=), IN, an enum's HASANY/HASALL, IS [NOT]
//     NULL, and a case-sensitive LIKE whose pattern starts with literal
//     text, on a string, float, integer, date or enum field of the
//     template, is one or more ranges of that field's index;
//   - AND intersects the ranges of the same field and takes the smallest
//     candidate set of its indexable terms (others are left to the
//     predicate);
//   - OR is the union of its terms' sets when every term is indexable;
//   - anything else (NOT, <>, NOT IN, NOT LIKE, ILIKE, multiSelect
//     fields, item fields) leaves the whole query to a scan.
//
// A candidate set larger than half the template (maxCandidates) is not
// worth reading: the plan is then a scan. The compiled predicate still
// decides on every candidate: a plan only narrows, so a query answers
// exactly what the scan answers, in the same order. Indexes are built on
// first use (Template.Index) and kept in step with every change after
// that.

// Plan is how a query finds the instances its predicate tests: a scan of
// every instance of the template, or a candidate set read from indexes.
// The set is read on demand (gather), up to a size the caller chooses.
type Plan struct {
	pl   *planner
	tree *mdquery.Node
	scan bool // nothing in the query is indexable
}

// String describes the plan as it is for a set of up to maxCandidates:
// "scan", or the index reads it chose, e.g. `amount [10,20)`,
// `status ="draft" | ="final"`, `customer ^"Acme"`,
// `union(amount =5; customer ^"B")`.
func (p *Plan) String() string {
	if r, ok := p.resolveMax(); ok {
		return r.desc
	}
	return "scan"
}

// Scan reports whether the plan reads every instance (no candidate set of
// up to maxCandidates).
func (p *Plan) Scan() bool {
	_, ok := p.resolveMax()
	return !ok
}

// Candidates is the number of instances the plan has the predicate test
// (0 for a scan).
func (p *Plan) Candidates() int {
	r, _ := p.resolveMax()
	return len(r.cands)
}

func (p *Plan) resolveMax() (resolved, bool) {
	if p.scan {
		return resolved{}, false
	}
	return p.pl.resolve(p.tree, maxCandidates(len(p.pl.t.BySeq)))
}

// gather reads the candidate set, in creation order, if it has at most
// limit instances.
func (p *Plan) gather(limit int) ([]*state.MDInstance, bool) {
	if p.scan {
		return nil, false
	}
	r, ok := p.pl.resolve(p.tree, limit)
	out := instances(r.cands)
	putCands(r.cands)
	return out, ok
}

// candBufs recycles the buffers sets are read into: a set that turns out
// too large, or is copied out, leaves its buffer for the next query
// instead of to the garbage collector (whose cost per byte grows with the
// state's heap).
var candBufs sync.Pool

func getCands() []cand {
	if b, ok := candBufs.Get().(*[]cand); ok {
		return (*b)[:0]
	}
	return nil
}

func putCands(b []cand) {
	if cap(b) == 0 || cap(b) > 1<<20 {
		return
	}
	clear(b[:cap(b)]) // drop the instances it points to
	candBufs.Put(&b)
}

// maxCandidates is the largest candidate set worth reading for a
// template of n instances (at least 64: on small templates every plan is
// cheap, and the tests see it work).
func maxCandidates(n int) int { return max(n/2, 64) }

// PlanQuery chooses how the query tree (checked by CompileQuery) finds its
// candidates among the instances of t; the field indexes it reads are
// built when it first gathers them.
func PlanQuery(s *state.Tx, t *state.MDTemplate, tree *mdquery.Node, params map[string]any) *Plan {
	pl := &planner{s: s, t: t, params: params}
	return &Plan{pl: pl, tree: tree, scan: tree == nil || !pl.indexable(tree)}
}

type planner struct {
	s      *state.Tx
	t      *state.MDTemplate
	params map[string]any
}

// bound is one end of a range of values.
type bound struct {
	v    state.MDVal
	set  bool
	incl bool
}

// keyRange is a contiguous run of one field's index.
type keyRange struct {
	null   bool   // the instances without a value (they sort last)
	lo, hi bound  // unset: unbounded (among the values)
	prefix string // values that start with it (a LIKE pattern's literal start); "" for any
}

// access is a union of disjoint ranges of one field's index.
type access struct {
	field  string
	ranges []keyRange
}

// resolved is a candidate set and how it was found.
type resolved struct {
	desc  string
	cands []cand // creation order, no duplicates
}

// cand is a candidate with its creation (Seq), copied from the index so
// that ordering a set does not read every instance.
type cand struct {
	seq int64
	in  *state.MDInstance
}

// instances lists the candidates' instances.
func instances(cs []cand) []*state.MDInstance {
	out := make([]*state.MDInstance, len(cs))
	for i, c := range cs {
		out[i] = c.in
	}
	return out
}

// indexableType reports whether a template field type has values one
// index orders (every value of one kind, compared by state.CmpVals).
func indexableType(typ string) bool {
	return sortableType(typ) || typ == state.FieldEnum
}

// indexable reports whether the planner can find candidates for n.
func (pl *planner) indexable(n *mdquery.Node) bool {
	switch n.Kind {
	case "and":
		return slices.ContainsFunc(n.Kids, pl.indexable)
	case "or":
		for _, k := range n.Kids {
			if !pl.indexable(k) {
				return false
			}
		}
		return true
	}
	_, ok := pl.leaf(n)
	return ok
}

// leaf is the index access of a predicate, if it has one.
func (pl *planner) leaf(n *mdquery.Node) (access, bool) {
	switch n.Kind {
	case "cmp", "like", "in", "has", "null":
	default:
		return access{}, false
	}
	f, aerr := resolveField(pl.t, n.Field)
	if aerr != nil || f.item || !indexableType(f.typ) {
		return access{}, false
	}
	vals := make([]state.MDVal, len(n.Params))
	for i, name := range n.Params {
		v, aerr := paramValue(f, name, pl.params)
		if aerr != nil {
			return access{}, false
		}
		vals[i] = v
	}
	a := access{field: f.Key}
	eq := func(v state.MDVal) keyRange {
		return keyRange{lo: bound{v: v, set: true, incl: true}, hi: bound{v: v, set: true, incl: true}}
	}
	switch n.Kind {
	case "cmp":
		b := bound{v: vals[0], set: true, incl: n.Op == "<=" || n.Op == ">="}
		switch n.Op {
		case "=":
			a.ranges = []keyRange{eq(vals[0])}
		case "<", "<=":
			a.ranges = []keyRange{{hi: b}}
		case ">", ">=":
			a.ranges = []keyRange{{lo: b}}
		default: // <>: two ranges of most of the index
			return access{}, false
		}
	case "like":
		if n.Not || n.Fold || f.typ != state.FieldString {
			return access{}, false
		}
		p := mdquery.LiteralPrefix(vals[0].S)
		if p == "" {
			return access{}, false
		}
		a.ranges = []keyRange{{lo: bound{v: state.MDVal{Kind: state.ValString, S: p}, set: true, incl: true}, prefix: p}}
	case "in", "has":
		if n.Not || n.Kind == "has" && f.typ != state.FieldEnum {
			return access{}, false
		}
		if n.All {
			// An enum holds one value: HASALL matches only where it is
			// the first (and every other) value listed.
			vals = vals[:1]
		}
		for i, v := range vals {
			if !slices.ContainsFunc(vals[:i], func(w state.MDVal) bool { return state.CmpVals(v, w) == 0 }) {
				a.ranges = append(a.ranges, eq(v))
			}
		}
	case "null":
		a.ranges = []keyRange{{null: !n.Not}} // IS NOT NULL: every value
	}
	return a, true
}

// resolve finds the candidates of an indexable n, at most limit of them;
// false when there would be more.
func (pl *planner) resolve(n *mdquery.Node, limit int) (resolved, bool) {
	switch n.Kind {
	case "and":
		return pl.resolveAnd(n, limit)
	case "or":
		var parts []string
		all := getCands()
		for _, k := range n.Kids {
			r, ok := pl.resolve(k, limit-len(all))
			if !ok {
				putCands(all)
				return resolved{}, false
			}
			parts = append(parts, r.desc)
			all = append(all, r.cands...)
			putCands(r.cands)
		}
		return resolved{desc: "union(" + strings.Join(parts, "; ") + ")", cands: bySeq(all)}, true
	}
	a, _ := pl.leaf(n)
	return pl.read(a, limit)
}

// resolveAnd intersects the ranges of each field the terms of n read and
// takes the smallest candidate set among those fields' and the other
// indexable terms'.
func (pl *planner) resolveAnd(n *mdquery.Node, limit int) (resolved, bool) {
	var fields []access
	var others []*mdquery.Node
	for _, k := range n.Kids {
		a, ok := pl.leaf(k)
		switch {
		case ok:
			i := slices.IndexFunc(fields, func(f access) bool { return f.field == a.field })
			if i < 0 {
				fields = append(fields, a)
			} else {
				fields[i].ranges = intersectAll(fields[i].ranges, a.ranges)
			}
		case pl.indexable(k):
			others = append(others, k)
		}
	}
	var best resolved
	found := false
	try := func(r resolved, ok bool) bool {
		if ok && (!found || len(r.cands) < len(best.cands)) {
			putCands(best.cands)
			best, found = r, true
			limit = len(r.cands) - 1 // only a smaller set is worth reading
		} else {
			putCands(r.cands)
		}
		return found && len(best.cands) == 0
	}
	for _, a := range fields {
		if limit < 0 || try(pl.read(a, limit)) {
			return best, found
		}
	}
	for _, k := range others {
		if limit < 0 || try(pl.resolve(k, limit)) {
			return best, found
		}
	}
	return best, found
}

// read reads the ranges of a from the field's index: at most limit
// instances, in creation order; false when there are more.
func (pl *planner) read(a access, limit int) (resolved, bool) {
	parts := make([]string, len(a.ranges))
	for i, r := range a.ranges {
		parts[i] = r.String()
	}
	desc := a.field + " " + strings.Join(parts, " | ")
	if len(a.ranges) == 0 {
		desc = a.field + " ∅"
		return resolved{desc: desc}, true
	}
	idx := pl.t.Index(a.field)
	out := getCands()
	for _, r := range a.ranges {
		var ok bool
		if out, ok = walkRange(idx, r, out, limit); !ok {
			putCands(out)
			return resolved{}, false
		}
	}
	return resolved{desc: desc, cands: bySeq(out)}, true
}

// walkRange appends the instances in r of the index of field to out,
// up to limit in all; false when there are more. It reads the values from
// the index's entries, not from the instances.
func walkRange(idx *state.SortIndex, r keyRange, out []cand, limit int) ([]cand, bool) {
	var from *state.Position
	switch {
	case r.null:
		from = &state.Position{Vals: []state.MDVal{{}}, Oks: []bool{false}, Seq: math.MinInt64}
	case r.lo.set:
		seq := int64(math.MinInt64) // before every instance of the value
		if !r.lo.incl {
			seq = math.MaxInt64 // after them
		}
		from = &state.Position{Vals: []state.MDVal{r.lo.v}, Oks: []bool{true}, Seq: seq}
	}
	ok := true
	idx.Ascend(from, func(v state.MDVal, has bool, seq int64, in *state.MDInstance) bool {
		if has == r.null {
			return false // past the values (null last) or, for null, not one
		}
		if r.hi.set {
			if c := state.CmpVals(v, r.hi.v); c > 0 || c == 0 && !r.hi.incl {
				return false
			}
		}
		if r.prefix != "" && !strings.HasPrefix(v.S, r.prefix) {
			return false
		}
		if len(out) >= limit {
			ok = false
			return false
		}
		out = append(out, cand{seq, in})
		return true
	})
	return out, ok
}

// bySeq sorts a candidate set in creation order and drops duplicates.
func bySeq(list []cand) []cand {
	if !slices.IsSortedFunc(list, cmpCands) {
		slices.SortFunc(list, cmpCands)
	}
	return slices.Compact(list)
}

func cmpCands(a, b cand) int { return cmp.Compare(a.seq, b.seq) }

// intersectAll intersects two unions of disjoint ranges.
func intersectAll(a, b []keyRange) []keyRange {
	var out []keyRange
	for _, x := range a {
		for _, y := range b {
			if r, ok := intersect(x, y); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// intersect is the range of the values in both x and y; false if none.
func intersect(x, y keyRange) (keyRange, bool) {
	if x.null || y.null {
		return keyRange{null: true}, x.null && y.null
	}
	out := keyRange{lo: tighter(x.lo, y.lo, 1), hi: tighter(x.hi, y.hi, -1)}
	switch {
	case x.prefix == "" || strings.HasPrefix(y.prefix, x.prefix):
		out.prefix = y.prefix
	case y.prefix == "" || strings.HasPrefix(x.prefix, y.prefix):
		out.prefix = x.prefix
	default:
		return keyRange{}, false
	}
	if out.lo.set && out.hi.set {
		if c := state.CmpVals(out.lo.v, out.hi.v); c > 0 || c == 0 && !(out.lo.incl && out.hi.incl) {
			return keyRange{}, false
		}
	}
	return out, true
}

// tighter is the tighter of two lower (dir 1) or upper (dir -1) bounds.
func tighter(a, b bound, dir int) bound {
	switch {
	case !a.set:
		return b
	case !b.set:
		return a
	}
	switch c := state.CmpVals(a.v, b.v) * dir; {
	case c > 0:
		return a
	case c < 0:
		return b
	}
	a.incl = a.incl && b.incl
	return a
}

// String renders a range: =v, ^"prefix", null, or an interval.
func (r keyRange) String() string {
	val := func(v state.MDVal) string {
		if v.Kind == state.ValString {
			return `"` + v.S + `"`
		}
		return v.S
	}
	switch {
	case r.null:
		return "null"
	case r.lo.set && r.hi.set && r.lo.incl && r.hi.incl && state.CmpVals(r.lo.v, r.hi.v) == 0:
		return "=" + val(r.lo.v)
	case r.prefix != "" && !r.hi.set && r.lo.v.S == r.prefix:
		return `^"` + r.prefix + `"`
	}
	var b strings.Builder
	if r.lo.set && r.lo.incl {
		b.WriteString("[" + val(r.lo.v))
	} else if r.lo.set {
		b.WriteString("(" + val(r.lo.v))
	} else {
		b.WriteString("(-∞")
	}
	b.WriteString(",")
	if r.hi.set && r.hi.incl {
		b.WriteString(val(r.hi.v) + "]")
	} else if r.hi.set {
		b.WriteString(val(r.hi.v) + ")")
	} else {
		b.WriteString("∞)")
	}
	if r.prefix != "" {
		b.WriteString(` ^"` + r.prefix + `"`)
	}
	return b.String()
}
