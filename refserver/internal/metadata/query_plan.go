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
//     NULL, and a LIKE whose pattern starts with literal text, on a
//     string, float, integer, date or enum field of the template, is one
//     or more ranges of that field's index (an ILIKE: one per way of
//     writing the start of that text in either case, foldPrefixes);
//   - AND intersects the ranges of the same field and takes the smallest
//     candidate set of its indexable terms (others are left to the
//     predicate);
//   - OR is the union of its terms' sets when every term is indexable;
//   - anything else (NOT, <>, NOT IN, NOT LIKE, NOT ILIKE, multiSelect
//     fields, item fields) leaves the whole query to a scan. A
//     multiSelect's HASANY/HASALL would need an index of each option's
//     instances (an inverted index), which the state does not keep.
//
// A candidate set larger than half the template (maxCandidates) is not
// worth reading: the plan is then a scan. The compiled predicate still
// decides on every candidate: a plan only narrows, so a query answers
// exactly what the scan answers, in the same order. The indexes are the
// state's: kept in step with every change, built in the background after
// a start or a schema update (state/metadata_index_build.go); while one is
// built, a read of it adds the instances it does not hold yet.

// Plan is how a query finds the instances its predicate tests: a scan of
// every instance of the template, or a candidate set read from indexes.
// The fields and parameters of its terms are resolved once, by PlanQuery;
// the set is read on demand (gather), up to a size the caller chooses.
type Plan struct {
	t    *state.MDTemplate
	root *planNode // nil: nothing in the query is indexable (a scan)
}

// planNode is an indexable part of a query.
type planNode struct {
	kind string // "leaf", "and", "or"
	// leaf: the field and its ranges; and: unused.
	acc access
	// and: the ranges of each field its indexable comparisons read,
	// intersected per field.
	fields []access
	// and: its other indexable terms; or: every term.
	kids []*planNode
}

