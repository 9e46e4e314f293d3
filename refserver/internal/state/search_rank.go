package state

import (
	"cmp"
	"slices"
)

// A search whose caller sees every item (the admin, the app) and that
// filters by nothing but trash_content keeps every hit it may match that
// is not the root and is in the trash or not as asked. It need not read
// each hit's item for that, nor to order them: the index holds, with each
// posting, the item's stamp (ItemStamp: whether it was in the trash and
// its modified_at's second, when indexed), which is the item's now unless
// the queue holds a change of it. rankByStamps counts and orders the hits
// by their stamps and reads only the items of the page and those the
// stamps cannot tell from the page's last (the same score and second):
// at a million items, reading every hit's item (a cache miss or two each)
// was most of a search's time.

// rankableByStamps reports whether q, asked by p, keeps a hit by its stamp
// alone (SearchKeeps reads nothing else of the item then).
func rankableByStamps(p *Principal, q *SearchRequest) bool {
	return p.SeesAll() && q.MD == nil && len(q.Ancestors) == 0 && q.Typ == "" && q.Extensions == nil &&
		q.Created == nil && q.Updated == nil && q.Deleted == nil && q.Size == nil && q.Owners == nil && q.Updaters == nil
}

// stamped is a hit ranked by its stamp.
type stamped struct {
	it    *Item
	score int
	stamp ItemStamp
}

// rankByStamps returns the first offset+limit hits of h in q's order and
// how many hits q keeps, as SearchTx's walk of every hit does, when q is
// rankable by stamps (rankableByStamps); ok is false otherwise. A hit
// whose item has a change queued is judged by the item itself
// (searchHit, SearchKeeps); every other by its stamp, and those of the
// page are checked against their items (ok is false should one differ).
func (s *Tx) rankByStamps(p *Principal, q *SearchRequest, h *SearchHits) (list []scored, total int64, ok bool) {
	if !rankableByStamps(p, q) || h.named != nil {
		return nil, 0, false
	}
	queue := &h.x.queue
	queue.mu.Lock()
	defer queue.mu.Unlock()
	root := s.Items.At("folder", RootID)
	// keep reports whether q keeps a hit, and the stamp to rank it by.
	keep := func(it *Item, hit Hit) (stamped, bool) {
		if _, queued := queue.latest[it]; queued {
			sc, ok := s.searchHit(p, h, it)
			if !ok || !s.SearchKeeps(p, q, it, nil) {
				return stamped{}, false
			}
			return stamped{it, sc, stampOf(it)}, true
		}
		if it == root {
			return stamped{}, false
		}
		switch q.Trash {
		case "non_trashed_only":
			if hit.stamp.trashed() {
				return stamped{}, false
			}
		case "trashed_only":
			if !hit.stamp.trashed() {
				return stamped{}, false
			}
		}
		return stamped{it, hit.Score, hit.stamp}, true
	}
	// coarse is q's order (SearchRequest.order) as far as stamps tell it:
	// a hit before another by q's order is not after it by coarse.
	coarse := func(a, b stamped) int {
		if !q.ByModified {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmp.Compare(b.stamp.sec(), a.stamp.sec())
		}
		if q.Ascending {
			return cmp.Compare(a.stamp.sec(), b.stamp.sec())
		}
		return cmp.Compare(b.stamp.sec(), a.stamp.sec())
	}
	k := int(min(q.Page.Offset+q.Page.Limit, int64(len(h.all))))
	first := newFirstK(k, coarse)
	for it, hit := range h.all {
		if c, kept := keep(it, hit); kept {
			total++
			first.add(c)
		}
	}
	if len(first.s) == 0 {
		return nil, total, true
	}
	// The first k by q's order are among those not after the k-th by
	// coarse: those kept, and those tied with the last of them.
	last, full := first.s[0], len(first.s) == k
	for it, hit := range h.all {
		c, kept := keep(it, hit)
		if !kept {
			continue
		}
		if full && coarse(c, last) > 0 {
			continue
		}
		if c.stamp != stampOf(it) {
			return nil, 0, false // a change the queue did not hear of: read every item
		}
		list = append(list, scored{it, c.score})
	}
	slices.SortFunc(list, q.order)
	return list[:min(k, len(list))], total, true
}
