package state

import (
	"cmp"
	"context"
	"slices"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// scored is a search hit and its relevance.
type scored struct {
	it    *Item
	score int
}

// SearchHits is what the index answers a query, evaluated off the state's
// lock (State.SearchAt): the items matched and their relevance, in every
// field of the query's mask (all) and, for a caller who may not preview
// every item, in its name, description and tags only (named). Tx.SearchTx
// takes the hits the caller may match and that the index holds as they
// are. The index stays locked for reading while the hits are used.
type SearchHits struct {
	x     *searchIndex
	mark  uint64
	all   map[*Item]Hit
	named map[*Item]Hit // nil: the caller may preview everything, or the mask has no content

	// A search with more hits than searchChunk checks them in
	// transactions of searchChunk (State.checkInChunks): first holds the
	// first of those kept (its page and those before, and searchSlack
	// more), total how many were kept.
	first *firstK[scored]
	total int64
}

// searchChunk is how many hits one transaction of a search checks at
// most (the access model, the filters, the index's view of the item): a
// query that matches more checks them in transactions of this many, a
// millisecond or two each, so that other requests get the state between
// them. A variable for the tests.
var searchChunk = 4096

// stampRankMax is how many hits a search ranked by stamps (search_rank.go)
// takes in its one transaction rather than in chunks: it reads the item of
// none but the page's, a few tens of nanoseconds a hit. A variable for the
// tests.
var stampRankMax = 8 * 4096

// searchSlack is how many hits beyond its page a search checked in chunks
// keeps, to stand in for those that change before its last transaction
// (which checks them again). Should more change, the page comes short.
const searchSlack = 64

// Search serves a search: it catches the index up with every change made
// before it (CatchUpSearch), then runs fn with the hits (SearchAt). An
// error is ctx's.
func (s *State) Search(ctx context.Context, p *Principal, q *SearchRequest, fn func(tx *Tx, h *SearchHits)) error {
	mark, err := s.CatchUpSearch(ctx)
	if err != nil {
		return err
	}
	s.SearchAt(mark, p, q, fn)
	return nil
}

// SearchAt evaluates q's query in the index, under the index's read lock
// but not the state's, then runs fn, with the hits, in a transaction
// (Update: rendering an item may note an interaction), the index still
// locked for reading so that no hit changes under it. mark is what
// CatchUpSearch returned: an item changed after it is left out. Hits
// beyond searchChunk are checked in transactions of their own first.
func (s *State) SearchAt(mark uint64, p *Principal, q *SearchRequest, fn func(tx *Tx, h *SearchHits)) {
	var x *searchIndex
	s.View(func(tx *ReadTx) { x = tx.Search })
	x.mu.RLock()
	defer x.mu.RUnlock()
	h := &SearchHits{x: x, mark: mark}
	if q.Query != nil {
		h.all = x.evalFor(q.Query, q.Mask)
		if named := q.Mask &^ (FieldContent | FieldComments); !p.SeesAll() && named != q.Mask {
			h.named = x.evalFor(q.Query, named)
		}
		if q.MD == nil && h.candidates() > searchChunk && !(rankableByStamps(p, q) && len(h.all) <= stampRankMax) {
			s.checkInChunks(p, q, h)
		}
	}
	s.Update(func(tx *Tx) { fn(tx, h) })
}

// checkInChunks checks the hits searchChunk at a time, each chunk in a
// transaction, and keeps the first of those kept in h.first. An
// ancestor's error is left for SearchTx to answer.
func (s *State) checkInChunks(p *Principal, q *SearchRequest, h *SearchHits) {
	hits := make([]scored, 0, h.candidates())
	h.each(func(it *Item) { hits = append(hits, scored{it, 0}) })
	first := newFirstK(int(min(q.Page.Offset+q.Page.Limit+searchSlack, int64(len(hits)))), q.order)
	for i := 0; i < len(hits); i += searchChunk {
		failed := false
		s.Update(func(tx *Tx) {
			ancestors, aerr := tx.searchAncestors(p, q)
			if aerr != nil {
				failed = true
				return
			}
			h.x.queue.mu.Lock()
			defer h.x.queue.mu.Unlock()
			for _, c := range hits[i:min(i+searchChunk, len(hits))] {
				if sc, ok := tx.searchHit(p, h, c.it); ok && tx.SearchKeeps(p, q, c.it, ancestors) {
					h.total++
					first.add(scored{c.it, sc})
				}
			}
		})
		if failed {
			return
		}
	}
	h.first = first
}

// order is the order of a search's results: by relevance, or by
// modified_at, then the newest change first and by id.
func (q *SearchRequest) order(a, b scored) int {
	if !q.ByModified {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmpNewest(a.it, b.it)
	}
	c := a.it.ModifiedAt.Compare(b.it.ModifiedAt)
	if !q.Ascending {
		c = -c
	}
	if c != 0 {
		return c
	}
	return cmpNewest(a.it, b.it)
}

// searchAncestors is the set of q's ancestor folders; an error when p
// cannot see one.
func (s *Tx) searchAncestors(p *Principal, q *SearchRequest) (map[string]bool, *wire.Error) {
	var ancestors map[string]bool
	for _, id := range q.Ancestors {
		if id != RootID {
			if _, aerr := s.Lookup(p, "folder", id); aerr != nil {
				return nil, aerr
			}
		}
		if ancestors == nil {
			ancestors = map[string]bool{}
		}
		ancestors[id] = true
	}
	return ancestors, nil
}

// SearchTx serves GET /search: it finds, orders and renders one page of
// the hits (State.Search).
func (s *Tx) SearchTx(p *Principal, q *SearchRequest, h *SearchHits) (Reply, *wire.Error) {
	ancestors, aerr := s.searchAncestors(p, q)
	if aerr != nil {
		return Reply{}, aerr
	}
	var list []scored
	var total int64
	ranked := false
	if h.first != nil {
		list, total = s.recheck(p, q, h, ancestors)
	} else if q.Query != nil {
		list, total, ranked = s.rankByStamps(p, q, h)
	}
	if h.first == nil && !ranked {
		var hits map[*Item]Hit
		if q.Query != nil {
			hits = s.searchHits(p, h)
		} else if q.HasQuery {
			hits = map[*Item]Hit{} // only punctuation or operators: nothing to match
		}
		if q.MD != nil {
			hits = s.MatchMDFilter(q.MD, hits)
		}
		// Only the page and those before it are ordered (firstK), not every hit.
		first := newFirstK(int(min(q.Page.Offset+q.Page.Limit, int64(len(hits)))), q.order)
		for it, hit := range hits {
			if s.SearchKeeps(p, q, it, ancestors) {
				total++
				first.add(scored{it, hit.Score})
			}
		}
		list = first.sorted()
	}
	start := min(q.Page.Offset, int64(len(list)))
	end := min(start+q.Page.Limit, int64(len(list)))
	entries := make([]any, 0, end-start)
	for _, h := range list[start:end] {
		rec := s.Render(h.it, q.Fields, p)
		if q.WithSharedInfo {
			entries = append(entries, map[string]any{"type": "search_result", "item": rec, "accessible_via_shared_link": nil})
		} else {
			entries = append(entries, rec)
		}
	}
	typ := "search_results_items"
	if q.WithSharedInfo {
		typ = "search_results_with_shared_links"
	}
	return Reply{Status: wire.StatusOK, Body: map[string]any{"type": typ, "entries": entries, "limit": q.Page.Limit, "offset": q.Page.Offset, "total_count": total}}, nil
}

// recheck orders the hits a search kept while it checked them in chunks
// and checks them again, now: one changed since its chunk (another change
// queued, access, trash) is left out, and counted out of the total.
func (s *Tx) recheck(p *Principal, q *SearchRequest, h *SearchHits, ancestors map[string]bool) ([]scored, int64) {
	q2 := &h.x.queue
	q2.mu.Lock()
	defer q2.mu.Unlock()
	list := h.first.sorted()
	kept := list[:0]
	total := h.total
	for _, c := range list {
		if sc, ok := s.searchHit(p, h, c.it); ok && sc == c.score && s.SearchKeeps(p, q, c.it, ancestors) {
			kept = append(kept, c)
		} else {
			total--
		}
	}
	return kept, total
}

// searchHits keeps the hits p's query may match and the index holds as
// they are, with their relevance (searchHit).
func (s *ReadTx) searchHits(p *Principal, h *SearchHits) map[*Item]Hit {
	q := &h.x.queue
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.latest) == 0 && h.named == nil {
		return h.all // nothing changed since the index caught up
	}
	out := make(map[*Item]Hit, len(h.all))
	h.each(func(it *Item) {
		if sc, ok := s.searchHit(p, h, it); ok {
			out[it] = Hit{Score: sc}
		}
	})
	return out
}

