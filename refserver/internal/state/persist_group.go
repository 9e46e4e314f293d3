package state

// commitWaiter is work to run once the marks up to mark are committed.
type commitWaiter struct {
	mark uint64
	run  func()
}

// WhenCommitted runs fn once every mark numbered up to mark is committed:
// at once when they are, else in the goroutine of the commit that covers
// them, outside p.mu (a transaction's outbox, State.release). A failed
// commit runs nothing: its marks wait for the next one, and fn with them.
func (p *Persister) WhenCommitted(mark uint64, fn func()) {
	p.mu.Lock()
	if p.committed >= mark {
		p.mu.Unlock()
		fn()
		return
	}
	p.waiters = append(p.waiters, commitWaiter{mark, fn})
	p.mu.Unlock()
}

// takeReady removes and returns the waiters whose marks are committed. It
// runs under p.mu, which its callers take; they run the waiters after
// releasing it.
func (p *Persister) takeReady() []commitWaiter {
	var ready []commitWaiter
	kept := p.waiters[:0]
	for _, w := range p.waiters {
		if w.mark <= p.committed {
			ready = append(ready, w)
		} else {
			kept = append(kept, w)
		}
	}
	clear(p.waiters[len(kept):])
	p.waiters = kept
	return ready
}

func runWaiters(ws []commitWaiter) {
	for _, w := range ws {
		w.run()
	}
}

// setCommitted records that every mark numbered up to n is committed and
// wakes the requests waiting for it. It runs under p.mu, which its callers take.
func (p *Persister) setCommitted(n uint64) {
	if n > p.committed {
		p.committed = n
		p.committedCond.Broadcast()
		for f, seq := range p.listPending {
			if seq <= n {
				delete(p.listPending, f)
			}
		}
	}
}

// ListingChanged notes that the listing of folder changed (an item filed
// in or out of it, or under new keys): a listing read now waits for the
// commit of the marks made so far. It is called in a transaction.
func (p *Persister) ListingChanged(folder string) {
	if p.restoring {
		return
	}
	p.mu.Lock()
	if p.listDirty == nil {
		p.listDirty = map[string]struct{}{}
	}
	p.listDirty[folder] = struct{}{}
	p.mu.Unlock()
}

// takeListings hands the listing changes noted so far to the commit that
// takes the marks numbered up to n (in a transaction, as it takes them):
// every change of those listings was made by a transaction whose marks it
// takes. It runs under p.mu, which its callers take.
func (p *Persister) takeListings(n uint64) {
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
// (setCommitted) and forgets them as pending, unless marked again since;
// then it runs the outboxes those marks release (WhenCommitted).
func (p *Persister) Settle(dirty map[DirtyKey]struct{}, n uint64) {
	p.mu.Lock()
	for dk := range dirty {
		if p.pending[dk] <= n {
			delete(p.pending, dk)
		}
	}
	p.setCommitted(n)
	ready := p.takeReady()
	p.recycle(dirty)
	p.mu.Unlock()
	runWaiters(ready)
}

// recycle keeps the map of a commit's marks (Take), emptied, for the marks
// of a later one: the marks of a commit no longer grow a new map from
// nothing (a busy commit carries tens of them). It runs under p.mu, which
// its callers take; the commit does not use dirty again.
func (p *Persister) recycle(dirty map[DirtyKey]struct{}) {
	if len(dirty) > maxSpareDirty {
		return // one large commit (a restore's) does not keep its map
	}
	clear(dirty)
	p.spareDirty = dirty
}

// maxSpareDirty bounds the map recycle keeps.
const maxSpareDirty = 4096

// CommitIfIdle reports whether nothing is marked nor queued; then every
// mark so far is committed (no flush is under way, and a failed one puts
// its marks back), which it records.
func (p *Persister) CommitIfIdle() bool {
	p.mu.Lock()
	idle := len(p.dirty) == 0 && len(p.blobs) == 0
	var ready []commitWaiter
	if idle {
		p.setCommitted(p.marked)
		ready = p.takeReady()
	}
	p.mu.Unlock()
	runWaiters(ready)
	return idle
}

// Take hands the marks and queued blob deletes so far to a commit, with
// the number of the last mark they cover; it runs in a transaction (a
// View), so that every change it takes is whole.
func (p *Persister) Take() (dirty map[DirtyKey]struct{}, blobs []string, taken uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	dirty, blobs, taken = p.dirty, p.blobs, p.marked
	p.dirty, p.blobs = p.spareDirty, nil
	if p.dirty == nil {
		p.dirty = map[DirtyKey]struct{}{}
	}
	p.spareDirty = nil
	p.takeListings(taken)
	return dirty, blobs, taken
}

// PutBack returns the marks and blob deletes of a failed commit (Take).
func (p *Persister) PutBack(dirty map[DirtyKey]struct{}, blobs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for dk := range dirty {
		p.dirty[dk] = struct{}{}
	}
	p.recycle(dirty)
	p.blobs = append(p.blobs, blobs...)
}

// QueueBlobs queues the deletion of blobs for the next commit, as a mark.
func (p *Persister) QueueBlobs(ids []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blobs = append(p.blobs, ids...)
	p.marked++
}

// Pending reports whether a record is marked and not taken by a commit.
func (p *Persister) Pending() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.dirty) > 0
}

