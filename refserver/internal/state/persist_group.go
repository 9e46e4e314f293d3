package state

// SetCommitted records that every mark numbered up to n is committed and
// wakes the requests waiting for it. Callers hold p.Mu.
func (p *Persister) SetCommitted(n uint64) {
	if n > p.Committed {
		p.Committed = n
		p.CommittedCond.Broadcast()
		for f, seq := range p.listPending {
			if seq <= n {
				delete(p.listPending, f)
			}
		}
	}
}

// ListingChanged notes that the listing of folder changed (an item filed
// in or out of it, or under new keys): a listing read now waits for the
// commit of the marks made so far. Callers hold the State's Mu.
func (p *Persister) ListingChanged(folder string) {
	p.Mu.Lock()
	if p.listDirty == nil {
		p.listDirty = map[string]struct{}{}
	}
	p.listDirty[folder] = struct{}{}
	p.Mu.Unlock()
}

// TakeListings hands the listing changes noted so far to the commit that
// takes the marks numbered up to n (under the State's Mu, as it takes
// them): every change of those listings was made by a transaction whose
// marks it takes. Callers hold p.Mu.
func (p *Persister) TakeListings(n uint64) {
	if len(p.listDirty) == 0 {
		return
	}
	if p.listPending == nil {
		p.listPending = map[string]uint64{}
	}
	for f := range p.listDirty {
		p.listPending[f] = n
	}
	clear(p.listDirty)
}

// Settle records that the marks of dirty, numbered up to n, are committed
// (SetCommitted) and forgets them as pending, unless marked again since.
// Callers hold p.Mu.
func (p *Persister) Settle(dirty map[DirtyKey]struct{}, n uint64) {
	for dk := range dirty {
		if p.pending[dk] <= n {
			delete(p.pending, dk)
		}
	}
	p.SetCommitted(n)
}

// Forget drops every mark as already stored (what loading a state marked).
// Callers hold p.Mu.
func (p *Persister) Forget() {
	p.Dirty = map[DirtyKey]struct{}{}
	p.pending, p.listDirty, p.listPending = nil, nil, nil
}

// MarkCount is the number of marks made so far (0 without persistence):
// a transaction notes it when it starts, for ItemReadWait. Callers hold Mu.
func (s *State) MarkCount() uint64 {
	p := s.Persist
	if p == nil {
		return 0
	}
	p.Mu.Lock()
	defer p.Mu.Unlock()
	return p.Marked
}

// ItemReadWait is the mark that the answer of a read of item id (a file
// got or downloaded by id, without a shared link) must see committed
// before it is sent (persist.DB.AwaitMark), for a transaction that began
// at mark m0 (MarkCount) and has just ended. Such an answer shows the item
// and its ancestors (path, access, trash, shared links: their records) and
// may depend on any record of another kind (collaborations, users, groups,
// tokens...), but shows no event and not the server's next id. So it waits
// for the pending marks of the item and its ancestors (a version's mark
// comes with its file's, dirtyVersion), of every kind but items, versions,
// events and the server's own record, and for the marks of its own
// transaction but its events (a download's own event is committed with a
// later commit: the answer does not show it). Other requests' changes to
// other items do not hold it. 0 without persistence. Callers hold Mu.
func (s *State) ItemReadWait(m0 uint64, id string) uint64 {
	p := s.Persist
	if p == nil {
		return 0
	}
	p.Mu.Lock()
	defer p.Mu.Unlock()
	return s.itemReadWait(m0, id)
}

// ListingReadWait is ItemReadWait for a page of a folder's listing with
// mini entries (GET /folders/{id}/items without fields or a shared link):
// it waits for what ItemReadWait(folder) does, for the pending marks of
// every item in the page's window (entries, shown or left out), and for
// the commit of the last change of the folder's listing (an item filed in
// or out of it, or under new keys: its count, its order, the window).
// Entries show only their own records (mini: id, name, etag, version,
// sha1). Callers hold Mu.
func (s *State) ListingReadWait(m0 uint64, folder string, window []string) uint64 {
	p := s.Persist
	if p == nil {
		return 0
	}
	p.Mu.Lock()
	defer p.Mu.Unlock()
	want := s.itemReadWait(m0, folder)
	if _, changed := p.listDirty[folder]; changed {
		want = max(want, p.Marked) // the marks of the change are among these
	}
	want = max(want, p.listPending[folder])
	for _, id := range window {
		want = max(want, p.pending[DirtyKey{KItems, id}])
	}
	return want
}

// itemReadWait is ItemReadWait. Callers hold Mu and p.Mu.
func (s *State) itemReadWait(m0 uint64, id string) uint64 {
	p := s.Persist
	var want uint64
	for k, seq := range p.kindMark {
		switch KindID(k) {
		case KEvents:
		case KItems, KVersions, KMeta: // a version is marked with its file (dirtyVersion)
			if seq > m0 { // this transaction's own
				want = max(want, seq)
			}
		default:
			want = max(want, seq)
		}
	}
	for guard := len(s.Items) + 1; id != "" && guard > 0; guard-- { // a chain ends at the root
		want = max(want, p.pending[DirtyKey{KItems, id}])
		it, ok := s.Items[id]
		if !ok {
			break
		}
		id = it.ParentID
	}
	return want
}
