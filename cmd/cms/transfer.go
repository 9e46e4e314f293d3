package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// summary is the --json line of upload and download. Scripts rely on
// files, skipped, failed and bytes.
type summary struct {
	Files   int   `json:"files"`   // files whose content moved (new or changed)
	Skipped int   `json:"skipped"` // files left alone (unchanged)
	Failed  int   `json:"failed"`  // paths that failed
	Bytes   int64 `json:"bytes"`   // content bytes of the files that moved
	// SkippedBytes are the bytes of the unchanged files (never sent).
	SkippedBytes int64 `json:"skipped_bytes"`
	Created      int   `json:"created"`
	Updated      int   `json:"updated"`
	Folders      int   `json:"folders"`
	Deleted      int   `json:"deleted"`
	// Symlinks counts the symlinks met in the tree and skipped.
	Symlinks int `json:"symlinks,omitzero"`
}

func summaryOf(res *cms.TreeResult) summary {
	return summary{Files: res.Created + res.Updated, Skipped: res.Skipped, Failed: len(res.Failures), Bytes: res.Bytes, SkippedBytes: res.SkippedBytes,
		Created: res.Created, Updated: res.Updated, Folders: res.Folders, Deleted: res.Deleted}
}

// report prints the failures to stderr and the summary to stdout.
func report(res *cms.TreeResult, symlinks int, asJSON bool, stdout, stderr io.Writer) bool {
	for _, f := range res.Failures {
		fmt.Fprintln(stderr, "failed: "+strings.ReplaceAll(f.Error(), "cms: ", ""))
	}
	s := summaryOf(res)
	s.Symlinks = symlinks
	if asJSON {
		b, _ := json.Marshal(s)
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprintf(stdout, "%d files sent or fetched (%d bytes), %d unchanged, %d folders made, %d deleted, %d failed",
			s.Files, s.Bytes, s.Skipped, s.Folders, s.Deleted, s.Failed)
		if s.Symlinks > 0 {
			fmt.Fprintf(stdout, ", %d symlinks skipped", s.Symlinks)
		}
		fmt.Fprintln(stdout)
	}
	return s.Failed > 0
}

// transferFlags are the flags of upload and download.
type transferFlags struct {
	del         bool
	concurrency int
	quiet       bool
	noCache     bool
	noResume    bool
	follow      bool
	// chunkedThreshold is the size from which a file goes in an upload
	// session (0: the SDK's default).
	chunkedThreshold int64
}

// addCommonTransferFlags adds the flags upload and download share.
func addCommonTransferFlags(fs *pflag.FlagSet, tf *transferFlags) {
	fs.IntVar(&tf.concurrency, "concurrency", 0, "transfers in flight, files and parts of big files together (default 16)")
	fs.BoolVarP(&tf.quiet, "quiet", "q", false, "no progress")
	fs.BoolVar(&tf.noCache, "no-hash-cache", false, "hash every local file again instead of trusting the cache of earlier runs")
}

// hashes opens the hash cache (nil with --no-hash-cache): the SDK's
// FileHashCache, at CMS_HASH_CACHE or in the user's cache directory. An
// unreadable one is said and started afresh (it only saves work).
func (a *app) hashes(tf *transferFlags) *cms.FileHashCache {
	if tf.noCache {
		return nil
	}
	p := a.getenv("CMS_HASH_CACHE")
	if p == "" {
		var err error
		if p, err = cms.DefaultHashCachePath(); err != nil {
			return nil
		}
	}
	h, err := cms.LoadFileHashCache(p)
	if err != nil {
		fmt.Fprintln(a.stderr, errorText("", fmt.Errorf("the hash cache (starting afresh): %w", err), a.secrets...))
	}
	return h
}

