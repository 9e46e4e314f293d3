package cms

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// TransfersService moves whole trees: a local directory into a folder
// (UploadDir) and a folder into a local directory (DownloadDir), through
// /folders/{folder_id}/items, /folders, /files/{file_id}/content and the
// upload root's /files/content. It is a
// service of the Client, like the others, because a tree transfer is one
// more way to call Files, Folders and Uploads with the client's
// credentials, retries and rate limits — not a separate tool.
//
// Both directions follow the same rules:
//   - what already matches (same SHA-1) is skipped, so a re-run after an
//     interruption does only what is left;
//   - a changed file becomes a new version (upload) or replaces the local
//     file atomically (download: written to a temporary name in the same
//     directory, SHA-1 checked, then renamed);
//   - nothing is deleted unless TreeOptions.Mirror asks for it;
//   - modification times travel both ways (content_modified_at ↔ mtime);
//   - one failed file does not stop the others (unless StopOnError); the
//     result lists every failure with its path;
//   - the directory the caller names is followed if it is a symbolic
//     link; symbolic links inside the tree are skipped with a notice
//     (OutcomeSymlink), or followed with TreeOptions.FollowSymlinks (a link
//     to a directory above it is a failure, never followed forever);
//   - special files and names the service refuses are reported as
//     failures, never silently dropped;
//   - names are matched as the service matches them, case-insensitively
//     (Unicode simple case folding, as strings.EqualFold): an upload
//     renames a remote item whose name differs from the local one by case
//     only, and two local names that differ by case only both fail before
//     anything is sent for them;
//   - the result lists every path with its remote id and outcome
//     (TreeResult.Entries);
//   - one concurrency budget covers files and the parts of big files:
//     a small file takes one slot, a file sent in chunks takes as many
//     slots as parts it sends at once.
type TransfersService service

// DefaultTreeConcurrency is the budget of a tree transfer when
// TreeOptions.Concurrency is 0.
const DefaultTreeConcurrency = 16

// maxPartsPerFile is how many slots (parts in flight) one chunked file
// takes at most.
const maxPartsPerFile = 4

// TreeOptions are the options of UploadDir and DownloadDir.
type TreeOptions struct {
	// Concurrency is the budget of transfers in flight, files and parts of
	// chunked files together: 0 means DefaultTreeConcurrency; negative is
	// an *ArgError.
	Concurrency int
	// Mirror deletes what the source does not have: remote files and
	// folders (to the trash) on upload, local files and directories on
	// download. Off by default: nothing is deleted.
	Mirror bool
	// StopOnError stops at the first failed file; by default every file is
	// tried and the failures are listed.
	StopOnError bool
	// ChunkedThreshold is as in UploadOptions (uploads only).
	ChunkedThreshold int64
	// Progress reports the whole transfer: FilesDone and TotalFiles count
	// the files (skipped ones included); Bytes counts the bytes sent or
	// fetched (done and in flight), SkippedBytes those of the files left
	// alone because they were unchanged, and TotalBytes all of them, so
	// Bytes+SkippedBytes reaches TotalBytes when every file is done.
	// Calls never overlap.
	Progress func(Progress)
	// FollowSymlinks follows symbolic links inside the tree being uploaded
	// (the cms command's -L): a link to a file uploads the file, a link to
	// a directory its tree; a link to a directory that holds it (a loop)
	// fails with ErrSymlinkLoop. By default such links are skipped
	// (OutcomeSymlink, ErrSymlinkSkipped), as rsync and rclone do. The
	// directory given to UploadDir (or the file given to UploadFile) is
	// always followed.
	FollowSymlinks bool
	// Sessions, when set, keeps the upload sessions an interrupted upload
	// leaves open (a cancelled ctx, or a failure the retries did not
	// outlive), so that the next run resumes them (Uploads.Resume) and
	// sends only the missing parts; see FileSessionStore. Without it, such
	// sessions are aborted before UploadDir or UploadFile returns.
	Sessions UploadSessionStore
	// Filter, when set, chooses what the transfer handles: it is called
	// with each path below the tree's root ("/" separators, as on the side
	// where the item is: the local name or the remote one) and whether it
	// is a folder (a directory), on both sides. False leaves the item out,
	// and for a folder everything inside it, which is then never read or
	// listed: what a filter leaves out is never sent, fetched, made or
	// deleted (Mirror keeps it, and keeps what matches it on the other
	// side, compared as the service compares names), and is not in the
	// result. UploadFile and DownloadFile call it with the file's name. It
	// may be called from several goroutines at once.
	Filter func(path string, isDir bool) bool
	// PruneEmptyDirs makes only the folders (or local directories) that
	// will hold a file, as rsync's --prune-empty-dirs: with a Filter that
	// chooses files, the folders walked into to find them are not made
	// when none of their files is chosen. Folders already there are left
	// alone, and still count for Mirror.
	PruneEmptyDirs bool
	// Hashes, when set, remembers the SHA-1 of local files between runs, so
	// that a re-run need not read every unchanged file again. Its keys must
	// see an edit that keeps a file's size and modification time:
	// FileHashCache, the cms command's, keys on the inode and the change
	// time too.
	Hashes HashCache
}

