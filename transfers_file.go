package cms

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// UploadFile uploads one local file into the folder folderID by the rules
// of UploadDir: a new file, a new version of the file of that name
// (POST {upload_url}/files/{file_id}/content), or nothing when its SHA-1
// already matches; the folder's items are read to find it
// (GET /folders/{folder_id}/items). A file the Filter leaves out (called
// with its name) is left alone. A failure is in the result, as for a
// tree.
func (s *TransfersService) UploadFile(ctx context.Context, src, folderID string, opts *TreeOptions) (*TreeResult, error) {
	if err := firstErr(checkCtx(ctx), checkID("folder", folderID)); err != nil {
		return nil, err
	}
	t, err := newTreeRun(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer t.stop()
	name := filepath.Base(src)
	if !t.keep(name, false) {
		return t.result(ctx) // left out: nothing read or sent
	}
	var have *Item
	for it, err := range s.client.Folders.ListItemsByMarkerIter(t.ctx, folderID, &ListItemsByMarkerOptions{Fields: []string{"name", "sha1"}}) {
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(it.Name, name) {
			have = it
			break
		}
	}
	fi, err := os.Stat(src) // the file the caller names is followed
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		t.fail(name, ErrNotRegularFile)
		return t.result(ctx)
	}
	if err := checkItemName("name", name); err != nil {
		t.fail(name, err)
		return t.result(ctx)
	}
	t.addTotals(1, fi.Size())
	f := localFile{rel: name, path: src, size: fi.Size(), mtime: mtimeOrZero(fi)}
	if err := s.uploadOne(t, f, folderID, have, min(t.opts.Concurrency, maxPartsPerFile)); err != nil {
		t.fail(name, err)
	}
	return t.result(ctx)
}

// DownloadFile downloads one file to dst by the rules of DownloadDir (GET
// /files/{file_id}, then GET /files/{file_id}/content): dst is the file to
// write, or a directory to write it into under its name; a local file with
// the same SHA-1 is left alone, another is replaced atomically; so is a
// file the Filter leaves out (called with its name). A failure is in the
// result, as for a tree.
func (s *TransfersService) DownloadFile(ctx context.Context, fileID, dst string, opts *TreeOptions) (*TreeResult, error) {
	if err := firstErr(checkCtx(ctx), checkID("file", fileID)); err != nil {
		return nil, err
	}
	t, err := newTreeRun(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer t.stop()
	f, _, err := s.client.Files.Get(t.ctx, fileID, nil)
	if err != nil {
		return nil, err
	}
	if !t.keep(f.Name, false) {
		return t.result(ctx) // left out: nothing fetched or written
	}
	if fi, err := os.Stat(dst); err == nil && fi.IsDir() {
		if err := checkLocalName(f.Name); err != nil {
			return nil, err // the server's name would lead out of dst
		}
		dst = filepath.Join(dst, f.Name)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	t.addTotals(1, f.Size)
	it := &Item{Type: string(ItemTypeFile), ID: f.ID, Name: f.Name, ETag: f.ETag, File: f}
	if err := s.downloadOne(t, it, f.Name, dst); err != nil {
		t.fail(f.Name, err)
	}
	return t.result(ctx)
}