// sessions opens the store of the upload sessions an interrupted upload
// keeps for the next run to resume (nil with --no-resume: they are
// aborted), at CMS_UPLOAD_SESSIONS or next to the hash cache.
func (a *app) sessions(tf *transferFlags) (*cms.FileSessionStore, error) {
	if tf.noResume {
		return nil, nil
	}
	p := a.getenv("CMS_UPLOAD_SESSIONS")
	if p == "" {
		hp, err := cms.DefaultHashCachePath()
		if err != nil {
			return nil, nil
		}
		p = filepath.Join(filepath.Dir(hp), "upload-sessions.json")
	}
	s, err := cms.LoadFileSessionStore(p)
	if err != nil {
		return nil, fmt.Errorf("the upload session store %s: %w", p, err)
	}
	return s, nil
}

// treeOptions are the SDK options of a transfer. The filter of --exclude
// and --include is the SDK's TreeOptions.Filter (what it leaves out is
// never sent, fetched or deleted); with an include, the folders walked
// into to find its files are made only when they hold one.
func (tf *transferFlags) treeOptions(f filter, h *cms.FileHashCache, s *cms.FileSessionStore, progress func(cms.Progress)) *cms.TreeOptions {
	o := &cms.TreeOptions{Mirror: tf.del, Concurrency: tf.concurrency, Progress: progress, FollowSymlinks: tf.follow,
		ChunkedThreshold: tf.chunkedThreshold, Filter: f.treeFilter(), PruneEmptyDirs: len(f.include) > 0}
	if h != nil {
		o.Hashes = h
	}
	if s != nil {
		o.Sessions = s
	}
	return o
}

// saveHashes writes the hash cache back, saying so when it cannot.
func (a *app) saveHashes(h *cms.FileHashCache) {
	if h == nil {
		return
	}
	if err := h.Save(); err != nil {
		fmt.Fprintln(a.stderr, errorText("", fmt.Errorf("saving the hash cache: %w", err), a.secrets...))
	}
}

// finish reports a transfer's result and turns failed files into
// errPartial; an interruption (ctx cancelled: ctrl-C, SIGTERM) is
// errInterrupted, whatever the transfer made of it, and its files that
// failed only because of it are not listed.
func (a *app) finish(ctx context.Context, res *cms.TreeResult, err error) error {
	interrupted := ctx.Err() != nil
	if res != nil && interrupted {
		kept := res.Failures[:0]
		for _, f := range res.Failures {
			if !errors.Is(f.Err, context.Canceled) {
				kept = append(kept, f)
			}
		}
		res.Failures = kept
	}
	switch {
	case res == nil && interrupted:
		return errInterrupted
	case res == nil:
		return err
	}
	failed := report(res, a.symlinks, a.g.json, a.stdout, a.stderr)
	switch {
	case interrupted:
		return errInterrupted
	case err != nil:
		return err
	case failed:
		return errPartial
	}
	return nil
}