// each calls fn with every item the query may match: those it matches in
// every field and, for a caller who may not preview every item, those it
// matches in the name, description and tags only (a NOT of a word found
// in the content keeps an item there: left out, the item would tell its
// content to who may not preview it).
func (h *SearchHits) each(fn func(it *Item)) {
	for it := range h.all {
		fn(it)
	}
	for it := range h.named {
		if _, in := h.all[it]; !in {
			fn(it)
		}
	}
}

// candidates is how many items each gives.
func (h *SearchHits) candidates() int {
	n := len(h.all)
	for it := range h.named {
		if _, in := h.all[it]; !in {
			n++
		}
	}
	return n
}

// searchHit reports whether p's query may match a hit, it, as the index
// holds it, and its relevance. An item p sees but may not preview (an
// uploader's) is matched in its name, description and tags only, so that
// a query cannot probe its content or comments word by word. An item
// changed after the hits' mark is left out (indexed as it was before, or
// not yet), and so is one that is gone; one changed before it but within
// the index delay is matched as it was indexed, as the delay means. The
// queue's lock is taken by the caller's transaction (searchHits, recheck,
// checkInChunks).
func (s *ReadTx) searchHit(p *Principal, h *SearchHits, it *Item) (int, bool) {
	if seq, queued := h.x.queue.latest[it]; queued && (seq > h.mark || s.Items.At(it.Typ, it.ID) != it) {
		return 0, false
	}
	if h.named != nil && !s.Can(p, it, ActPreview) {
		hit, ok := h.named[it]
		return hit.Score, ok
	}
	hit, ok := h.all[it]
	return hit.Score, ok
}

