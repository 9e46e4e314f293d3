package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

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
		res, err = c.Transfers.UploadFile(ctx, src, folderID, tf.treeOptions(nil, bar.update))
	}
	if res == nil {
		return false, err
	}
	bar.done()
	failed := report(res, common.json, stdout, stderr)
	return failed, err
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
		res, err = c.Transfers.DownloadFile(ctx, id, dst, tf.treeOptions(nil, bar.update))
	} else {
		return false, ferr
	}
	if res == nil {
		return false, err
	}
	bar.done()
	return report(res, common.json, stdout, stderr), err
}