func (a *app) uploadCmd() *cobra.Command {
	tf := &transferFlags{}
	cmd := &cobra.Command{
		Use:   "upload SRC FOLDER",
		Short: "Upload a directory's tree, or one file, into a folder",
		Long: `Upload a directory's tree (empty directories too), or one file, into a folder.
Only what differs is sent (SHA-1); nothing is deleted unless --delete.`,
		Args: nArgs(2, 2, "SRC and FOLDER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			src := args[0]
			c, err := a.client()
			if err != nil {
				return err
			}
			folderID, err := folderID(ctx, c, args[1])
			if err != nil {
				return err
			}
			// A SRC that is a symlink is followed here, once, and the walk
			// starts from its target: the walk does not follow links, so
			// walking the link itself would see an empty tree (and --delete
			// would trash everything in the folder).
			if real, err := filepath.EvalSymlinks(src); err != nil {
				return err
			} else if real != src {
				if lfi, err := os.Lstat(src); err == nil && lfi.Mode()&os.ModeSymlink != 0 {
					src = real
				}
			}
			fi, err := os.Stat(src)
			if err != nil {
				return err
			}
			if a.g.dryRun {
				p, err := planUpload(ctx, c, src, folderID, tf, a.hashes(tf), a.g.filter)
				if err != nil {
					return err
				}
				a.printPlan(p)
				return nil
			}
			store, err := a.sessions(tf)
			if err != nil {
				return err
			}
			bar := newProgress(a.stderr, "upload", tf.quiet)
			defer bar.done()
			var res *cms.TreeResult
			if fi.IsDir() {
				h := a.hashes(tf)
				res, err = c.Transfers.UploadDir(ctx, src, folderID, tf.treeOptions(a.g.filter, h, store, bar.update))
				a.saveHashes(h)
				a.noteSymlinks(res)
			} else {
				res, err = c.Transfers.UploadFile(ctx, src, folderID, tf.treeOptions(a.g.filter, nil, store, bar.update))
			}
			bar.done()
			if ctx.Err() != nil && store != nil && store.Len() > 0 {
				fmt.Fprintf(a.stderr, "%d upload sessions kept: the next upload resumes them (--no-resume aborts them instead)\n", store.Len())
			}
			return a.finish(ctx, res, err)
		},
	}
	cmd.Flags().BoolVar(&tf.del, "delete", false, "move to the trash what the folder has and SRC does not (a directory SRC only)")
	cmd.Flags().Int64Var(&tf.chunkedThreshold, "chunked-threshold", 0, "files of at least this many bytes go in upload sessions, in parts (default 20000000; the service's minimum applies)")
	cmd.Flags().BoolVar(&tf.noResume, "no-resume", false, "abort the upload sessions an interruption leaves, instead of keeping them for the next run to resume")
	cmd.Flags().BoolVarP(&tf.follow, "copy-links", "L", false, "follow symlinks in the tree (a loop is reported); by default they are skipped with a notice")
	addCommonTransferFlags(cmd.Flags(), tf)
	return cmd
}

func (a *app) downloadCmd() *cobra.Command {
	tf := &transferFlags{}
	cmd := &cobra.Command{
		Use:   "download ITEM DST",
		Short: "Download a folder's tree, or one file, into DST",
		Long: `Download a folder's tree, or one file, into the directory DST. ITEM is
file:ID, folder:ID or a /path; a bare id is taken when only one of a file and a
folder has it. Only what differs is fetched (SHA-1); nothing is deleted unless
--delete.`,
		Args: nArgs(2, 2, "an ITEM and DST"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			dst := args[1]
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolveArg(ctx, c, args[0], unambiguous)
			if err != nil {
				return err
			}
			if it.file != nil {
				if err := safeName(it.file.Name); err != nil {
					return err
				}
			}
			if a.g.dryRun {
				p, err := planDownload(ctx, c, it, dst, tf, a.hashes(tf), a.g.filter)
				if err != nil {
					return err
				}
				a.printPlan(p)
				return nil
			}
			bar := newProgress(a.stderr, "download", tf.quiet)
			defer bar.done()
			var res *cms.TreeResult
			if it.folder != nil {
				h := a.hashes(tf)
				res, err = c.Transfers.DownloadDir(ctx, it.id(), dst, tf.treeOptions(a.g.filter, h, nil, bar.update))
				a.saveHashes(h)
			} else {
				res, err = c.Transfers.DownloadFile(ctx, it.id(), dst, tf.treeOptions(a.g.filter, nil, nil, bar.update))
			}
			bar.done()
			return a.finish(ctx, res, err)
		},
	}
	cmd.Flags().BoolVar(&tf.del, "delete", false, "delete the local files and directories the folder does not have")
	addCommonTransferFlags(cmd.Flags(), tf)
	return cmd
}

// noteSymlinks prints a notice for each symlink an upload skipped (not a
// failure: rsync and rclone skip them too; -L follows them).
func (a *app) noteSymlinks(res *cms.TreeResult) {
	if res == nil {
		return
	}
	for _, e := range res.Entries {
		if e.Outcome == cms.OutcomeSymlink {
			fmt.Fprintf(a.stderr, "skipped symlink: %s (not followed; -L follows)\n", e.Path)
			a.symlinks++
		}
	}
}

// safeName refuses a file name the service sent that would not stay in the
// download's directory (a separator, "..", NUL), whatever the SDK checks.
func safeName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") {
		return fmt.Errorf("the file's name %q would leave the target directory: refused", name)
	}
	return nil
}