// HashCache remembers the SHA-1 of local files (TreeOptions.Hashes). Its
// methods may be called from several goroutines at once.
type HashCache interface {
	// Get returns the SHA-1 remembered for the file at path as fi
	// describes it now, or ok false.
	Get(path string, fi os.FileInfo) (sha1 string, ok bool)
	// Put remembers the SHA-1 of the file at path as fi describes it.
	Put(path string, fi os.FileInfo, sha1 string)
}

// localSHA1 is the SHA-1 of a local file, through the cache when there is
// one.
func (t *treeRun) localSHA1(path string) (string, error) {
	c := t.opts.Hashes
	var fi os.FileInfo
	if c != nil {
		var err error
		if fi, err = os.Stat(path); err != nil {
			return "", err
		}
		if sum, ok := c.Get(path, fi); ok {
			return sum, nil
		}
	}
	sum, err := fileSHA1(path)
	if err == nil && c != nil {
		c.Put(path, fi, sum)
	}
	return sum, err
}

// TreeResult is what a tree transfer did.
type TreeResult struct {
	// Created, Updated and Skipped count files: new, changed (a new version
	// or a replaced local file), already the same.
	Created, Updated, Skipped int
	// Folders counts the folders (or local directories) created.
	Folders int
	// Deleted counts what Mirror deleted.
	Deleted int
	// Renamed counts the remote files and folders renamed to the local
	// case (OutcomeRenamed, or OutcomeUpdated with RenamedFrom).
	Renamed int
	// Symlinks counts the symbolic links skipped (OutcomeSymlink).
	Symlinks int
	// Bytes is what was transferred: the bytes of the files sent or
	// fetched.
	Bytes int64
	// SkippedBytes are the bytes of the files left alone because they
	// were unchanged (never counted in Bytes).
	SkippedBytes int64
	// Failures lists every path that failed, with why, in path order.
	Failures []TreeFailure
	// Entries lists every path the transfer met, sorted by path (see
	// Entry and All): its remote id and what was done (TreeEntry).
	Entries []TreeEntry
}

// TreeFailure is a path a tree transfer could not handle.
type TreeFailure struct {
	// Path is relative to the tree's root, with "/" separators.
	Path string
	Err  error
}

// Error is the path and why it failed.
func (f TreeFailure) Error() string { return f.Path + ": " + f.Err.Error() }

// Unwrap is the failure's cause (an *APIError, a file system error, …).
func (f TreeFailure) Unwrap() error { return f.Err }

// ErrNotRegularFile is the error of a special file (device, socket, pipe)
// met by a tree transfer, or of a symbolic link or special file where a
// download would write a file: it is reported, not followed.
var ErrNotRegularFile = errors.New("cms: not a regular file (not followed)")

