package blob

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// syncLater notes, when the store is durable, that the bytes of the file
// at path ("" for none) and, with dir, the store's directory entries must
// be synced before the next commit of the state (SyncPending).
func (d *Dir) syncLater(path string, dir bool) {
	if !d.durable {
		return
	}
	d.unsyncedMu.Lock()
	if path != "" {
		if d.unsynced == nil {
			d.unsynced = map[string]struct{}{}
		}
		d.unsynced[path] = struct{}{}
	}
	d.dirUnsynced = d.dirUnsynced || dir
	d.unsyncedMu.Unlock()
}

// syncParallel bounds the fsyncs SyncPending runs at once.
const syncParallel = 16

// SyncPending fsyncs every file noted since the last call and, when an
// entry was made, the directory: all at once, so that the file system
// can put them in few journal commits. A file gone since (a blob
// deleted, an assembly renamed into its blob, which is noted under its
// new name) is skipped. On error what was taken is noted again, so the
// next commit retries it. The persisted server calls it before each
// commit of the state (flushState).
func (d *Dir) SyncPending() error {
	d.unsyncedMu.Lock()
	files, dir := d.unsynced, d.dirUnsynced
	d.unsynced, d.dirUnsynced = nil, false
	d.unsyncedMu.Unlock()
	if len(files) == 0 && !dir {
		return nil
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		sem  = make(chan struct{}, syncParallel)
	)
	run := func(kind, path string) {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			err := SyncPath(path)
			if errors.Is(err, os.ErrNotExist) && kind == "file" {
				return
			}
			if err == nil && d.onSync != nil {
				d.onSync(kind, filepath.Base(path))
			}
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	if dir {
		run("dir", d.dir)
	}
	for p := range files {
		run("file", p)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for p := range files {
			d.syncLater(p, false)
		}
		d.syncLater("", dir)
		return err
	}
	return nil
}

// SyncPath fsyncs the file or directory at path (a directory: the entries
// made in it).
func SyncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
