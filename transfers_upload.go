package cms

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// UploadDir uploads the local directory dir into the folder folderID
// (see TransfersService for the rules): it lists the folder's subtree
// (Folders.Walk: GET /folders/{folder_id}/items), creates the missing
// folders (POST /folders), uploads new files (POST
// {upload_url}/files/content, or an upload session), sends a new version
// of each changed one (POST {upload_url}/files/{file_id}/content; its mtime
// as content_modified_at)
// and skips those whose SHA-1 already matches; with Mirror it then moves
// what dir does not have to the trash. The error is the ctx's, a failure
// to read dir or list the folder, or with StopOnError the first failure;
// the result lists every failed path.
func (s *TransfersService) UploadDir(ctx context.Context, dir, folderID string, opts *TreeOptions) (*TreeResult, error) {
	if err := firstErr(checkCtx(ctx), checkID("folder", folderID)); err != nil {
		return nil, err
	}
	t, err := newTreeRun(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer t.stop()
	remote, err := s.remoteTree(t.ctx, folderID)
	if err != nil {
		return nil, err
	}
	local, err := localTree(t, dir)
	if err != nil {
		return nil, err
	}

	// Folders, parents first (WalkDir's lexical order puts them first).
	ids := map[string]string{"": folderID}
	var broken []string // local folders that could not be made: skip below them
	for _, d := range local.dirs {
		parent, name := path.Split(d)
		parentID, ok := ids[strings.TrimSuffix(parent, "/")]
		if !ok {
			continue // its parent failed
		}
		if it, ok := remote[d]; ok {
			if it.Type == string(ItemTypeFolder) {
				ids[d] = it.ID
				continue
			}
			t.fail(d, errors.New("cms: a file of that name is in the folder"))
			broken = append(broken, d)
			continue
		}
		f, _, err := s.client.Folders.Create(t.ctx, &CreateFolderRequest{Name: name, Parent: FolderRef{ID: parentID}}, nil)
		if err != nil {
			if t.ctx.Err() != nil {
				return t.result(ctx)
			}
			t.fail(d, err)
			broken = append(broken, d)
			continue
		}
		ids[d] = f.ID
		t.mu.Lock()
		t.res.Folders++
		t.mu.Unlock()
	}

	var wg sync.WaitGroup
	var total int64
	for _, f := range local.files {
		total += f.size
	}
	t.addTotals(len(local.files), total)
	for _, f := range local.files {
		if t.ctx.Err() != nil {
			break
		}
		parent := path.Dir(f.rel)
		if parent == "." {
			parent = ""
		}
		parentID, ok := ids[parent]
		if !ok {
			t.fail(f.rel, errors.New("cms: its folder could not be made"))
			continue
		}
		weight := int64(1)
		threshold := t.opts.ChunkedThreshold
		if threshold == 0 {
			threshold = DefaultChunkedThreshold
		}
		if f.size >= threshold {
			weight = int64(min(t.opts.Concurrency, maxPartsPerFile))
		}
		t.run(&wg, weight, f.rel, func() error { return s.uploadOne(t, f, parentID, remote[f.rel], int(weight)) })
	}
	wg.Wait()

	if t.opts.Mirror && t.ctx.Err() == nil && len(t.res.Failures) == 0 {
		s.mirrorRemote(t, remote, local)
	}
	return t.result(ctx)
}

// uploadOne uploads, updates or skips one local file.
func (s *TransfersService) uploadOne(t *treeRun, f localFile, parentID string, have *Item, parts int) error {
	progress := t.fileProgress(f.rel)
	if have != nil && have.Type != string(ItemTypeFile) {
		return errors.New("cms: a folder or web link of that name is in the folder")
	}
	// The SHA-1 decides whether to send, is sent with the content (the
	// service checks it), and is remembered for the next run (Hashes).
	sum, err := t.localSHA1(f.path)
	if err != nil {
		return err
	}
	if have != nil && have.File != nil && strings.EqualFold(have.File.SHA1, sum) {
		t.count(f.rel, &t.res.Skipped, f.size, false)
		return nil
	}
	r, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer r.Close()
	chunked := &ChunkedUploadOptions{Concurrency: parts, ContentModifiedAt: f.mtime}
	if have != nil {
		_, _, err = s.client.Files.UploadVersion(t.ctx, have.ID, r, f.size, &UploadVersionOptions{
			ChunkedThreshold: t.opts.ChunkedThreshold, Progress: progress, Chunked: chunked,
			OneRequest: &OneRequestVersionOptions{ContentModifiedAt: f.mtime, SHA1: sum},
		})
		if err == nil {
			t.count(f.rel, &t.res.Updated, f.size, true)
		}
		return err
	}
	_, _, err = s.client.Files.Upload(t.ctx, parentID, path.Base(f.rel), r, f.size, &UploadOptions{
		ChunkedThreshold: t.opts.ChunkedThreshold, Progress: progress, Chunked: chunked,
		OneRequest: &OneRequestUploadOptions{ContentModifiedAt: f.mtime, SHA1: sum},
	})
	if err == nil {
		t.count(f.rel, &t.res.Created, f.size, true)
	}
	return err
}

// mirrorRemote moves to the trash what the folder has and dir does not:
// the topmost of each missing subtree.
func (s *TransfersService) mirrorRemote(t *treeRun, remote map[string]*Item, local *localListing) {
	var extra []string
	for p := range remote {
		if !local.has(p) {
			extra = append(extra, p)
		}
	}
	sort.Strings(extra)
	var gone []string
	for _, p := range extra {
		if under(p, gone) {
			continue
		}
		it := remote[p]
		var err error
		switch it.Type {
		case string(ItemTypeFolder):
			_, err = s.client.Folders.Delete(t.ctx, it.ID, &DeleteFolderOptions{Recursive: true})
		case string(ItemTypeWebLink):
			_, err = s.client.WebLinks.Delete(t.ctx, it.ID)
		default:
			_, err = s.client.Files.Delete(t.ctx, it.ID, nil)
		}
		if err != nil {
			t.fail(p, err)
			continue
		}
		gone = append(gone, p)
		t.mu.Lock()
		t.res.Deleted++
		t.mu.Unlock()
	}
}

// under reports whether p is below one of dirs.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// remoteTree lists a folder's subtree by path.
func (s *TransfersService) remoteTree(ctx context.Context, folderID string) (map[string]*Item, error) {
	out := map[string]*Item{}
	fields := []string{"name", "sha1", "size", "content_modified_at"}
	for e, err := range s.client.Folders.Walk(ctx, folderID, &WalkOptions{Fields: fields}) {
		if err != nil {
			return nil, err
		}
		out[e.Path] = e.Item
	}
	return out, nil
}

// localFile is a regular file of a local tree.
type localFile struct {
	rel, path string
	size      int64
	mtime     time.Time
}

// localListing is a local tree: its directories (parents first) and files,
// by path relative to the root with "/" separators.
type localListing struct {
	dirs  []string
	files []localFile
	all   map[string]bool
}

func (l *localListing) has(p string) bool { return l.all[p] }

// localTree lists dir; symlinks, special files and names the service
// refuses are failures of t.
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
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if p == root {
			return err
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			t.fail(rel, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		l.all[rel] = true // present locally, whatever happens to it (Mirror keeps it)
		if nerr := checkItemName("name", d.Name()); nerr != nil {
			t.fail(rel, nerr)
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			l.dirs = append(l.dirs, rel)
		case d.Type().IsRegular():
			info, ierr := d.Info()
			if ierr != nil {
				t.fail(rel, ierr)
				return nil
			}
			l.files = append(l.files, localFile{rel: rel, path: p, size: info.Size(), mtime: mtimeOrZero(info)})
		default:
			t.fail(rel, ErrNotRegularFile)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}