// ErrSymlinkSkipped is the notice of a symbolic link inside a tree that
// an upload did not follow (OutcomeSymlink; not a failure). Set
// TreeOptions.FollowSymlinks to follow such links.
var ErrSymlinkSkipped = errors.New("cms: symbolic link skipped (FollowSymlinks follows it)")

// ErrSymlinkLoop is the failure of a symbolic link, followed with
// TreeOptions.FollowSymlinks, to a directory that holds it: following it
// would never end.
var ErrSymlinkLoop = errors.New("cms: symbolic link to a directory above it (a loop, not followed)")

// ErrCaseTwin is the failure of each of two or more local names in one
// directory that differ by case only: the service compares names
// case-insensitively, so only one of them could exist remotely. Nothing
// is sent for any of them.
var ErrCaseTwin = errors.New("cms: another local name in the directory differs only by case")

// treeRun is the shared state of one tree transfer.
type treeRun struct {
	opts TreeOptions
	sem  *semaphore.Weighted
	ctx  context.Context
	stop context.CancelFunc

	mu       sync.Mutex
	res      TreeResult
	progress Progress
	inflight map[string]int64
	entries  map[string]*TreeEntry
}

func newTreeRun(ctx context.Context, opts *TreeOptions) (*treeRun, error) {
	o := TreeOptions{}
	if opts != nil {
		o = *opts
	}
	switch {
	case o.Concurrency < 0:
		return nil, invalidArg("Concurrency", "negative")
	case o.Concurrency == 0:
		o.Concurrency = DefaultTreeConcurrency
	}
	if o.ChunkedThreshold < 0 {
		return nil, invalidArg("ChunkedThreshold", "negative")
	}
	rctx, stop := context.WithCancel(ctx)
	return &treeRun{opts: o, sem: semaphore.NewWeighted(int64(o.Concurrency)), ctx: rctx, stop: stop, inflight: map[string]int64{}, entries: map[string]*TreeEntry{}}, nil
}

// keep reports whether the Filter keeps the item at p.
func (t *treeRun) keep(p string, isDir bool) bool {
	return t.opts.Filter == nil || t.opts.Filter(p, isDir)
}

// leftOut is a set of paths the Filter left out, compared as the service
// compares names (foldPath): what matches one of them, or is below one,
// is never deleted. It is safe for concurrent use.
type leftOut struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (l *leftOut) add(p string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.paths == nil {
		l.paths = map[string]bool{}
	}
	l.paths[foldPath(p)] = true
}

// covers reports whether p, or a folder above it, was left out.
func (l *leftOut) covers(p string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.paths) == 0 {
		return false
	}
	for f := foldPath(p); ; {
		if l.paths[f] {
			return true
		}
		i := strings.LastIndexByte(f, '/')
		if i < 0 {
			return false
		}
		f = f[:i]
	}
}

// neededDirs is every folder above one of files (relative paths), for
// PruneEmptyDirs, by foldPath.
func neededDirs(files []string) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for d := path.Dir(f); d != "." && d != "/" && !out[foldPath(d)]; d = path.Dir(d) {
			out[foldPath(d)] = true
		}
	}
	return out
}

// fail records a failure; with StopOnError it stops the run.
func (t *treeRun) fail(p string, err error) {
	t.mu.Lock()
	t.res.Failures = append(t.res.Failures, TreeFailure{Path: p, Err: err})
	e := t.entry(p)
	e.Outcome, e.Err = OutcomeFailed, err
	t.mu.Unlock()
	if t.opts.StopOnError {
		t.stop()
	}
}

