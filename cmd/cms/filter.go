package main

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// filter is --exclude and --include: glob patterns (github.com/bmatcuk/
// doublestar: *, ?, [...], {a,b}, and ** across folders) matched against a
// path relative to the command's root, with "/" separators. A pattern
// without "/" matches a name at any depth (as rsync's do). Exclusion wins;
// with includes, a file must match one of them (folders are always walked
// into, so that their files can match).
type filter struct {
	exclude, include []string
}

// check refuses a malformed pattern.
func (f filter) check() error {
	for _, p := range append(append([]string{}, f.exclude...), f.include...) {
		if !doublestar.ValidatePattern(p) {
			return usagef("bad glob pattern %q", p)
		}
	}
	return nil
}

// active reports whether any pattern is set.
func (f filter) active() bool { return len(f.exclude)+len(f.include) > 0 }

// match reports whether the item at rel passes the filter.
func (f filter) match(rel string, isDir bool) bool {
	if f.excluded(rel) {
		return false
	}
	if isDir || len(f.include) == 0 {
		return true
	}
	for _, p := range f.include {
		if globMatch(p, rel) {
			return true
		}
	}
	return false
}

// treeFilter is the filter as the SDK's TreeOptions.Filter and
// WalkOptions.Filter take it (nil when no pattern is set): a folder left
// out is left out with all it holds, and never listed or read.
func (f filter) treeFilter() func(rel string, isDir bool) bool {
	if !f.active() {
		return nil
	}
	return f.match
}

// excludedDir reports whether a folder and all it holds are excluded.
func (f filter) excludedDir(rel string) bool { return f.excluded(rel) }

// excluded reports whether rel matches an --exclude pattern.
func (f filter) excluded(rel string) bool {
	for _, p := range f.exclude {
		if globMatch(p, rel) {
			return true
		}
	}
	return false
}

func globMatch(pattern, rel string) bool {
	rel = strings.TrimPrefix(rel, "/")
	if !strings.Contains(pattern, "/") {
		rel = path.Base(rel)
	} else {
		pattern = strings.TrimPrefix(pattern, "/")
	}
	ok, _ := doublestar.Match(pattern, rel)
	return ok
}
