package cms

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// localFile is a regular file of a local tree.
type localFile struct {
	rel, path string
	size      int64
	mtime     time.Time
}

// localListing is a local tree: its directories (parents first) and files,
// by path relative to the root with "/" separators, in name order within a
// directory.
type localListing struct {
	dirs  []string
	files []localFile
	all   map[string]bool // every path met, by foldPath
	left  leftOut         // the paths the Filter left out
}

// has reports whether the tree has p, compared as the service compares
// names (foldPath).
func (l *localListing) has(p string) bool { return l.all[foldPath(p)] }

// localTree lists the directory dir, following dir itself when it is a
// symbolic link (the root the caller names, as os.Stat decides it is a
// directory). Inside, symbolic links are skipped (ErrSymlinkSkipped) or,
// with FollowSymlinks, followed unless they lead to a directory above them
// (ErrSymlinkLoop); special files, names the service refuses and names that
// differ from another by case only (ErrCaseTwin) are failures of t.
func localTree(t *treeRun, dir string) (*localListing, error) {
	l := &localListing{all: map[string]bool{}}
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, invalidArg("dir", "not a directory")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	l.walk(t, root, "", entries, []os.FileInfo{fi})
	return l, nil
}

// walk lists the entries of the directory at abs (rel below the root);
// ancestors are the directories from the root down to it, for loop
// detection.
func (l *localListing) walk(t *treeRun, abs, rel string, entries []os.DirEntry, ancestors []os.FileInfo) {
	entries = l.filter(t, abs, rel, entries)
	twins := caseTwins(entries)
	for _, d := range entries { // os.ReadDir sorts by name
		name := d.Name()
		p, r := filepath.Join(abs, name), joinRel(rel, name)
		l.all[foldPath(r)] = true // present locally, whatever happens to it (Mirror keeps it)
		if others, ok := twins[foldName(name)]; ok {
			t.fail(r, fmt.Errorf("%w: %s", ErrCaseTwin, strings.Join(others, ", ")))
			continue
		}
		if err := checkItemName("name", name); err != nil {
			t.fail(r, err)
			continue
		}
		typ := d.Type()
		if typ&os.ModeSymlink != 0 {
			if !t.opts.FollowSymlinks {
				t.skippedLink(r)
				continue
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.fail(r, err) // a dangling link
				continue
			}
			if fi.IsDir() {
				if containsSameFile(ancestors, fi) {
					t.fail(r, ErrSymlinkLoop)
					continue
				}
				l.dir(t, p, r, append(ancestors, fi))
				continue
			}
			l.file(t, p, r, fi)
			continue
		}
		fi, err := d.Info()
		if err != nil {
			t.fail(r, err)
			continue
		}
		if d.IsDir() {
			l.dir(t, p, r, append(ancestors, fi))
			continue
		}
		l.file(t, p, r, fi)
	}
}

// filter returns the entries of the directory at abs (rel below the root)
// that the Filter keeps, and notes the others as left out. A symbolic link
// that would be followed is a directory when its target is one.
func (l *localListing) filter(t *treeRun, abs, rel string, entries []os.DirEntry) []os.DirEntry {
	if t.opts.Filter == nil {
		return entries
	}
	kept := entries[:0:0]
	for _, d := range entries {
		r := joinRel(rel, d.Name())
		isDir := d.IsDir()
		if d.Type()&os.ModeSymlink != 0 && t.opts.FollowSymlinks {
			if fi, err := os.Stat(filepath.Join(abs, d.Name())); err == nil {
				isDir = fi.IsDir()
			}
		}
		if !t.keep(r, isDir) {
			l.left.add(r)
			continue
		}
		kept = append(kept, d)
	}
	return kept
}

// dir adds the directory at abs and lists it.
func (l *localListing) dir(t *treeRun, abs, rel string, ancestors []os.FileInfo) {
	entries, err := os.ReadDir(abs)
	if err != nil {
		t.fail(rel, err) // a failure: Mirror will not run
		return
	}
	l.dirs = append(l.dirs, rel)
	l.walk(t, abs, rel, entries, ancestors[:len(ancestors):len(ancestors)])
}

// file adds a regular file; anything else is a failure.
func (l *localListing) file(t *treeRun, abs, rel string, fi os.FileInfo) {
	if !fi.Mode().IsRegular() {
		t.fail(rel, ErrNotRegularFile)
		return
	}
	l.files = append(l.files, localFile{rel: rel, path: abs, size: fi.Size(), mtime: mtimeOrZero(fi)})
}

// containsSameFile reports whether fi is one of dirs.
func containsSameFile(dirs []os.FileInfo, fi os.FileInfo) bool {
	for _, d := range dirs {
		if os.SameFile(d, fi) {
			return true
		}
	}
	return false
}

// caseTwins maps the folded name of each group of entries whose names
// differ by case only to the names of the group.
func caseTwins(entries []os.DirEntry) map[string][]string {
	groups := map[string][]string{}
	for _, d := range entries {
		k := foldName(d.Name())
		groups[k] = append(groups[k], d.Name())
	}
	for k, names := range groups {
		if len(names) < 2 {
			delete(groups, k)
		}
	}
	return groups
}

// foldName is the key under which the service compares a name: names
// equal under Unicode simple case folding (strings.EqualFold) have the
// same key. Each rune becomes the smallest rune of its folding orbit.
func foldName(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s) // as foldRune has it for ASCII
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune is the smallest rune of r's simple folding orbit, or its ASCII
// lower case when the orbit holds an ASCII letter (as the fast path of
// foldName has it).
func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	if m < utf8.RuneSelf {
		return unicode.ToLower(m)
	}
	return m
}

// foldPath is foldName of every element of a "/"-separated path.
func foldPath(p string) string {
	return foldName(p) // "/" folds to itself
}