// done records a finished file: its id, size and outcome (created,
// updated, renamed or unchanged; the content moved for the first two).
func (t *treeRun) done(p, id string, size int64, outcome TreeOutcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(p)
	e.Type, e.ID, e.Size, e.Outcome = ItemTypeFile, id, size, outcome
	delete(t.inflight, p)
	t.progress.FilesDone++
	switch outcome {
	case OutcomeCreated, OutcomeUpdated:
		if outcome == OutcomeCreated {
			t.res.Created++
		} else {
			t.res.Updated++
		}
		t.res.Bytes += size
		t.progress.Bytes += size
	default: // unchanged content, renamed or not
		if outcome == OutcomeUnchanged {
			t.res.Skipped++
		}
		t.res.SkippedBytes += size
		t.progress.SkippedBytes += size
	}
	if e.RenamedFrom != "" {
		t.res.Renamed++
	}
	t.report()
}

// folder records a folder (or local directory) made or found.
func (t *treeRun) folder(p, id string, created bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(p)
	e.Type, e.ID, e.Outcome = ItemTypeFolder, id, OutcomeUnchanged
	if created {
		e.Outcome = OutcomeCreated
		t.res.Folders++
	}
}

// renamed records a case-only rename of p's remote item (from its old
// name); a folder's rename is its outcome, a file's comes with done.
func (t *treeRun) renamed(p, id, from string, typ ItemType) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(p)
	e.Type, e.ID, e.RenamedFrom = typ, id, from
	if typ == ItemTypeFolder {
		e.Outcome = OutcomeRenamed
		t.res.Renamed++
	}
}

// deleted records what Mirror deleted.
func (t *treeRun) deleted(p, id string, typ ItemType) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(p)
	e.Type, e.ID, e.Outcome = typ, id, OutcomeDeleted
	t.res.Deleted++
}

// skippedLink records a symbolic link that was not followed.
func (t *treeRun) skippedLink(p string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(p)
	e.Outcome, e.Err = OutcomeSymlink, ErrSymlinkSkipped
	t.res.Symlinks++
}

// fileProgress is the per-file progress function of a transfer of p.
func (t *treeRun) fileProgress(p string) func(Progress) {
	return func(fp Progress) {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.inflight[p] = fp.Bytes
		t.report()
	}
}

// report calls Progress with the totals. Callers hold t.mu.
func (t *treeRun) report() {
	if t.opts.Progress == nil {
		return
	}
	p := t.progress
	for _, n := range t.inflight {
		p.Bytes += n
	}
	t.opts.Progress(p)
}

// addTotals adds files to the totals.
func (t *treeRun) addTotals(files int, bytes int64) {
	t.mu.Lock()
	t.progress.TotalFiles += files
	t.progress.TotalBytes += bytes
	t.mu.Unlock()
}

// result returns the outcome: the error is ctx's, or with StopOnError the
// first failure.
func (t *treeRun) result(parent context.Context) (*TreeResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	res := t.res
	res.Failures = slices.Clone(res.Failures)
	slices.SortStableFunc(res.Failures, func(a, b TreeFailure) int { return strings.Compare(a.Path, b.Path) })
	res.Entries = t.sortedEntries()
	if err := parent.Err(); err != nil {
		return &res, err
	}
	if t.opts.StopOnError && len(res.Failures) > 0 {
		return &res, res.Failures[0]
	}
	return &res, nil
}

// go runs fn with weight slots of the budget, in its own goroutine.
func (t *treeRun) run(wg *sync.WaitGroup, weight int64, p string, fn func() error) {
	if err := t.sem.Acquire(t.ctx, weight); err != nil {
		return // stopped
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer t.sem.Release(weight)
		if err := fn(); err != nil && t.ctx.Err() == nil {
			t.fail(p, err)
		}
	}()
}

// fileSHA1 is the hex SHA-1 of a local file.
func fileSHA1(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha1.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// joinRel joins a relative tree path and a name with "/".
func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return path.Join(dir, name)
}

// mtimeOrZero is a file's modification time for content_modified_at.
func mtimeOrZero(fi os.FileInfo) time.Time {
	if fi == nil {
		return time.Time{}
	}
	return fi.ModTime().UTC().Truncate(time.Second)
}
