package state

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"
)

// The search indexer keeps the search index (search_index.go) up to date
// off the state's lock. A change queues its item (searchQueue.add, within
// the change's transaction) and wakes the indexer's goroutine, which the
// server starts (StartSearchIndexer) and stops and waits for
// (StopSearchIndexer). The goroutine runs while the queue holds changes
// ready to index and ends when it is empty, so an idle server has none.
// It drains the queue a batch at a time (indexBatch):
//
//  1. in a read transaction (View), it takes the first changes of the
//     queue and copies their items' texts (textsOf): the state's lock is
//     held for a few microseconds per item;
//  2. with no lock held, it reads the content of text files from the
//     store and cuts every text into words and pairs (newDoc);
//  3. under the index's lock (searchIndex.mu, for writing), it puts the
//     batch into the index and takes from the queue the changes it
//     indexed (apply). An item changed again meanwhile stays queued.
//
// A search (State.Search: CatchUpSearch, then SearchAt and Tx.SearchTx)
// first drains, itself, every change queued before it began, so it finds
// what was committed before it (read-your-writes); it waits at most for
// the batch the indexer is on. It then evaluates the query under the
// index's read lock, before it takes the state's, and, in its
// transaction, drops the hits whose item is gone, or changed after it
// began (their index entry may be stale), applies the access model and
// orders the page. With the index delay, a change not ready yet stays
// queued (the indexer leaves it to a later search or wake-up) and the
// index answers with what it held before.

// searchBatch is how many items the indexer takes at once: the state's
// lock is held to copy their texts and the index's to put them in, a
// fraction of a millisecond each.
const searchBatch = 256

// searchQueue is the changes of items not indexed yet, in the order they
// were made. Its lock (mu) is the last of the search index's: changed
// and a search take it within a transaction, the indexer with the
// index's lock.
type searchQueue struct {
	mu sync.Mutex
	// seq numbers the changes: the last one queued.
	seq uint64
	// latest is the number of the last change of each item queued and
	// not indexed yet.
	latest map[*Item]uint64
	// fifo is the changes from head on, oldest first; one older than its
	// item's latest change is skipped.
	fifo []queuedChange
	head int
}

// queuedChange is one change of an item in the queue: its number, and
// when it may be indexed (zero: at once).
type queuedChange struct {
	it  *Item
	seq uint64
	at  time.Time
}

// add queues a change of it, to index from at on.
func (q *searchQueue) add(it *Item, at time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.seq++
	q.latest[it] = q.seq
	q.fifo = append(q.fifo, queuedChange{it, q.seq, at})
}

// Expect makes room in the queue for n more changes at once: a load
// queues every item it restores, and the queue's map grown one change at
// a time was a tenth of a restart's CPU at a million items.
func (x *searchIndex) Expect(n int) {
	q := &x.queue
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.latest) == 0 {
		q.latest = make(map[*Item]uint64, n)
	}
	q.fifo = slices.Grow(q.fifo, n)
}

// last is the number of the last change queued.
func (q *searchQueue) last() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.seq
}

// peek returns up to n changes to index, oldest first, and where the
// queue goes on after them: the changes numbered up to limit that are
// ready at now. It stops at the first change not ready (the changes of
// the index delay are ready in the order they were made). The changes
// stay queued until commit.
func (q *searchQueue) peek(limit uint64, now time.Time, n int) ([]queuedChange, int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []queuedChange
	i := q.head
	for ; i < len(q.fifo) && len(out) < n; i++ {
		c := q.fifo[i]
		if q.latest[c.it] != c.seq {
			continue // changed again later, or indexed
		}
		if c.seq > limit || !c.at.IsZero() && now.Before(c.at) {
			break
		}
		out = append(out, c)
	}
	return out, i
}

// commit takes from the queue the changes peek returned, now indexed,
// and those before next: an item changed again since stays queued.
func (q *searchQueue) commit(done []queuedChange, next int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, c := range done {
		if q.latest[c.it] == c.seq {
			delete(q.latest, c.it)
		}
	}
	clear(q.fifo[q.head:next]) // let the items go
	q.head = next
	if q.head == len(q.fifo) {
		q.fifo, q.head = q.fifo[:0], 0
		if cap(q.fifo) > keptQueue && len(q.latest) == 0 {
			// Empty after a load's million changes: the slice and the
			// map (which never shrinks) held ~80 bytes per item.
			q.fifo, q.latest = nil, make(map[*Item]uint64)
		}
	} else if q.head > 1024 && q.head > len(q.fifo)/2 {
		q.fifo = append(q.fifo[:0], q.fifo[q.head:]...)
		clear(q.fifo[len(q.fifo):cap(q.fifo)])
		q.head = 0
	}
}

// keptQueue is the largest capacity an empty queue keeps.
const keptQueue = 4096

// queued reports whether a change is queued.
func (q *searchQueue) queued() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.latest) > 0
}

// searchIndexer runs the goroutine that drains the search index's queue
// (see above); it is the State's, not the model's, as it works outside
// the state's lock.
type searchIndexer struct {
	// drainMu is held while one batch is drained, by the goroutine or by
	// a search catching up: batches are put in the order they are taken.
	// It comes before the state's lock.
	drainMu sync.Mutex
	// scratch is the buffer a drain reads content through: one for every
	// batch (drainMu), not 64 KiB of garbage per batch, which was a tenth
	// of a persisted server's allocations under the load benchmark.
	scratch []byte

	background
	ctx    context.Context // ends with StopSearchIndexer
	cancel context.CancelFunc
}

