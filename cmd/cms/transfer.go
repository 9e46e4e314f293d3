package main

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/contentapi/cms"
)

// summary is the --json line of upload and download. Scripts rely on
// files, skipped, failed and bytes.
type summary struct {
	Files   int   `json:"files"`   // files whose content moved (new or changed)
	Skipped int   `json:"skipped"` // files left alone (unchanged)
	Failed  int   `json:"failed"`  // paths that failed
	Bytes   int64 `json:"bytes"`   // content bytes of the files that moved
	Created int   `json:"created"`
	Updated int   `json:"updated"`
	Folders int   `json:"folders"`
	Deleted int   `json:"deleted"`
}

func summaryOf(res *cms.TreeResult) summary {
	return summary{Files: res.Created + res.Updated, Skipped: res.Skipped, Failed: len(res.Failures), Bytes: res.Bytes,
		Created: res.Created, Updated: res.Updated, Folders: res.Folders, Deleted: res.Deleted}
}

// report prints the failures to stderr and the summary to stdout.
func report(res *cms.TreeResult, asJSON bool, stdout, stderr io.Writer) bool {
	for _, f := range res.Failures {
		fmt.Fprintf(stderr, "failed: %s\n", f.Error())
	}
	s := summaryOf(res)
	if asJSON {
		b, _ := json.Marshal(s)
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprintf(stdout, "%d files sent or fetched (%d bytes), %d unchanged, %d folders made, %d deleted, %d failed\n",
			s.Files, s.Bytes, s.Skipped, s.Folders, s.Deleted, s.Failed)
	}
	return s.Failed > 0
}

// transferFlags are the flags of upload and download.
type transferFlags struct {
	del         bool
	concurrency int
	quiet       bool
	noCache     bool
}

// addCommonTransferFlags adds the flags upload and download share.
func addCommonTransferFlags(fs *flag.FlagSet, tf *transferFlags) {
	fs.IntVar(&tf.concurrency, "concurrency", 0, "transfers in flight, files and parts of big files together (default 16)")
	fs.BoolVar(&tf.quiet, "quiet", false, "no progress")
	fs.BoolVar(&tf.noCache, "no-hash-cache", false, "hash every local file again instead of trusting the cache of earlier runs")
}

// hashes opens the hash cache (nil with --no-hash-cache).
func (tf *transferFlags) hashes(getenv func(string) string) *hashCache {
	if tf.noCache {
		return nil
	}
	p := hashCachePath(getenv)
	if p == "" {
		return nil
	}
	return loadHashCache(p)
}

// treeOptions are the SDK options of a tree transfer.
func (tf *transferFlags) treeOptions(h *hashCache, progress func(cms.Progress)) *cms.TreeOptions {
	o := &cms.TreeOptions{Mirror: tf.del, Concurrency: tf.concurrency, Progress: progress}
	if h != nil {
		o.Hashes = h
	}
	return o
}

func cmdUpload(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) (bool, error) {
	fs, common := newFlagSet("upload", "upload [--delete] [--json] SRC FOLDER_ID", stderr)
	tf := &transferFlags{}
	fs.BoolVar(&tf.del, "delete", false, "move to the trash what the folder has and SRC does not (a directory SRC only)")
	addCommonTransferFlags(fs, tf)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return false, err
	}
	if len(pos) != 2 {
		return false, usageError{"upload takes SRC and FOLDER_ID"}
	}
	src, folderID := pos[0], trimID(pos[1])
	c, err := newClient(getenv, common.appConfig)
	if err != nil {
		return false, err
	}
	fi, err := os.Stat(src)
	if err != nil {
		return false, err
	}
	bar := newProgress(stderr, "upload", tf.quiet)
	defer bar.done()
	var res *cms.TreeResult
	if fi.IsDir() {
		h := tf.hashes(getenv)
		res, err = c.Transfers.UploadDir(ctx, src, folderID, tf.treeOptions(h, bar.update))
		if h != nil {
			if serr := h.save(); serr != nil {
				fmt.Fprintf(stderr, "cms: saving the hash cache: %v\n", serr)
			}
		}
	} else {
		res, err = uploadFile(ctx, c, src, fi, folderID, bar.update)
	}
	if res == nil {
		return false, err
	}
	bar.done()
	failed := report(res, common.json, stdout, stderr)
	return failed, err
}

