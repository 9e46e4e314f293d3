package state

import "sync"

// Persister holds the marks of a persisted state: the records changed
// and the blobs to delete since the last commit (internal/persist writes
// them), and the numbers of the group commit. Its lock (mu) is its own,
// taken after the state's (see State for the lock order); every method
// takes it.
type Persister struct {
	mu    sync.Mutex // guards the fields below but Load
	dirty map[DirtyKey]struct{}
	// spareDirty is the emptied map of a settled commit's marks, the next
	// dirty once Take hands the current one over (recycle).
	spareDirty map[DirtyKey]struct{}
	blobs      []string // blobs to delete once the state without them is committed

	// Group commit (internal/persist's DB.Await): every mark (and queued
	// blob delete) takes the next number of marked; committed is the
	// highest number a commit has covered. A request waits until committed
	// reaches the marked it saw, and at most one waiter at a time
	// (flushing) commits for every request waiting, so concurrent requests
	// share one frame of the commit log. committedCond (on mu) is
	// signalled when committed moves or a flush ends.
	marked, committed uint64
	flushing          bool
	committedCond     *sync.Cond

	// pending is the number of the last mark of each record marked and
	// not committed yet (Settle forgets it); kindMark the number of the
	// last mark of each kind. They tell a read what it may have seen
	// (ItemReadWait).
	pending  map[DirtyKey]uint64
	kindMark [NumKinds]uint64
	// listDirty are the folders whose listings changed since the last
	// commit took its marks; listPending the number of marks the commit
	// that took a folder's last change covers, until it is committed
	// (ListingReadWait).
	listDirty   map[string]struct{}
	listPending map[string]uint64
	// waiters are the outboxes waiting for their marks to be committed
	// (WhenCommitted).
	waiters []commitWaiter

	Load LoadScratch // used while loading only, in its transaction

	// restoring: a load is under way, whose marks Forget drops once it
	// ends; they are not made (Restoring). Set and read in transactions.
	restoring bool
}

// Restoring turns the marks off (on) while a load restores the stored
// state, or back on: what loading would mark is stored already (and
// Forget drops it anyway), and a million marks cost a restart time and
// garbage. Call it in the loading transaction.
func (p *Persister) Restoring(on bool) { p.restoring = on }

// NewPersister returns the marks of a state about to be loaded or written
// whole (internal/persist's Open).
func NewPersister() *Persister {
	p := &Persister{dirty: map[DirtyKey]struct{}{}, Load: LoadScratch{Purged: map[string]*Item{}}}
	p.committedCond = sync.NewCond(&p.mu)
	return p
}

// LoadScratch is what loading keeps between kinds.
type LoadScratch struct {
	TemplateOrder []string         // template ids in listing order (KMetadata)
	Purged        map[string]*Item // purged files that governance records keep, by id
	// Versions are the version records read so far, in key order (a
	// file's together; KVersions' Done puts them in their files).
	Versions []LoadedVersion
	// Items are the items read, in key order (their memory's order: a
	// walk over them is cheaper than one over the table).
	Items []*Item
	// NextFile is where in Items the search for the file of the next
	// version record starts (internal/persist's LoadVersion): versions
	// come in their files' order, so the file is mostly the item there.
	NextFile int
	// Obsolete are stored records the load left out (events beyond the
	// history, when it was made shorter): marked once the load is over,
	// so that the next commit deletes them (marks made while restoring
	// are dropped).
	Obsolete []DirtyKey
}

// LoadedVersion is a version record read: its file, the position its key
// names, the version.
type LoadedVersion struct {
	File *Item
	Pos  int
	V    *Version
}

// DirtyKey names one record: its kind and its key.
type DirtyKey struct {
	Kind KindID
	Key  string
}

// Dirty marks the record (kind, key) as changed: the end of the request
// writes it, or deletes it when the object is gone. (The oauth room's
// records are marked with MarkOAuth.)
func (s *Tx) Dirty(kind KindID, key string) {
	if s.Persist != nil { // inlined: without DataDir a mark is this check
		s.Persist.mark(kind, key)
	}
}

// MarkOAuth marks a record of the oauth room (refserver's Server.oauth),
// which the room's own lock guards, not the state's: its mutators call it
// under that lock. Hand mark: the oauth room (internal/oauth, generic over
// the server's subject type, importing nothing of the state) keeps its
// records in tables of its own, whose writes mark through this hook.
func (e *Env) MarkOAuth(kind KindID, key string) {
	if e.Persist != nil {
		e.Persist.mark(kind, key)
	}
}

func (p *Persister) mark(kind KindID, key string) {
	if p.restoring {
		return
	}
	dk := DirtyKey{kind, key}
	p.mu.Lock()
	p.dirty[dk] = struct{}{}
	p.marked++
	if p.pending == nil {
		p.pending = map[DirtyKey]uint64{}
	}
	p.pending[dk] = p.marked
	p.kindMark[kind] = p.marked
	p.mu.Unlock()
}

// persistItemPurged marks the governance records of a purged file: from
// now on they keep a copy of it (internal/persist's EncodeFileRef). Hand
// mark: the records do not change, their encoding does.
func (s *Tx) persistItemPurged(it *Item) {
	if s.Persist == nil {
		return
	}
	for _, v := range it.Versions {
		if fvr, ok := s.Retention.ByVersion[v.ID]; ok {
			s.Dirty(KRetVersions, fvr.ID)
		}
		if h, ok := s.Holds.ByVersion[v.ID]; ok {
			s.Dirty(KHoldVersions, h.ID)
		}
	}
}
