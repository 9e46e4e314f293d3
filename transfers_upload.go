package cms

import (
	"context"
	"errors"
	"fmt"
	"io"
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
// and skips those whose SHA-1 already matches; a remote file or folder
// whose name differs from the local one by case only is renamed first (PUT
// /files/{file_id}, PUT /folders/{folder_id}); with Mirror it then moves
// what dir does not have (compared case-insensitively) to the trash. The error is the ctx's, a failure
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
	remote, err := s.remoteTree(t, folderID, nil)
	if err != nil {
		return nil, err
	}
	local, err := localTree(t, dir)
	if err != nil {
		return nil, err
	}

	// The service compares names case-insensitively: so do the lookups.
	byFold := make(map[string]*Item, len(remote))
	for p, it := range remote {
		byFold[foldPath(p)] = it
	}

	// Folders, parents first (the local listing puts them first).
	ids := map[string]string{"": folderID}
	var needed map[string]bool
	if t.opts.PruneEmptyDirs {
		rels := make([]string, len(local.files))
		for i, f := range local.files {
			rels[i] = f.rel
		}
		needed = neededDirs(rels)
	}
	for _, d := range local.dirs {
		parent, name := path.Split(d)
		parentID, ok := ids[strings.TrimSuffix(parent, "/")]
		if !ok {
			continue // its parent failed
		}
		if it, ok := byFold[foldPath(d)]; ok {
			if it.Type != string(ItemTypeFolder) {
				t.fail(d, errors.New("cms: a file of that name is in the folder"))
				continue
			}
			if it.Name != name {
				if _, _, err := s.client.Folders.Update(t.ctx, it.ID, &UpdateFolderRequest{Name: name}, nil); err != nil {
					if t.ctx.Err() != nil {
						return t.result(ctx)
					}
					t.fail(d, err)
					continue
				}
				t.renamed(d, it.ID, it.Name, ItemTypeFolder)
			} else {
				t.folder(d, it.ID, false)
			}
			ids[d] = it.ID
			continue
		}
		if needed != nil && !needed[foldPath(d)] {
			continue // would hold no file (PruneEmptyDirs)
		}
		f, _, err := s.client.Folders.Create(t.ctx, &CreateFolderRequest{Name: name, Parent: FolderRef{ID: parentID}}, nil)
		if err != nil {
			if t.ctx.Err() != nil {
				return t.result(ctx)
			}
			t.fail(d, err)
			continue
		}
		ids[d] = f.ID
		t.folder(d, f.ID, true)
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
		have := byFold[foldPath(f.rel)]
		t.run(&wg, weight, f.rel, func() error { return s.uploadOne(t, f, parentID, have, int(weight)) })
	}
	wg.Wait()

	if t.opts.Mirror && t.ctx.Err() == nil && len(t.res.Failures) == 0 {
		s.mirrorRemote(t, remote, local)
	}
	return t.result(ctx)
}

// uploadOne uploads, updates or skips one local file; have is the remote
// item of the same name (compared case-insensitively), renamed first when
// its case differs.
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
	name := path.Base(f.rel)
	unchanged := OutcomeUnchanged
	if have != nil && have.Name != name {
		if _, _, err := s.client.Files.Update(t.ctx, have.ID, &UpdateFileRequest{Name: name}, nil); err != nil {
			return err
		}
		t.renamed(f.rel, have.ID, have.Name, ItemTypeFile)
		unchanged = OutcomeRenamed
	}
	if have != nil && have.File != nil && strings.EqualFold(have.File.SHA1, sum) {
		t.done(f.rel, have.ID, f.size, unchanged)
		return nil
	}
	r, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer r.Close()
	outcome := OutcomeCreated
	if have != nil {
		outcome = OutcomeUpdated
	}
	// A session left by an interruption is either kept in the store, to
	// be resumed, or aborted: never left open unknowingly.
	store := t.opts.Sessions
	key, err := sessionKey(f, sum, parentID, name, have)
	if err != nil {
		return err
	}
	if store != nil {
		if id, ok := store.Get(key); ok {
			done, err := s.resumeOne(t, store, key, id, r, f, parts, progress, outcome)
			if done || err != nil {
				return err
			}
			if _, err := r.Seek(0, io.SeekStart); err != nil {
				return err
			}
		}
	}
	chunked := &ChunkedUploadOptions{Concurrency: parts, ContentModifiedAt: f.mtime, AbortOnError: store == nil}
	var sent *File
	if have != nil {
		sent, _, err = s.client.Files.UploadVersion(t.ctx, have.ID, r, f.size, &UploadVersionOptions{
			ChunkedThreshold: t.opts.ChunkedThreshold, Progress: progress, Chunked: chunked,
			OneRequest: &OneRequestVersionOptions{ContentModifiedAt: f.mtime, SHA1: sum},
		})
	} else {
		sent, _, err = s.client.Files.Upload(t.ctx, parentID, name, r, f.size, &UploadOptions{
			ChunkedThreshold: t.opts.ChunkedThreshold, Progress: progress, Chunked: chunked,
			OneRequest: &OneRequestUploadOptions{ContentModifiedAt: f.mtime, SHA1: sum},
		})
	}
	if err != nil {
		return s.keepSession(t, store, key, err)
	}
	t.done(f.rel, sent.ID, f.size, outcome)
	return nil
}

