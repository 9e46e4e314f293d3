package state

import (
	"cmp"
	"slices"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// scored is a search hit and its relevance.
type scored struct {
	it    *Item
	score int
}

// SearchTx serves GET /search: it finds, orders and renders one page.
// mark is what State.CatchUpSearch returned, before: the index holds
// every change up to it.
func (s *Tx) SearchTx(p *Principal, q *SearchRequest, mark uint64) (Reply, *wire.Error) {
	var ancestors map[string]bool
	for _, id := range q.Ancestors {
		if id != RootID {
			if _, aerr := s.Lookup(p, "folder", id); aerr != nil {
				return Reply{}, aerr
			}
		}
		if ancestors == nil {
			ancestors = map[string]bool{}
		}
		ancestors[id] = true
	}
	var hits map[*Item]int
	if q.Query != nil {
		hits = s.searchHits(q.Query, q.Mask, s.searchGate(p), mark)
	} else if q.HasQuery {
		hits = map[*Item]int{} // only punctuation or operators: nothing to match
	}
	if q.MD != nil {
		hits = s.MatchMDFilter(q.MD, hits)
	}
	list := make([]scored, 0, len(hits))
	for it, sc := range hits {
		if s.SearchKeeps(p, q, it, ancestors) {
			list = append(list, scored{it, sc})
		}
	}
	slices.SortFunc(list, func(a, b scored) int {
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
	})
	total := int64(len(list))
	start := min(q.Page.Offset, total)
	end := min(start+q.Page.Limit, total)
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

// searchHits evaluates a query in the index (EvalFor) and keeps the
// hits the index holds as they are: it drops an item that is gone, or
// changed after mark (indexed as it was before, or not yet). A change
// within the index delay leaves the item as it was indexed, as the delay
// means.
func (s *ReadTx) searchHits(n *SearchNode, mask SearchField, gate FieldGate, mark uint64) map[*Item]int {
	x := s.Search
	x.mu.RLock()
	defer x.mu.RUnlock()
	hits := x.evalFor(n, mask, gate)
	x.queue.mu.Lock()
	defer x.queue.mu.Unlock()
	for it := range hits {
		if x.queue.changedAfter(it, mark) || s.Items.At(it.Typ, it.ID) != it {
			delete(hits, it)
		}
	}
	return hits
}

// searchGate is the fields of each item p's query may match: all of them
// for who may preview it; its name, description and tags only for who
// sees it without preview (an uploader), so that a query cannot probe the
// content or comments word by word.
func (s *ReadTx) searchGate(p *Principal) FieldGate {
	if p.SeesAll() {
		return nil
	}
	memo := map[*Item]SearchField{}
	return func(it *Item) SearchField {
		f, ok := memo[it]
		if !ok {
			f = AllSearchFields
			if !s.Can(p, it, ActPreview) {
				f &^= FieldContent | FieldComments
			}
			memo[it] = f
		}
		return f
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
