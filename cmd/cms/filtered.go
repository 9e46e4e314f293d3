package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"

	"github.com/contentapi/cms"
	"golang.org/x/sync/errgroup"
)

// A transfer with --exclude or --include: the SDK's tree transfers take no
// filter, so the command plans the filtered tree itself (plan.go, the same
// comparison --dry-run prints) and runs the plan with the SDK's one-file
// transfers (Transfers.UploadFile and DownloadFile: the same rules for
// content, versions, modes and names). What the filter leaves out is never
// sent, fetched or deleted.

// runPlan does p's steps: folders first (parents before children), then
// the files, up to the transfer's concurrency at once, then the deletions.
// Its result counts as a tree transfer's.
func (a *app) runPlan(ctx context.Context, c *cms.Client, p *plan, upload bool, tf *transferFlags, opts *cms.TreeOptions) *cms.TreeResult {
	res := &cms.TreeResult{Skipped: p.sum.Skipped, SkippedBytes: p.sum.SkippedBytes}
	var mu sync.Mutex
	fail := func(s step, err error) {
		mu.Lock()
		defer mu.Unlock()
		res.Failures = append(res.Failures, cms.TreeFailure{Path: s.Path, Err: err})
	}
	merge := func(r *cms.TreeResult) {
		mu.Lock()
		defer mu.Unlock()
		res.Created += r.Created
		res.Updated += r.Updated
		res.Skipped += r.Skipped
		res.SkippedBytes += r.SkippedBytes
		res.Bytes += r.Bytes
		res.Failures = append(res.Failures, r.Failures...)
	}
	// Folders and renames, in path order.
	for _, s := range p.steps {
		if ctx.Err() != nil {
			return res
		}
		switch s.Action {
		case actMkdir:
			if !upload {
				if err := os.MkdirAll(s.abs, 0o777); err != nil {
					fail(s, err)
					continue
				}
				res.Folders++
				continue
			}
			parent, ok := p.folders[fold(path.Dir(s.Path))]
			if path.Dir(s.Path) == "." {
				parent, ok = p.folders[""], true
			}
			if !ok {
				fail(s, errors.New("its parent folder was not made"))
				continue
			}
			f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: path.Base(s.Path), Parent: cms.FolderRef{ID: parent}}, nil)
			if err != nil {
				fail(s, err)
				continue
			}
			p.folders[fold(s.Path)] = f.ID
			res.Folders++
		case actRename:
			var err error
			if s.typ == kindFolder {
				_, _, err = c.Folders.Update(ctx, s.id, &cms.UpdateFolderRequest{Name: path.Base(s.Path)}, nil)
			} else {
				_, _, err = c.Files.Update(ctx, s.id, &cms.UpdateFileRequest{Name: path.Base(s.Path)}, nil)
			}
			if err != nil {
				fail(s, err)
			}
		case actConflict:
			fail(s, fmt.Errorf("a file where a folder is, or the reverse: %w", errConflict))
		case actSymlink:
			a.symlinks++
			fmt.Fprintf(a.stderr, "skipped symlink: %s (not followed; -L follows)\n", s.Path)
		}
	}
	// Files.
	g, gctx := errgroup.WithContext(ctx)
	limit := tf.concurrency
	if limit <= 0 {
		limit = 4
	}
	g.SetLimit(limit)
	one := *opts
	one.Mirror, one.Concurrency = false, 0
	for _, s := range p.steps {
		if s.Action != actUpload && s.Action != actDownload && s.Action != actUpdate {
			continue
		}
		g.Go(func() error {
			var r *cms.TreeResult
			var err error
			if upload {
				parent, ok := p.folders[fold(path.Dir(s.Path))]
				if path.Dir(s.Path) == "." {
					parent, ok = p.folders[""], true
				}
				if !ok {
					fail(s, errors.New("its folder was not made"))
					return nil
				}
				r, err = c.Transfers.UploadFile(gctx, s.abs, parent, &one)
			} else {
				r, err = c.Transfers.DownloadFile(gctx, s.id, s.abs, &one)
			}
			if r != nil {
				merge(r)
			} else if err != nil {
				fail(s, err)
			}
			return nil
		})
	}
	_ = g.Wait()
	if ctx.Err() != nil {
		return res
	}
	// Deletions, last (as a tree transfer's Mirror).
	for _, s := range p.steps {
		var err error
		switch {
		case s.Action == actTrash && s.typ == kindFolder:
			_, err = c.Folders.Delete(ctx, s.id, &cms.DeleteFolderOptions{Recursive: true})
		case s.Action == actTrash:
			_, err = c.Files.Delete(ctx, s.id, nil)
		case s.Action == actDelete:
			err = os.RemoveAll(filepath.Clean(s.abs))
		default:
			continue
		}
		if err != nil {
			fail(s, err)
			continue
		}
		res.Deleted++
	}
	return res
}