// StartSearchIndexer lets the indexer's goroutine run whenever changes
// are queued, and starts it for those queued already (the items of a
// restored state, say). Without it, searches index what they need
// themselves.
func (s *State) StartSearchIndexer() {
	s.indexer.enable()
	s.View(func(tx *ReadTx) {
		if tx.Search != nil && tx.Search.queue.queued() {
			s.kickIndexer()
		}
	})
}

// StopSearchIndexer stops the indexer's goroutine and waits for it to
// end: a batch in flight is dropped (its changes stay queued). Searches
// still index what they need. Safe to call more than once.
func (s *State) StopSearchIndexer() {
	ix := &s.indexer
	ix.stop()
	ix.cancel()
	ix.wait()
}

// kickIndexer starts the indexer's goroutine unless it runs, is not
// started, or is stopped. It is called within a transaction (changed).
func (s *State) kickIndexer() { s.indexer.kick(s.runIndexer) }

// runIndexer drains the queue a batch at a time until nothing is ready
// to index or the indexer stops.
func (s *State) runIndexer() {
	for {
		d, end := s.drainTurn()
		done, err := d.indexBatch(s.indexer.ctx, math.MaxUint64, true)
		end()
		if err != nil { // stopped
			s.indexer.idle()
			return
		}
		if done {
			return
		}
	}
}

// CatchUpSearch indexes every change queued before it is called and ready
// to index, with no lock of the state held but in short turns (those the
// indexer's goroutine has not indexed yet; it waits for the batch the
// goroutine is on). It returns the number of the last change it covers,
// for SearchAt: an item changed after it may be indexed as it was. An
// error is ctx's: the changes not indexed stay queued.
func (s *State) CatchUpSearch(ctx context.Context) (uint64, error) {
	var mark uint64
	s.View(func(tx *ReadTx) { mark = tx.Search.queue.last() })
	d, end := s.drainTurn()
	defer end()
	for {
		done, err := d.indexBatch(ctx, mark, false)
		if err != nil || done {
			return mark, err
		}
	}
}

// drain is the turn of the one drainer of the queue, the goroutine or a
// search catching up: it holds the indexer's drain lock (drainMu) from
// drainTurn until its end is called, so that batches are put in the
// order they are taken. Draining is its method, so it cannot run without
// the lock.
type drain struct{ *State }

// drainTurn waits for the drain lock and returns the turn, with the
// function that ends it.
func (s *State) drainTurn() (drain, func()) {
	s.indexer.drainMu.Lock()
	return drain{s}, s.indexer.drainMu.Unlock
}

// indexBatch indexes the next batch of the changes numbered up to limit
// that are ready, and reports done when there was none. The indexer's
// goroutine (worker) marks itself idle then, within the same transaction
// as the queue was found empty, so that a change queued later starts it
// again. An error is ctx's: the batch's changes stay queued.
func (s drain) indexBatch(ctx context.Context, limit uint64, worker bool) (done bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err // a stop (the store may read without looking at ctx)
	}
	var x *searchIndex
	var batch []queuedChange
	var next int
	var texts []searchTexts
	var gone []bool
	s.View(func(tx *ReadTx) {
		x = tx.Search
		batch, next = x.queue.peek(limit, tx.Now(), searchBatch)
		if len(batch) == 0 {
			if worker {
				s.indexer.idle()
			}
			return
		}
		texts, gone = make([]searchTexts, len(batch)), make([]bool, len(batch))
		for i, c := range batch {
			if tx.Items.At(c.it.Typ, c.it.ID) != c.it {
				gone[i] = true
				continue
			}
			texts[i] = tx.textsOf(c.it)
		}
	})
	if len(batch) == 0 {
		return true, nil
	}
	if s.indexer.scratch == nil {
		s.indexer.scratch = make([]byte, 64<<10)
	}
	scratch := s.indexer.scratch
	content := func(blobID string, sc *docScratch) error {
		return x.contentWords(ctx, s.Env, blobID, scratch, sc)
	}
	sc := docScratches.Get().(*docScratch)
	defer docScratches.Put(sc)
	docs := make([]*docDraft, len(batch))
	for i, c := range batch {
		if gone[i] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		// Only a drain (drainMu) writes docs: reading it needs the
		// index's read lock against none but the race detector's view.
		x.mu.RLock()
		old := x.doc(c.it)
		x.mu.RUnlock()
		if docs[i], err = x.newDoc(c.it, &texts[i], old, content, sc); err != nil {
			return false, err
		}
	}
	x.apply(batch, next, docs)
	return false, nil
}

// apply puts the documents of a batch into the index (nil: the item is
// gone) and takes the batch's changes from the queue, under the index's
// lock.
func (x *searchIndex) apply(batch []queuedChange, next int, docs []*docDraft) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, c := range batch {
		if docs[i] == nil {
			x.drop(c.it)
		} else {
			x.put(c.it, docs[i])
		}
	}
	x.queue.commit(batch, next)
}