// Marked is the number of the last mark made.
func (p *Persister) Marked() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.marked
}

// Committed is the number of the last mark committed.
func (p *Persister) Committed() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.committed
}

// AwaitCommitted returns once every mark numbered up to want is committed:
// when no other waiter is committing, this one runs flush (which commits
// every mark so far) for itself and every request waiting, while the
// others sleep; a waiter left behind by a failed flush takes over. It
// returns the error of a flush it ran.
func (p *Persister) AwaitCommitted(want uint64, flush func() error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.committed < want {
		if p.flushing {
			p.committedCond.Wait()
			continue
		}
		p.flushing = true
		p.mu.Unlock()
		err := flush()
		p.mu.Lock()
		p.flushing = false
		p.committedCond.Broadcast() // a waiter left behind takes over
		if err != nil {
			return err
		}
	}
	return nil
}

// Forget drops every mark as already stored (what loading a state marked).
func (p *Persister) Forget() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dirty = map[DirtyKey]struct{}{}
	p.pending, p.listDirty, p.listPending = nil, nil, nil
}

// MarkCount is the number of marks made so far (0 without persistence):
// a transaction notes it when it starts, for ItemReadWait.
func (s *ReadTx) MarkCount() uint64 {
	p := s.Persist
	if p == nil {
		return 0
	}
	return p.Marked()
}

// ItemReadWait is the mark that the answer of a read of item id of type
// typ (a file
// got or downloaded by id, without a shared link) must see committed
// before it is sent (persist.DB.AwaitMark), for a transaction that began
// at mark m0 (MarkCount) and has just ended. Such an answer shows the item
// and its ancestors (path, access, trash, shared links: their records) and
// may depend on any record of another kind (collaborations, users, groups,
// tokens...), but shows no event, no recent item and not the server's
// next id. So it waits
// for the pending marks of the item and its ancestors (a version's mark
// comes with its file's, changeVersion), of every kind but items, versions,
// events and the server's own record, and for the marks of its own
// transaction but its events (a download's own event is committed with a
// later commit: the answer does not show it). Other requests' changes to
// other items do not hold it. 0 without persistence.
func (s *Tx) ItemReadWait(m0 uint64, typ, id string) uint64 {
	p := s.Persist
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return s.itemReadWait(m0, typ, id)
}

// ListingReadWait is ItemReadWait for a page of a folder's listing with
// mini entries (GET /folders/{id}/items without fields or a shared link):
// it waits for what ItemReadWait(folder) does, for the pending marks of
// every item in the page's window (entries, shown or left out), and for
// the commit of the last change of the folder's listing (an item filed in
// or out of it, or under new keys: its count, its order, the window).
// Entries show only their own records (mini: id, name, etag, version,
// sha1).
func (s *Tx) ListingReadWait(m0 uint64, folder string, window []string) uint64 {
	p := s.Persist
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	want := s.itemReadWait(m0, "folder", folder)
	if _, changed := p.listDirty[folder]; changed {
		want = max(want, p.marked) // the marks of the change are among these
	}
	want = max(want, p.listPending[folder])
	for _, ref := range window { // references are the items' record keys
		want = max(want, p.pending[DirtyKey{KItems, ref}])
	}
	return want
}

// itemReadWait is ItemReadWait. It runs under p.mu, which its callers take.
func (s *Tx) itemReadWait(m0 uint64, typ, id string) uint64 {
	p := s.Persist
	var want uint64
	for k, seq := range p.kindMark {
		switch KindID(k) {
		case KEvents, KRecentItems: // shown by no item's answer (a download's own recent item, like its event, commits later)
		case KItems, KVersions, KMeta: // a version is marked with its file (changeVersion)
			if seq > m0 { // this transaction's own
				want = max(want, seq)
			}
		default:
			want = max(want, seq)
		}
	}
	for guard := s.Items.Len() + 1; id != "" && guard > 0; guard-- { // a chain ends at the root
		want = max(want, p.pending[DirtyKey{KItems, s.Items.RecordKey(typ, id)}])
		it, ok := s.Items.Get(typ, id)
		if !ok {
			break
		}
		typ, id = "folder", it.ParentID
	}
	return want
}
