// Command cms moves content to and from the Content Management Service
// (wire-compatible with the Box Content API v2.0) from a terminal or a
// script.
//
//	cms upload SRC FOLDER_ID        a directory's tree (or one file) into a folder
//	cms download ID DST             a folder's tree (or one file) into DST
//	cms ls [-r] FOLDER_ID           a folder's items (-r: the whole tree)
//	cms mkdir PARENT_ID NAME        a new folder
//	cms rm ID                       a file or folder to the trash
//	cms info ID                     a file's or folder's record, as JSON
//	cms share [--password P] ID     a shared link's URL (--remove removes it)
//	cms serve [-addr HOST:PORT]     a reference server, for trying things out
//
// It reads CMS_BASE_URL (the API root, …/2.0), CMS_UPLOAD_URL (the upload
// root, …/api/2.0) and CMS_TOKEN from the environment — the roots exactly
// as cmd/refserver prints them — or signs in with an app's config file
// (--app-config FILE: JWT when it holds a key pair, client credentials
// otherwise). Only what differs is sent or fetched (SHA-1), nothing is
// deleted unless --delete, and --json (before or after the arguments)
// prints a summary as the last line of stdout:
// {"files":…,"skipped":…,"failed":…,"bytes":…} (and more). The exit status
// is 0 only when nothing failed; 2 for a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// usageError is a command line that cannot run.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const topUsage = `usage: cms <command> [flags] [arguments]

commands:
  upload SRC FOLDER_ID     upload a directory's tree, or one file, into a folder
  download ID DST          download a folder's tree, or one file, into DST
  ls [-r] FOLDER_ID        list a folder's items (-r: the whole tree)
  mkdir PARENT_ID NAME     make a folder
  rm ID                    move a file or a folder (with its content) to the trash
  info ID                  print a file's or folder's record as JSON
  share [--password P] ID  set a shared link and print its URL (--remove removes it)
  serve                    run a reference server (like cmd/refserver)

environment: CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN (or --app-config FILE)
Run "cms <command> --help" for a command's flags.
`

// run runs one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, topUsage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	cmd, rest := args[0], args[1:]
	var err error
	var failed bool
	switch cmd {
	case "upload":
		failed, err = cmdUpload(ctx, rest, stdout, stderr, getenv)
	case "download":
		failed, err = cmdDownload(ctx, rest, stdout, stderr, getenv)
	case "ls":
		err = cmdLs(ctx, rest, stdout, stderr, getenv)
	case "mkdir":
		err = cmdMkdir(ctx, rest, stdout, stderr, getenv)
	case "rm":
		err = cmdRm(ctx, rest, stdout, stderr, getenv)
	case "info":
		err = cmdInfo(ctx, rest, stdout, stderr, getenv)
	case "share":
		err = cmdShare(ctx, rest, stdout, stderr, getenv)
	case "serve":
		err = cmdServe(ctx, rest, stdout, stderr)
	default:
		err = usageError{fmt.Sprintf("unknown command %q", cmd)}
	}
	var ue usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "cms %s: %s\n\n%s", cmd, ue.msg, topUsage)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "cms %s: %v\n", cmd, err)
		return exitFailed
	case failed:
		return exitFailed
	}
	return exitOK
}

// parseInterspersed parses flags found anywhere among the arguments
// (--json after the positional ones too) and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// newFlagSet is a command's flag set, with the flags every command has.
func newFlagSet(name, usage string, stderr io.Writer) (*flag.FlagSet, *commonFlags) {
	fs := flag.NewFlagSet("cms "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &commonFlags{}
	fs.BoolVar(&c.json, "json", false, "print a JSON summary as the last line of stdout")
	fs.StringVar(&c.appConfig, "app-config", "", "sign in with this app config file (JWT or client credentials) instead of CMS_TOKEN")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: cms %s\n\nflags:\n", usage)
		fs.PrintDefaults()
	}
	return fs, c
}

// commonFlags are the flags of every command that talks to a service.
type commonFlags struct {
	json      bool
	appConfig string
}

// trimID keeps an id as typed ("folder 123" is no id).
func trimID(s string) string { return strings.TrimSpace(s) }
