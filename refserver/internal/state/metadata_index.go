package state

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/btree"
)

// Query indexes. Every template keeps its instances in creation order
// (BySeq, the default query order) and, for each template field a query
// may filter on or sort by (IndexedType), a SortIndex: a B-tree
// (github.com/tidwall/btree) of the instances ordered by (value,
// creation), null values last. An index is kept in step by every create,
// update and delete (O(log n)), so a sorted page is a descent to the
// marker plus a walk of about one page of matching entries, and a
// filter's candidates are a descent plus a walk of its range (the
// metadata package's query planner).
//
// Indexes are in memory only. A server builds them in the background
// (metadata_index_build.go): after a start, for every template, and after
// a schema update, for its template, in transactions of a few thousand
// instances, in creation order. While it is at it, an index holds the
// instances up to some creation and not the newer ones; a query reads the
// unbuilt tail of the template as it reads a scan (Unbuilt). Without the
// builder (a state no server runs), Index builds an index on first use.
//
// An entry holds a copy of its key (the value's kind, text and number, and
// the creation), so that descents and range walks read the B-tree's nodes
// only, not each instance's map of values.

// SortIndex orders a template's instances by one field.
type SortIndex struct {
	field string
	tree  *btree.BTreeG[indexEntry]
	// upTo is the creation (Seq) up to which the index holds every
	// instance: math.MaxInt64 once built; while it is built, newer
	// instances are left to the builder, which finds them in BySeq.
	upTo int64
	// asked: a query read the index before it was complete; the builder
	// finishes such indexes first.
	asked bool
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

// cmpEntries orders entries by value (null last), then creation: as
// CmpPresent and CmpVals, on the entries' fields (the B-tree's every
// step).
func cmpEntries(a, b indexEntry) int {
	switch {
	case a.ok != b.ok:
		if a.ok {
			return -1
		}
		return 1
	case !a.ok:
	case a.kind == ValNumber || a.kind == ValDate:
		if a.f < b.f {
			return -1
		}
		if a.f > b.f {
			return 1
		}
	default:
		if c := strings.Compare(a.s, b.s); c != 0 {
			return c
		}
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
	v, ok := in.Values.Get(x.field)
	return indexEntry{kind: v.Kind, ok: ok, s: v.S, f: v.F, seq: in.Seq, in: in}
}

// Insert files in in the index; call it once in's values are set.
func (x *SortIndex) Insert(in *MDInstance) {
	if in.Seq <= x.upTo {
		x.tree.Set(x.entry(in))
	}
}

// Remove takes in out of the index; call it before in's values change
// (its entry is found by the values it was filed with).
func (x *SortIndex) Remove(in *MDInstance) {
	if in.Seq <= x.upTo {
		x.tree.Delete(x.entry(in))
	}
}

// Len is the number of instances in the index.
func (x *SortIndex) Len() int { return x.tree.Len() }

// Complete reports whether the index holds every instance of its
// template.
func (x *SortIndex) Complete() bool { return x.upTo == completeIndex }

// IndexedType reports whether the fields of a type have a query index:
// string, float, integer, date and enum (one value of one kind, ordered
// by CmpVals); multiSelect and taxonomy values are lists.
func IndexedType(typ string) bool {
	switch typ {
	case FieldString, FieldFloat, FieldInteger, FieldDate, FieldEnum:
		return true
	}
	return false
}

// newSortIndex is an empty index of field, holding the instances up to
// upTo.
func newSortIndex(field string, upTo int64) *SortIndex {
	// Reached through a transaction like the rest of the template: no locks of its own.
	// Degree 64 (nodes of up to 127 instances): with the default 32 an
	// update's remove and insert measured about 2% slower than with the
	// google/btree this replaced (BenchmarkMetadataIndex/move); with 64
	// they are as fast, and walks and builds are faster either way.
	tree := btree.NewBTreeGOptions(func(a, b indexEntry) bool { return cmpEntries(a, b) < 0 }, btree.Options{NoLocks: true, Degree: 64})
	return &SortIndex{field: field, tree: tree, upTo: upTo}
}

// Index returns the complete sort index of a template field: one the
// builder has not finished (or none at all) is finished here, under the
// caller's transaction. Queries use QueryIndex instead, which never
// builds while a builder is at work.
func (t *MDTemplate) Index(field string) *SortIndex {
	x := t.Sorted[field]
	if x == nil {
		x = newSortIndex(field, 0)
		if t.Sorted == nil {
			t.Sorted = make(map[string]*SortIndex)
		}
		t.Sorted[field] = x
	}
	for !x.Complete() {
		t.buildSome(x, math.MaxInt)
	}
	return x
}

// QueryIndex is the index of a template field as far as it is built (see
// Complete and Unbuilt); a field no builder has registered (a state
// without one) gets its complete index built here, as Index does.
func (t *MDTemplate) QueryIndex(field string) *SortIndex {
	if x := t.Sorted[field]; x != nil {
		return x
	}
	return t.Index(field)
}

// Unbuilt is the instances of t the index x does not hold yet (the
// newest, in creation order), for a query: none once it is complete.
// The builder takes an index a query asked for before the others.
func (t *MDTemplate) Unbuilt(x *SortIndex) []*MDInstance {
	if x.Complete() {
		return nil
	}
	x.asked = true
	return t.unbuilt(x)
}

// HelpBuild files a share of what the index x lacks, for a query that is
// about to read it (a transaction may fill it: a cache): a sixteenth of
// the template (at least a builder's step), and never more than half of
// what it lacks (the builder files the rest). A query in the first
// moments after a start pays about a quarter more than the scan of the
// instances the index lacks (filing one costs ~4 times a test), and
// back-to-back queries, which leave the builder one step between them,
// have the index nearly complete after 16.
func (t *MDTemplate) HelpBuild(x *SortIndex) {
	if x.Complete() {
		return
	}
	x.asked = true
	if n := min(max(indexBuildStep, len(t.BySeq)/16), len(t.unbuilt(x))/2); n > 0 {
		t.buildSome(x, n)
	}
}

// unbuilt is the instances of t that the index x does not hold yet.
func (t *MDTemplate) unbuilt(x *SortIndex) []*MDInstance {
	if x.Complete() {
		return nil
	}
	return t.BySeq[sort.Search(len(t.BySeq), func(i int) bool { return t.BySeq[i].Seq > x.upTo }):]
}

// buildSome files up to n more instances of t in x, in creation order,
// and marks x complete when none is left. The instances of a step are
// sorted first: filed in order, each insertion's descent starts from the
// path of the one before (SetHint), which halves the cost of filing them
// in creation order.
func (t *MDTemplate) buildSome(x *SortIndex, n int) {
	rest := t.unbuilt(x)
	step := rest[:min(n, len(rest))]
	entries := make([]indexEntry, len(step))
	for i, in := range step {
		entries[i] = x.entry(in)
	}
	slices.SortFunc(entries, cmpEntries)
	var hint btree.PathHint
	for _, e := range entries {
		x.tree.SetHint(e, &hint)
	}
	if len(step) == len(rest) {
		x.upTo = completeIndex
	} else {
		x.upTo = step[len(step)-1].Seq
	}
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
