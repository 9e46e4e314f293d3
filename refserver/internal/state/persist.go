package state

import "sync"

// Persister holds the marks of a persisted state: the records changed
// and the blobs to delete since the last commit (internal/persist writes
// them), and the numbers of the group commit.
type Persister struct {
	Mu    sync.Mutex // guards the fields below
	Dirty map[DirtyKey]struct{}
	Blobs []string // blobs to delete once the state without them is committed

	// Group commit (persist.DB.Await): every mark (and queued blob delete)
	// takes the next number of marked; committed is the highest number a
	// commit has covered. A request waits until committed reaches the
	// marked it saw, and at most one waiter at a time (flushing) commits
	// for every request waiting, so concurrent requests share one frame
	// of the commit log. CommittedCond (on Mu) is signalled when Committed moves
	// or a flush ends.
	Marked, Committed uint64
	Flushing          bool
	CommittedCond     *sync.Cond

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

	Load LoadScratch // used while loading only
}

// LoadScratch is what loading keeps between kinds.
type LoadScratch struct {
	TemplateOrder []string         // template ids in listing order (KMetadata)
	Purged        map[string]*Item // purged files that governance records keep, by id
	// Versions are the version records read so far, by file and position
	// (KVersions; its Done puts them in their files).
	Versions map[*Item]map[int]*Version
}

// DirtyKey names one record: its kind and its key.
type DirtyKey struct {
	Kind KindID
	Key  string
}

// Dirty marks the record (kind, key) as changed: the end of the request
// writes it, or deletes it when the object is gone. Callers hold the lock
// that guards the object (Mu, or refserver's oauth room lock for the oauth
// kinds).
func (s *State) Dirty(kind KindID, key string) {
	if s.Persist != nil { // inlined: without DataDir a mark is this check
		s.Persist.mark(kind, key)
	}
}

// dropWhere deletes the records of m that match, marking each one
// (s.Dirty(kind, key)). Callers hold the lock that guards m.
func dropWhere[V any](s *State, kind KindID, m map[string]V, match func(V) bool) {
	for k, v := range m {
		if match(v) {
			delete(m, k)
			s.Dirty(kind, k)
		}
	}
}

func (p *Persister) mark(kind KindID, key string) {
	dk := DirtyKey{kind, key}
	p.Mu.Lock()
	p.Dirty[dk] = struct{}{}
	p.Marked++
	if p.pending == nil {
		p.pending = map[DirtyKey]uint64{}
	}
	p.pending[dk] = p.Marked
	p.kindMark[kind] = p.Marked
	p.Mu.Unlock()
}

// persistItemPurged marks the governance records of a purged file: from
// now on they keep a copy of it (internal/persist's EncodeFileRef).
func (s *State) persistItemPurged(it *Item) {
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

// dirtyItem marks the records of items (nil ones are skipped: the root).
func (s *State) dirtyItem(its ...*Item) {
	if s.Persist == nil {
		return
	}
	for _, it := range its {
		if it != nil {
			s.Dirty(KItems, it.ID)
		}
	}
}
