package refserver

import "iter"

// The folder tree: items point up to their parent folder by parentID, up
// to the root folder "0", which is no item.

// ancestors yields the folders above it, its parent first, up to the root
// folder (not yielded); the walk ends early at a parent that is not an
// item. Callers hold s.mu.
func (s *state) ancestors(it *item) iter.Seq[*item] {
	return func(yield func(*item) bool) {
		for pid := it.parentID; pid != "" && pid != rootID; {
			f, ok := s.items[pid]
			if !ok || !yield(f) {
				return
			}
			pid = f.parentID
		}
	}
}

// isUnder reports whether it lies somewhere below folder folderID; every
// item lies below the root folder "0". Callers hold s.mu.
func (s *state) isUnder(it *item, folderID string) bool {
	if folderID == rootID {
		return true
	}
	for f := range s.ancestors(it) {
		if f.id == folderID {
			return true
		}
	}
	return false
}
