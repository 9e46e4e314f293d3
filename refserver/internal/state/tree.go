package state

import "iter"

// The folder tree: items point up to their parent folder by ParentID, up
// to the root folder "0", which is no item.

// ancestors yields the folders above it, its parent first, up to the root
// folder (not yielded); the walk ends early at a parent that is not an
// item.
func (s *ReadTx) ancestors(it *Item) iter.Seq[*Item] {
	return func(yield func(*Item) bool) {
		for pid := it.ParentID; pid != "" && pid != RootID; {
			f, ok := s.Items.Get("folder", pid)
			if !ok || !yield(f) {
				return
			}
			pid = f.ParentID
		}
	}
}

// IsUnder reports whether it lies somewhere below folder folderID; every
// item lies below the root folder "0".
func (s *ReadTx) IsUnder(it *Item, folderID string) bool {
	if folderID == RootID {
		return true
	}
	for f := range s.ancestors(it) {
		if f.ID == folderID {
			return true
		}
	}
	return false
}
