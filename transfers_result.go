package cms

import (
	"iter"
	"slices"
	"strings"
)

// TreeOutcome is what a tree transfer did with one path (TreeEntry).
type TreeOutcome string

// The outcomes of a path in a TreeResult.
const (
	// OutcomeCreated: a new file was uploaded (or written locally), or a
	// folder (or local directory) was made.
	OutcomeCreated TreeOutcome = "created"
	// OutcomeUpdated: a changed file became a new version (upload) or
	// replaced the local file (download).
	OutcomeUpdated TreeOutcome = "updated"
	// OutcomeRenamed: the remote item's name differed from the local one
	// by case only and was renamed to the local case; its content was the
	// same (a rename whose content also differed is OutcomeUpdated with
	// RenamedFrom set).
	OutcomeRenamed TreeOutcome = "renamed"
	// OutcomeUnchanged: the file's SHA-1 already matched (nothing sent), or
	// the folder already existed.
	OutcomeUnchanged TreeOutcome = "skipped-unchanged"
	// OutcomeSymlink: a symbolic link inside the tree, not followed
	// (TreeOptions.FollowSymlinks follows); Err is ErrSymlinkSkipped. Not
	// a failure.
	OutcomeSymlink TreeOutcome = "skipped-symlink"
	// OutcomeDeleted: Mirror moved the remote item to the trash (upload) or
	// removed the local one (download).
	OutcomeDeleted TreeOutcome = "deleted"
	// OutcomeFailed: the path failed; Err says why (also in Failures).
	OutcomeFailed TreeOutcome = "failed"
)

// TreeEntry is one path of a tree transfer and what was done with it.
type TreeEntry struct {
	// Path is relative to the tree's root, with "/" separators, in the
	// source's spelling: the local names on upload, the service's on
	// download (and for remote items deleted by Mirror).
	Path string
	// Type is ItemTypeFile or ItemTypeFolder ("" for a path that was never
	// matched to either, such as a skipped symlink or a special file).
	Type ItemType
	// ID is the remote file's or folder's id when it is known: the new
	// file's id after an upload, the existing one's otherwise ("" when the
	// path failed before any remote item was found or made).
	ID string
	// Outcome is what was done.
	Outcome TreeOutcome
	// Size is a file's size in bytes (0 for folders).
	Size int64
	// RenamedFrom is the remote name before a case-only rename to the
	// local name ("" when there was none).
	RenamedFrom string
	// Err is why the path failed (OutcomeFailed) or was skipped
	// (OutcomeSymlink); nil otherwise.
	Err error
}

// Entry returns the entry of a path (relative, "/"-separated, as in
// Entries), or ok false.
func (r *TreeResult) Entry(path string) (TreeEntry, bool) {
	i, ok := slices.BinarySearchFunc(r.Entries, path, func(e TreeEntry, p string) int { return strings.Compare(e.Path, p) })
	if !ok {
		return TreeEntry{}, false
	}
	return r.Entries[i], true
}

// All yields every entry by path, in path order (parents before what is
// inside them).
func (r *TreeResult) All() iter.Seq2[string, TreeEntry] {
	return func(yield func(string, TreeEntry) bool) {
		for _, e := range r.Entries {
			if !yield(e.Path, e) {
				return
			}
		}
	}
}

// entry returns the run's entry of p, made when missing. Callers hold t.mu.
func (t *treeRun) entry(p string) *TreeEntry {
	e := t.entries[p]
	if e == nil {
		e = &TreeEntry{Path: p}
		t.entries[p] = e
	}
	return e
}

// record sets what was done with p; fn changes its entry. It takes t.mu.
func (t *treeRun) record(p string, fn func(e *TreeEntry)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fn(t.entry(p))
}

// sortedEntries are the run's entries by path. Callers hold t.mu.
func (t *treeRun) sortedEntries() []TreeEntry {
	out := make([]TreeEntry, 0, len(t.entries))
	for _, e := range t.entries {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b TreeEntry) int { return strings.Compare(a.Path, b.Path) })
	return out
}