// gather reads the candidate set, in creation order, if it has at most
// limit instances.
func (p *Plan) gather(limit int) ([]*state.MDInstance, bool) {
	if p.root == nil {
		return nil, false
	}
	r, ok := p.resolve(p.root, limit)
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
// candidates among the instances of t. An index it reads that the
// builder has not finished gets a share of the work from it
// (state.MDTemplate.HelpBuild).
func PlanQuery(t *state.MDTemplate, tree *mdquery.Node, params map[string]any) *Plan {
	p := &Plan{t: t}
	if tree != nil {
		p.root = (&planner{t: t, params: params}).plan(tree)
	}
	return p
}

type planner struct {
	t      *state.MDTemplate
	params map[string]any
}

// plan is the indexable part of n, nil if none.
func (pl *planner) plan(n *mdquery.Node) *planNode {
	switch n.Kind {
	case "and":
		and := &planNode{kind: "and"}
		for _, k := range n.Kids {
			if a, ok := pl.leaf(k); ok {
				pl.t.HelpBuild(pl.t.QueryIndex(a.field))
				i := slices.IndexFunc(and.fields, func(f access) bool { return f.field == a.field })
				if i < 0 {
					and.fields = append(and.fields, a)
				} else {
					and.fields[i].ranges = intersectAll(and.fields[i].ranges, a.ranges)
				}
			} else if kp := pl.plan(k); kp != nil {
				and.kids = append(and.kids, kp)
			}
		}
		if len(and.fields) == 0 && len(and.kids) == 0 {
			return nil
		}
		for i := range and.fields {
			and.fields[i].via.acc = &and.fields[i]
		}
		return and
	case "or":
		or := &planNode{kind: "or"}
		for _, k := range n.Kids {
			kp := pl.plan(k)
			if kp == nil {
				return nil
			}
			or.kids = append(or.kids, kp)
		}
		return or
	}
	if a, ok := pl.leaf(n); ok {
		pl.t.HelpBuild(pl.t.QueryIndex(a.field))
		leaf := &planNode{kind: "leaf", acc: a}
		leaf.acc.via.acc = &leaf.acc
		return leaf
	}
	return nil
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
	via    readVia // {this access}, set once the plan is made (sets point to it)
}

// resolved is a candidate set and how it was found.
type resolved struct {
	cands []cand // creation order, no duplicates
	// via is the index reads that found them: an access, or for a union
	// its terms' (for tests, which describe plans).
	via *readVia
}

// readVia is how a candidate set was read.
type readVia struct {
	acc   *access    // one field's ranges
	union []*readVia // or: the union of these
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
func indexableType(typ string) bool { return state.IndexedType(typ) }

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
		if n.Not || f.typ != state.FieldString {
			return access{}, false
		}
		prefixes := []string{mdquery.LiteralPrefix(vals[0].S)}
		if n.Fold {
			prefixes = foldPrefixes(prefixes[0])
		}
		if len(prefixes) == 0 || prefixes[0] == "" {
			return access{}, false
		}
		for _, p := range prefixes {
			a.ranges = append(a.ranges, keyRange{lo: bound{v: state.MDVal{Kind: state.ValString, S: p}, set: true, incl: true}, prefix: p})
		}
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

// maxFoldRanges bounds the ranges an ILIKE reads: one per way of writing
// its literal start in upper and lower case.
const maxFoldRanges = 16

// foldPrefixes is the ways of writing the start of prefix that a
// case-insensitive pattern matches (mdquery.FoldVariants of each
// character), as many characters as keep them to maxFoldRanges: "ab"
// gives "AB", "Ab", "aB", "ab". None for an empty prefix. Strings of the
// same number of characters, none of them a prefix of another: the
// ranges are disjoint.
func foldPrefixes(prefix string) []string {
	if prefix == "" {
		return nil
	}
	out := []string{""}
	for _, r := range prefix {
		vs := mdquery.FoldVariants(r)
		if len(out)*len(vs) > maxFoldRanges {
			break
		}
		next := make([]string, 0, len(out)*len(vs))
		for _, p := range out {
			for _, v := range vs {
				next = append(next, p+string(v))
			}
		}
		out = next
	}
	if out[0] == "" {
		return nil
	}
	return out
}

// resolve finds the candidates of n, at most limit of them; false when
// there would be more.
func (p *Plan) resolve(n *planNode, limit int) (resolved, bool) {
	switch n.kind {
	case "and":
		return p.resolveAnd(n, limit)
	case "or":
		via := &readVia{}
		all := getCands()
		for _, k := range n.kids {
			r, ok := p.resolve(k, limit-len(all))
			if !ok {
				putCands(all)
				return resolved{}, false
			}
			via.union = append(via.union, r.via)
			all = append(all, r.cands...)
			putCands(r.cands)
		}
		return resolved{cands: bySeq(all), via: via}, true
	}
	return p.read(&n.acc, limit)
}

// resolveAnd takes the smallest candidate set among the fields n's
// comparisons read and its other indexable terms.
func (p *Plan) resolveAnd(n *planNode, limit int) (resolved, bool) {
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
	for i := range n.fields {
		if limit < 0 || try(p.read(&n.fields[i], limit)) {
			return best, found
		}
	}
	for _, k := range n.kids {
		if limit < 0 || try(p.resolve(k, limit)) {
			return best, found
		}
	}
	return best, found
}

// read reads the ranges of a from the field's index: at most limit
// instances, in creation order; false when there are more. While the
// index is being built (state.SortIndex.Complete), the instances it does
// not hold yet are candidates too: the predicate tests them, as a scan
// does.
func (p *Plan) read(a *access, limit int) (resolved, bool) {
	via := &a.via
	if len(a.ranges) == 0 {
		return resolved{via: via}, true
	}
	idx := p.t.QueryIndex(a.field)
	tail := p.t.Unbuilt(idx)
	if len(tail) > limit {
		return resolved{}, false
	}
	out := getCands()
	for _, r := range a.ranges {
		var ok bool
		if out, ok = walkRange(idx, r, out, limit-len(tail)); !ok {
			putCands(out)
			return resolved{}, false
		}
	}
	out = bySeq(out)
	for _, in := range tail { // newer than every instance in the index: the order holds
		out = append(out, cand{in.Seq, in})
	}
	return resolved{cands: out, via: via}, true
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