// uploadFile uploads one local file into a folder: a new file, a new
// version of the file of that name, or nothing when it is the same.
func uploadFile(ctx context.Context, c *cms.Client, src string, fi os.FileInfo, folderID string, progress func(cms.Progress)) (*cms.TreeResult, error) {
	res := &cms.TreeResult{}
	name := filepath.Base(src)
	fail := func(err error) (*cms.TreeResult, error) {
		res.Failures = append(res.Failures, cms.TreeFailure{Path: name, Err: err})
		return res, nil
	}
	var existing *cms.Item
	for it, err := range c.Folders.ListItemsByMarkerIter(ctx, folderID, &cms.ListItemsByMarkerOptions{Fields: []string{"name", "sha1"}}) {
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(it.Name, name) {
			existing = it
			break
		}
	}
	sum, err := fileSHA1(src)
	if err != nil {
		return fail(err)
	}
	if existing != nil && existing.File != nil && strings.EqualFold(existing.File.SHA1, sum) {
		res.Skipped = 1
		return res, nil
	}
	f, err := os.Open(src)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	mtime := fi.ModTime().UTC()
	switch {
	case existing == nil:
		_, _, err = c.Files.Upload(ctx, folderID, name, f, fi.Size(), &cms.UploadOptions{Progress: progress,
			OneRequest: &cms.OneRequestUploadOptions{ContentModifiedAt: mtime}, Chunked: &cms.ChunkedUploadOptions{ContentModifiedAt: mtime}})
		res.Created = 1
	case existing.File == nil:
		return fail(errors.New("a folder or web link of that name is in the folder"))
	default:
		_, _, err = c.Files.UploadVersion(ctx, existing.ID, f, fi.Size(), &cms.UploadVersionOptions{Progress: progress,
			OneRequest: &cms.OneRequestVersionOptions{ContentModifiedAt: mtime}, Chunked: &cms.ChunkedUploadOptions{ContentModifiedAt: mtime}})
		res.Updated = 1
	}
	if err != nil {
		res.Created, res.Updated = 0, 0
		return fail(err)
	}
	res.Bytes = fi.Size()
	return res, nil
}

func cmdDownload(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) (bool, error) {
	fs, common := newFlagSet("download", "download [--delete] [--json] FOLDER_ID|FILE_ID DST", stderr)
	tf := &transferFlags{}
	fs.BoolVar(&tf.del, "delete", false, "delete the local files and directories the folder does not have")
	addCommonTransferFlags(fs, tf)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return false, err
	}
	if len(pos) != 2 {
		return false, usageError{"download takes an id and DST"}
	}
	id, dst := trimID(pos[0]), pos[1]
	c, err := newClient(getenv, common.appConfig)
	if err != nil {
		return false, err
	}
	bar := newProgress(stderr, "download", tf.quiet)
	defer bar.done()
	var res *cms.TreeResult
	if _, _, ferr := c.Folders.Get(ctx, id, nil); ferr == nil {
		h := tf.hashes(getenv)
		res, err = c.Transfers.DownloadDir(ctx, id, dst, tf.treeOptions(h, bar.update))
		if h != nil {
			if serr := h.save(); serr != nil {
				fmt.Fprintf(stderr, "cms: saving the hash cache: %v\n", serr)
			}
		}
	} else if errors.Is(ferr, cms.ErrNotFound) {
		res, err = downloadFile(ctx, c, id, dst, bar.update)
	} else {
		return false, ferr
	}
	if res == nil {
		return false, err
	}
	bar.done()
	return report(res, common.json, stdout, stderr), err
}

// downloadFile writes one file to dst (a file path, or a directory to
// put it in): skipped when the local file has its SHA-1, else written to a
// temporary name, checked and renamed.
func downloadFile(ctx context.Context, c *cms.Client, id, dst string, progress func(cms.Progress)) (*cms.TreeResult, error) {
	f, _, err := c.Files.Get(ctx, id, nil)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dst); err == nil && fi.IsDir() {
		dst = filepath.Join(dst, f.Name)
	}
	res := &cms.TreeResult{}
	if sum, err := fileSHA1(dst); err == nil && strings.EqualFold(sum, f.SHA1) {
		res.Skipped = 1
		return res, nil
	}
	_, statErr := os.Stat(dst)
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.part")
	if err != nil {
		return nil, err
	}
	n, _, err := c.Files.DownloadTo(ctx, id, tmp, &cms.DownloadOptions{Progress: progress})
	if err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err == nil && !f.ContentModifiedAt.IsZero() {
		err = os.Chtimes(tmp.Name(), f.ContentModifiedAt, f.ContentModifiedAt)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		os.Remove(tmp.Name())
		res.Failures = append(res.Failures, cms.TreeFailure{Path: f.Name, Err: err})
		return res, nil
	}
	if statErr == nil {
		res.Updated = 1
	} else {
		res.Created = 1
	}
	res.Bytes = n
	return res, nil
}

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