// firstK keeps the first k values in an order, of those it is given, in
// a heap whose top is the last of them.
type firstK[T any] struct {
	k     int
	s     []T
	order func(a, b T) int
}

func newFirstK[T any](k int, order func(a, b T) int) *firstK[T] {
	return &firstK[T]{k: k, s: make([]T, 0, k), order: order}
}

// add keeps v if it is among the first k so far.
func (f *firstK[T]) add(v T) {
	switch {
	case len(f.s) < f.k:
		f.s = append(f.s, v)
		f.up(len(f.s) - 1)
	case f.k > 0 && f.order(v, f.s[0]) < 0:
		f.s[0] = v
		f.down(0)
	}
}

// sorted returns the values kept, in order.
func (f *firstK[T]) sorted() []T {
	slices.SortFunc(f.s, f.order)
	return f.s
}

func (f *firstK[T]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if f.order(f.s[i], f.s[parent]) <= 0 {
			return
		}
		f.s[i], f.s[parent] = f.s[parent], f.s[i]
		i = parent
	}
}

func (f *firstK[T]) down(i int) {
	for {
		last, l := i, 2*i+1
		if l < len(f.s) && f.order(f.s[l], f.s[last]) > 0 {
			last = l
		}
		if r := l + 1; r < len(f.s) && f.order(f.s[r], f.s[last]) > 0 {
			last = r
		}
		if last == i {
			return
		}
		f.s[i], f.s[last] = f.s[last], f.s[i]
		i = last
	}
}

// cmpNewest orders the most recently changed item first, then by id
// (numerically: ids are decimal).
func cmpNewest(a, b *Item) int {
	if c := b.ModifiedAt.Compare(a.ModifiedAt); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.ID), len(b.ID)); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}
