package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

// app is one run of the command: its input, output, environment and the
// global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	g              globals
	// secrets are values never printed (the token, a share password).
	secrets []string
	// symlinks counts the symlinks an upload skipped.
	symlinks int
}

// globals are the flags of every command.
type globals struct {
	json      bool
	appConfig string
	asUser    string
	verbose   bool
	dryRun    bool
	exclude   []string
	include   []string
	// filter is exclude and include, checked.
	filter filter
}

const rootLong = `cms moves content to and from the Content Management Service (wire-compatible
with the Box Content API v2.0): whole trees both ways, only what differs (SHA-1),
and the everyday moves on files and folders.

Items are named by kind: file:ID, folder:ID, or a path from the root (/Reports/2024,
matched case-insensitively as the service does). Commands that can only mean a
folder (ls, mkdir's parent, upload's destination) take a bare folder id too; rm,
mv, rename, share and collab never guess the kind of a bare id.

Environment: CMS_BASE_URL and CMS_UPLOAD_URL (both, or neither for the public
service), CMS_TOKEN (or --app-config FILE), CMS_HASH_CACHE, CMS_UPLOAD_SESSIONS,
CMS_SHARE_PASSWORD. docs/cli.md has every command, flag and rule.

` + exitHelp

// run runs args and returns the exit status.
func (a *app) run(ctx context.Context, args []string) int {
	if t := a.getenv("CMS_TOKEN"); t != "" {
		a.secrets = append(a.secrets, t)
	}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	name := ""
	if cmd != nil && cmd != root {
		name = strings.TrimPrefix(cmd.CommandPath(), root.Name()+" ")
	}
	asJSON := a.g.json || slices.Contains(args, "--json")
	return reportError(ctx, name, err, asJSON, a.stdout, a.stderr, a.secrets...)
}

// rootCmd is the command tree.
func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:                        "cms",
		Short:                      "Move content to and from the Content Management Service",
		Long:                       rootLong,
		Version:                    version(),
		SilenceErrors:              true,
		SilenceUsage:               true,
		SuggestionsMinimumDistance: 2,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				msg := fmt.Sprintf("unknown command %q", args[0])
				if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %q?)", s[0])
				}
				return usageError{msg}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprint(a.stderr, cmd.UsageString())
			return usageError{"a command is needed"}
		},
	}
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		a.g.filter = filter{exclude: a.g.exclude, include: a.g.include}
		return a.g.filter.check()
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error()} })
	pf := root.PersistentFlags()
	pf.BoolVar(&a.g.json, "json", false, "print JSON on stdout (a summary as its last line; an error object on failure)")
	pf.StringVar(&a.g.appConfig, "app-config", "", "sign in with this app config file (JWT or client credentials) instead of CMS_TOKEN")
	pf.StringVar(&a.g.asUser, "as-user", "", "act as this user id (As-User header; needs an admin or app token)")
	pf.BoolVar(&a.g.dryRun, "dry-run", false, "say what upload, download, rm, mv, cp, rename and mkdir would do, and change nothing")
	pf.StringArrayVar(&a.g.exclude, "exclude", nil, "upload, download, ls -r, search: skip the paths that match this glob (**, *, ?, [..], {a,b}; without a /: a name at any depth); repeatable")
	pf.StringArrayVar(&a.g.include, "include", nil, "upload, download, ls -r, search: only the files that match this glob (as --exclude); repeatable")
	pf.BoolVarP(&a.g.verbose, "verbose", "v", false, "log requests and retries to stderr (tokens are never logged)")
	root.AddCommand(
		a.uploadCmd(), a.downloadCmd(), a.lsCmd(), a.mkdirCmd(), a.rmCmd(), a.infoCmd(), a.shareCmd(),
		a.mvCmd(), a.cpCmd(), a.renameCmd(), a.catCmd(), a.searchCmd(), a.trashCmd(), a.versionsCmd(),
		a.whoamiCmd(), a.collabCmd(), a.serveCmd(), a.versionCmd(),
	)
	return root
}

// nArgs checks that a command has between min and max arguments (max < 0:
// no maximum); what names them for the error.
func nArgs(minN, maxN int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < minN || (maxN >= 0 && len(args) > maxN) {
			return usagef("takes %s (got %d arguments)", what, len(args))
		}
		return nil
	}
}

// client is the SDK client of the environment and the global flags.
func (a *app) client() (*cms.Client, error) {
	var opts []cms.Option
	if a.g.asUser != "" {
		opts = append(opts, cms.WithAsUser(a.g.asUser))
	}
	if a.g.verbose {
		opts = append(opts, cms.WithLogger(slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	return newClient(a.getenv, a.g.appConfig, opts...)
}

// printJSON writes v as one JSON line.
func printJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", b)
}

// isUsage reports whether err is a usage error.
func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}
