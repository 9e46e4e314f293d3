package main

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/contentapi/cms"
)

// A dry run (--dry-run) of upload and download: it reads both sides,
// compares them by the transfers' rules (SHA-1; names compared
// case-insensitively, as the service does; the filter of --exclude and
// --include, as the run gives it to the SDK) and prints what a run would
// do, changing nothing on either side (not even the hash cache).

// step is one thing a transfer would do.
type step struct {
	Action string `json:"action"` // upload, update, rename, download, mkdir, trash, delete, conflict, skip-symlink
	Path   string `json:"path"`
	Size   int64  `json:"size,omitzero"`
}

// Actions of a step.
const (
	actUpload   = "upload"   // a new file would be sent
	actUpdate   = "update"   // a changed file would be sent or fetched
	actRename   = "rename"   // a case-only difference: the remote item would be renamed
	actDownload = "download" // a new file would be fetched
	actMkdir    = "mkdir"    // a folder (or directory) would be made
	actTrash    = "trash"    // --delete: a remote item would go to the trash
	actDelete   = "delete"   // --delete: a local file or directory would be removed
	actConflict = "conflict" // a file where a folder is, or the reverse: would fail
	actSymlink  = "skip-symlink"
)

// plan is a dry run's steps and the summary a run would print.
type plan struct {
	steps []step
	sum   summary
}

func (p *plan) add(s step) {
	p.steps = append(p.steps, s)
	switch s.Action {
	case actUpload, actDownload:
		p.sum.Files++
		p.sum.Created++
		p.sum.Bytes += s.Size
	case actUpdate:
		p.sum.Files++
		p.sum.Updated++
		p.sum.Bytes += s.Size
	case actMkdir:
		p.sum.Folders++
	case actTrash, actDelete:
		p.sum.Deleted++
	case actConflict:
		p.sum.Failed++
	case actSymlink:
		p.sum.Symlinks++
	}
}

func (p *plan) unchanged(size int64) {
	p.sum.Skipped++
	p.sum.SkippedBytes += size
}

// print writes the steps (one JSON object a line with --json) and the
// summary as the last line.
func (a *app) printPlan(p *plan) {
	slices.SortStableFunc(p.steps, func(x, y step) int { return strings.Compare(x.Path, y.Path) })
	for _, s := range p.steps {
		if a.g.json {
			printJSON(a.stdout, s)
		} else {
			fmt.Fprintf(a.stdout, "dry run: %-12s %s\n", s.Action, s.Path)
		}
	}
	if a.g.json {
		printJSON(a.stdout, struct {
			summary
			DryRun bool `json:"dry_run"`
		}{p.sum, true})
		return
	}
	s := p.sum
	fmt.Fprintf(a.stdout, "dry run: %d files to send or fetch (%d bytes), %d unchanged, %d folders to make, %d to delete, %d would fail\n",
		s.Files, s.Bytes, s.Skipped, s.Folders, s.Deleted, s.Failed)
}

// remoteEntry is an item of the remote tree.
type remoteEntry struct {
	path, typ, sha1 string
	size            int64
}

// remoteTree lists a folder's tree by folded path.
// Items the filter leaves out are not listed (so never deleted either), as
// the SDK's tree transfers leave them out (WalkOptions.Filter, the same
// rules as TreeOptions.Filter).
func remoteTree(ctx context.Context, c *cms.Client, folderID string, f filter) (map[string]remoteEntry, error) {
	out := map[string]remoteEntry{}
	for e, err := range c.Folders.Walk(ctx, folderID, &cms.WalkOptions{Fields: []string{"name", "size", "sha1"}, Filter: f.treeFilter()}) {
		if err != nil {
			return nil, err
		}
		r := remoteEntry{path: e.Path, typ: e.Item.Type}
		if e.Item.File != nil {
			r.sha1, r.size = e.Item.File.SHA1, e.Item.File.Size
		}
		out[fold(e.Path)] = r
	}
	return out, nil
}

// fold is a name as the service compares it (case-insensitively).
func fold(p string) string { return strings.ToLower(p) }

// localEntry is an item of the local tree.
type localEntry struct {
	path, abs string
	dir       bool
	symlink   bool
	size      int64
}

