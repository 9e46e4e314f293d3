// Command refserver runs the reference server of the Content API on three
// listeners (API root, upload root, content host), prints one JSON line
// describing it on standard output, and serves until interrupted.
//
//	go run ./cmd/refserver -addr 127.0.0.1:8080 -seed
//
// With -data DIR the server is persisted in DIR (file content and the
// whole state, committed before each answer): started again on the same
// directory, it resumes where it stopped, even after a kill, with the same
// tokens (those given by flags replace the stored ones), so the startup
// line prints the same tokens; -seed and -device-pins apply to a fresh
// directory only.
//
// Web pages of any origin may call it from a browser (CORS), as Box UI
// Elements do; -cors-origins limits that to the origins it lists.
//
// The process holds its memory to about 1.5 times the state it holds live
// (a memory limit moved after each garbage collection; -memory-headroom,
// docs/refserver.md "Memory"), unless GOGC or GOMEMLIMIT is set.
//
// With -app-config FILE it also registers an app authorized in the
// enterprise and writes the app's config.json (client id and secret, an
// encrypted private key with its passphrase and key id, the enterprise id)
// to FILE before printing the line, which then has the app's "client_id":
// any SDK can sign in with client credentials or JWT against the server.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/contentapi/cms/cmd/internal/serveflags"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, errorLine(err))
		os.Exit(1)
	}
}

// errorLine is the line main prints for err: prefixed "refserver: " once
// (the package's errors carry the prefix already).
func errorLine(err error) string {
	return "refserver: " + strings.TrimPrefix(err.Error(), "refserver: ")
}

// run parses args, starts the server, writes the startup line to stdout and
// serves until ctx is done. Logs go to standard error, only with -v. The
// flags are defined once, in cmd/internal/serveflags, for `cms serve` too.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	stderr := os.Stderr
	fs := flag.NewFlagSet("refserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := serveflags.Register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	srv, startup, err := cfg.Start(stderr)
	if err != nil {
		return err
	}
	defer srv.Close()
	line, err := json.Marshal(startup)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", line); err != nil {
		return err
	}
	<-ctx.Done()
	return srv.Close()
}