// sessionKey is the UploadSessionStore key of f's upload.
func sessionKey(f localFile, sum, parentID, name string, have *Item) (UploadSessionKey, error) {
	abs, err := filepath.Abs(f.path)
	if err != nil {
		return UploadSessionKey{}, err
	}
	key := UploadSessionKey{Path: abs, Size: f.size, ModTime: f.mtime, SHA1: strings.ToLower(sum)}
	if have != nil {
		key.FileID = have.ID
	} else {
		key.FolderID, key.Name = parentID, name
	}
	return key, nil
}

// resumeOne finishes the session kept for f (Uploads.Resume). done is true
// when the file is uploaded; an error when the session is kept again (the
// run was interrupted again, or the service failed for now). A session that
// cannot be resumed (expired, or its parts do not match) is forgotten and
// aborted, and the file is sent anew (done false, no error).
func (s *TransfersService) resumeOne(t *treeRun, store UploadSessionStore, key UploadSessionKey, id string, r *os.File, f localFile, parts int, progress func(Progress), outcome TreeOutcome) (bool, error) {
	sent, _, err := s.client.Uploads.Resume(t.ctx, id, r, f.size, &ChunkedUploadOptions{Concurrency: parts, ContentModifiedAt: f.mtime, Progress: progress})
	if err == nil {
		t.done(f.rel, sent.ID, f.size, outcome)
		return true, store.Delete(key)
	}
	if t.ctx.Err() != nil || !permanentUploadFailure(err) {
		return false, err // kept for the next run
	}
	s.abortSession(t, id)
	if derr := store.Delete(key); derr != nil {
		return false, errors.Join(err, derr)
	}
	return false, nil
}

// keepSession records the session a failed upload kept in the store, or
// aborts it when there is no store or the store fails. err is the upload's
// failure, returned as it is (with the store's failure joined).
func (s *TransfersService) keepSession(t *treeRun, store UploadSessionStore, key UploadSessionKey, err error) error {
	var ue *UploadError
	if !errors.As(err, &ue) || !ue.SessionKept || ue.SessionID == "" {
		return err
	}
	if store != nil {
		perr := store.Put(key, ue.SessionID)
		if perr == nil {
			return err
		}
		err = errors.Join(err, fmt.Errorf("cms: keeping upload session: %w", perr))
	}
	s.abortSession(t, ue.SessionID)
	return err
}

// abortSession aborts a session, even when the run's ctx has ended (with
// its values, and a timeout of its own).
func (s *TransfersService) abortSession(t *treeRun, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ctx), 30*time.Second)
	defer cancel()
	_, _ = s.client.Uploads.AbortSession(ctx, id)
}

// mirrorRemote moves to the trash what the folder has and dir does not
// (compared case-insensitively, as the service compares names): the
// topmost of each missing subtree. What matches a local path the Filter
// left out, or is below one, stays.
func (s *TransfersService) mirrorRemote(t *treeRun, remote map[string]*Item, local *localListing) {
	var extra []string
	for p := range remote {
		if !local.has(p) && !local.left.covers(p) {
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
		t.deleted(p, it.ID, ItemType(it.Type))
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

// remoteTree lists a folder's subtree by path, without what the Filter
// leaves out (folders left out are not listed); left, when not nil, gets
// the paths left out.
func (s *TransfersService) remoteTree(t *treeRun, folderID string, left *leftOut) (map[string]*Item, error) {
	out := map[string]*Item{}
	opts := &WalkOptions{Fields: []string{"name", "sha1", "size", "content_modified_at"}}
	if t.opts.Filter != nil {
		opts.Filter = func(p string, isDir bool) bool {
			if t.keep(p, isDir) {
				return true
			}
			if left != nil {
				left.add(p)
			}
			return false
		}
	}
	for e, err := range s.client.Folders.Walk(t.ctx, folderID, opts) {
		if err != nil {
			return nil, err
		}
		out[e.Path] = e.Item
	}
	return out, nil
}