// localTree lists a directory's tree (following symlinks with follow, a
// link to a directory that holds it is not followed again), without what
// the filter leaves out.
func localTree(root string, follow bool, f filter) ([]localEntry, error) {
	var out []localEntry
	var walk func(abs, rel string, seen []string) error
	walk = func(abs, rel string, seen []string) error {
		des, err := os.ReadDir(abs)
		if err != nil {
			return err
		}
		for _, de := range des {
			p, r := filepath.Join(abs, de.Name()), path.Join(rel, de.Name())
			if de.IsDir() && f.excludedDir(r) {
				continue
			}
			if !de.IsDir() && de.Type()&fs.ModeSymlink == 0 && !f.match(r, false) {
				continue
			}
			fi, err := de.Info()
			if err != nil {
				return err
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				if !follow {
					out = append(out, localEntry{path: r, abs: p, symlink: true})
					continue
				}
				if fi, err = os.Stat(p); err != nil {
					out = append(out, localEntry{path: r, abs: p, symlink: true})
					continue
				}
			}
			switch {
			case fi.IsDir():
				real, err := filepath.EvalSymlinks(p)
				if err != nil {
					return err
				}
				if slices.Contains(seen, real) {
					out = append(out, localEntry{path: r, abs: p, symlink: true})
					continue
				}
				out = append(out, localEntry{path: r, abs: p, dir: true})
				if err := walk(p, r, append(seen, real)); err != nil {
					return err
				}
			case fi.Mode().IsRegular():
				out = append(out, localEntry{path: r, abs: p, size: fi.Size()})
			}
		}
		return nil
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	return out, walk(root, "", []string{real})
}

// localSHA1 hashes a file, through the hash cache when there is one
// (reading it only: a dry run writes nothing).
func localSHA1(p string, h *cms.FileHashCache) (string, error) {
	if h != nil {
		if fi, err := os.Stat(p); err == nil {
			if sum, ok := h.Get(p, fi); ok {
				return sum, nil
			}
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sum := sha1.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(sum.Sum(nil)), nil
}

// planUpload is what `upload SRC FOLDER` would do.
func planUpload(ctx context.Context, c *cms.Client, src, folderID string, tf *transferFlags, h *cms.FileHashCache, f filter) (*plan, error) {
	p := &plan{}
	fi, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		if !f.match(filepath.Base(src), false) {
			return p, nil
		}
		it, err := child(ctx, c, folderID, filepath.Base(src))
		if err != nil {
			return nil, err
		}
		var remote map[string]remoteEntry
		if it != nil {
			remote = map[string]remoteEntry{fold(it.Name): {path: it.Name, typ: it.Type}}
			if it.Type == kindFile {
				f, _, err := c.Files.Get(ctx, it.ID, nil)
				if err != nil {
					return nil, err
				}
				remote[fold(it.Name)] = remoteEntry{path: it.Name, typ: it.Type, sha1: f.SHA1, size: f.Size}
			}
		}
		return p, p.compareUp([]localEntry{{path: filepath.Base(src), abs: src, size: fi.Size()}}, remote, false, h)
	}
	local, err := localTree(src, tf.follow, f)
	if err != nil {
		return nil, err
	}
	remote, err := remoteTree(ctx, c, folderID, f)
	if err != nil {
		return nil, err
	}
	if err := p.compareUp(local, remote, tf.del, h); err != nil {
		return nil, err
	}
	p.pruneFolders(f)
	return p, nil
}

// pruneFolders drops, when the filter has includes, the folders to make
// that would hold no included file: an include names files, and the walk
// into every folder is only to find them.
func (p *plan) pruneFolders(f filter) {
	if len(f.include) == 0 {
		return
	}
	needed := map[string]bool{}
	for _, s := range p.steps {
		switch s.Action {
		case actUpload, actUpdate, actDownload:
			for d := path.Dir(s.Path); d != "." && d != "/"; d = path.Dir(d) {
				needed[fold(d)] = true
			}
		}
	}
	kept := p.steps[:0]
	for _, s := range p.steps {
		if s.Action == actMkdir && !needed[fold(s.Path)] {
			p.sum.Folders--
			continue
		}
		kept = append(kept, s)
	}
	p.steps = kept
}

// compareUp plans an upload of local over remote.
func (p *plan) compareUp(local []localEntry, remote map[string]remoteEntry, del bool, h *cms.FileHashCache) error {
	seen := map[string]bool{}
	for _, l := range local {
		k := fold(l.path)
		r, ok := remote[k]
		if l.symlink {
			p.add(step{Action: actSymlink, Path: l.path})
			continue
		}
		seen[k] = true
		switch {
		case l.dir && !ok:
			p.add(step{Action: actMkdir, Path: l.path})
		case l.dir && r.typ != kindFolder, !l.dir && ok && r.typ != kindFile:
			p.add(step{Action: actConflict, Path: l.path})
		case l.dir:
			if r.path != l.path {
				p.add(step{Action: actRename, Path: l.path})
			}
		case !ok:
			p.add(step{Action: actUpload, Path: l.path, Size: l.size})
		default:
			sum, err := localSHA1(l.abs, h)
			if err != nil {
				return err
			}
			switch {
			case sum != r.sha1:
				p.add(step{Action: actUpdate, Path: l.path, Size: l.size})
			case r.path != l.path:
				p.add(step{Action: actRename, Path: l.path})
				p.unchanged(l.size)
			default:
				p.unchanged(l.size)
			}
		}
	}
	if del {
		p.deleteUnseen(remote, seen, actTrash)
	}
	return nil
}

// deleteUnseen plans --delete: what one side has and the other does not,
// once per subtree.
func (p *plan) deleteUnseen(other map[string]remoteEntry, seen map[string]bool, action string) {
	var gone []remoteEntry
	for k, e := range other {
		if !seen[k] {
			gone = append(gone, e)
		}
	}
	slices.SortFunc(gone, func(x, y remoteEntry) int { return strings.Compare(x.path, y.path) })
	var last string
	for _, e := range gone {
		if last != "" && strings.HasPrefix(fold(e.path), fold(last)+"/") {
			continue
		}
		p.add(step{Action: action, Path: e.path, Size: e.size})
		if e.typ == kindFolder {
			last = e.path
		}
	}
}

// planDownload is what `download ITEM DST` would do.
func planDownload(ctx context.Context, c *cms.Client, it item, dst string, tf *transferFlags, h *cms.FileHashCache, f filter) (*plan, error) {
	p := &plan{}
	if it.file != nil {
		if !f.match(it.file.Name, false) {
			return p, nil
		}
		remote := []remoteEntry{{path: it.file.Name, typ: kindFile, sha1: it.file.SHA1, size: it.file.Size}}
		return p, p.compareDown(remote, dst, false, h, f)
	}
	tree, err := remoteTree(ctx, c, it.id(), f)
	if err != nil {
		return nil, err
	}
	remote := make([]remoteEntry, 0, len(tree))
	for _, e := range tree {
		remote = append(remote, e)
	}
	slices.SortFunc(remote, func(x, y remoteEntry) int { return strings.Compare(x.path, y.path) })
	if err := p.compareDown(remote, dst, tf.del, h, f); err != nil {
		return nil, err
	}
	p.pruneFolders(f)
	return p, nil
}

// compareDown plans a download of remote into dst.
func (p *plan) compareDown(remote []remoteEntry, dst string, del bool, h *cms.FileHashCache, f filter) error {
	seen := map[string]bool{}
	for _, r := range remote {
		seen[fold(r.path)] = true
		lp := filepath.Join(dst, filepath.FromSlash(r.path))
		fi, err := os.Lstat(lp)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		switch {
		case r.typ != kindFile && r.typ != kindFolder:
		case r.typ == kindFolder && !exists:
			p.add(step{Action: actMkdir, Path: r.path})
		case r.typ == kindFolder && !fi.IsDir(), r.typ == kindFile && exists && !fi.Mode().IsRegular():
			p.add(step{Action: actConflict, Path: r.path})
		case r.typ == kindFolder:
		case !exists:
			p.add(step{Action: actDownload, Path: r.path, Size: r.size})
		default:
			sum, err := localSHA1(lp, h)
			if err != nil {
				return err
			}
			if sum == r.sha1 {
				p.unchanged(r.size)
			} else {
				p.add(step{Action: actUpdate, Path: r.path, Size: r.size})
			}
		}
	}
	if !del {
		return nil
	}
	if _, err := os.Stat(dst); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	local, err := localTree(dst, false, f)
	if err != nil {
		return err
	}
	others := map[string]remoteEntry{}
	for _, l := range local {
		typ := kindFile
		if l.dir {
			typ = kindFolder
		}
		others[fold(l.path)] = remoteEntry{path: l.path, typ: typ, size: l.size}
	}
	p.deleteUnseen(others, seen, actDelete)
	return nil
}
