package cms

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/contentapi/cms/internal/atomicfile"
)

// DownloadDir downloads the folder folderID into the local directory dir
// (created when missing; see TransfersService for the rules): it lists the
// folder's subtree (Folders.Walk: GET /folders/{folder_id}/items), creates
// the directories, and writes each file whose SHA-1 differs from the local
// one to a temporary name in its directory (GET /files/{file_id}/content),
// checks its SHA-1 (DownloadTo), sets its mtime to the file's
// content_modified_at and renames it into place; files that match are
// skipped. Web links are not files: they are skipped and reported. With
// Mirror it then deletes the local files and directories the folder does
// not have. The error is the ctx's, a failure to list the folder or make
// dir, or with StopOnError the first failure.
func (s *TransfersService) DownloadDir(ctx context.Context, folderID, dir string, opts *TreeOptions) (*TreeResult, error) {
	if err := firstErr(checkCtx(ctx), checkID("folder", folderID)); err != nil {
		return nil, err
	}
	t, err := newTreeRun(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer t.stop()
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o777); err != nil {
		return nil, err
	}
	var left leftOut
	remote, err := s.remoteTree(t, folderID, &left)
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(remote))
	var remoteFiles []string
	for p, it := range remote {
		paths = append(paths, p)
		if it.Type == string(ItemTypeFile) {
			remoteFiles = append(remoteFiles, p)
		}
	}
	sort.Strings(paths) // parents first
	var needed map[string]bool
	if t.opts.PruneEmptyDirs {
		needed = neededDirs(remoteFiles)
	}

	var files []string
	var total int64
	var broken []string
	for _, p := range paths {
		it := remote[p]
		if under(p, broken) {
			continue
		}
		if err := checkLocalName(it.Name); err != nil {
			t.fail(p, err) // nothing below it is written either
			broken = append(broken, p)
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(p)) {
			t.fail(p, &UnsafeNameError{Name: p, Reason: "not a local path"})
			continue
		}
		local := filepath.Join(root, filepath.FromSlash(p))
		switch it.Type {
		case string(ItemTypeFolder):
			if fi, err := os.Lstat(local); err == nil && fi.IsDir() {
				t.folder(p, it.ID, false)
				continue
			}
			if needed != nil && !needed[foldPath(p)] {
				broken = append(broken, p) // would hold no file (PruneEmptyDirs): nothing below is made
				continue
			}
			if err := os.Mkdir(local, 0o777); err != nil {
				t.fail(p, err)
				broken = append(broken, p)
				continue
			}
			t.folder(p, it.ID, true)
		case string(ItemTypeFile):
			files = append(files, p)
			if it.File != nil {
				total += it.File.Size
			}
		default:
			t.fail(p, errors.New("cms: a web link is not a file: not downloaded"))
		}
	}
	t.addTotals(len(files), total)

	var wg sync.WaitGroup
	for _, p := range files {
		if t.ctx.Err() != nil {
			break
		}
		if under(p, broken) {
			t.fail(p, errors.New("cms: its directory could not be made"))
			continue
		}
		it := remote[p]
		t.run(&wg, 1, p, func() error { return s.downloadOne(t, it, p, filepath.Join(root, filepath.FromSlash(p))) })
	}
	wg.Wait()

	if t.opts.Mirror && t.ctx.Err() == nil && len(t.res.Failures) == 0 {
		mirrorLocal(t, root, remote, &left)
	}
	return t.result(ctx)
}

// downloadOne replaces or skips one local file.
func (s *TransfersService) downloadOne(t *treeRun, it *Item, rel, local string) error {
	var size int64
	var sum string
	if it.File != nil {
		size, sum = it.File.Size, it.File.SHA1
	}
	if fi, err := os.Lstat(local); err == nil {
		if !fi.Mode().IsRegular() {
			return ErrNotRegularFile // a directory, symlink or device where the file goes
		}
		if have, err := t.localSHA1(local); err == nil && sum != "" && strings.EqualFold(have, sum) {
			t.done(rel, it.ID, size, OutcomeUnchanged)
			return nil
		}
	}
	// A new file gets the mode os.Create gives (0o666 less the umask); a
	// replaced one keeps its permission bits (a 0o755 script stays so).
	existed := false
	var keep fs.FileMode
	if fi, err := os.Lstat(local); err == nil {
		existed, keep = true, fi.Mode().Perm()
	}
	tmp, err := atomicfile.CreateTemp(filepath.Dir(local), "."+filepath.Base(local)+".", ".part", 0o666)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, _, err := s.client.Files.DownloadTo(t.ctx, it.ID, tmp, &DownloadOptions{Progress: t.fileProgress(rel)}); err != nil {
		return err
	}
	if existed {
		if err := tmp.Chmod(keep); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if it.File != nil && !it.File.ContentModifiedAt.IsZero() {
		mt := it.File.ContentModifiedAt
		if err := os.Chtimes(tmp.Name(), mt, mt); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), local); err != nil {
		return err
	}
	ok = true
	if c := t.opts.Hashes; c != nil && sum != "" {
		if fi, err := os.Stat(local); err == nil {
			c.Put(local, fi, strings.ToLower(sum)) // checked by DownloadTo
		}
	}
	if existed {
		t.done(rel, it.ID, size, OutcomeUpdated)
	} else {
		t.done(rel, it.ID, size, OutcomeCreated)
	}
	return nil
}

// mirrorLocal deletes the local files and directories below root that the
// folder does not have (never root itself). What the Filter leaves out
// stays, and so does what matches a remote path it left out (left).
func mirrorLocal(t *treeRun, root string, remote map[string]*Item, left *leftOut) {
	type local struct {
		rel string
		typ ItemType
	}
	var extra []local
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if !t.keep(rel, d.IsDir()) || left.covers(rel) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if _, ok := remote[rel]; !ok {
			if d.IsDir() {
				extra = append(extra, local{rel, ItemTypeFolder})
				return fs.SkipDir
			}
			extra = append(extra, local{rel, ItemTypeFile})
		}
		return nil
	})
	for _, x := range extra {
		if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(x.rel))); err != nil {
			t.fail(x.rel, err)
			continue
		}
		t.deleted(x.rel, "", x.typ)
	}
}
