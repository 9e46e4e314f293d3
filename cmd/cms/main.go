// Command cms moves content to and from the Content Management Service
// (wire-compatible with the Box Content API v2.0) from a terminal or a
// script: whole trees both ways, and the everyday moves on files and
// folders. docs/cli.md describes every command, flag, id form and exit
// status; `cms --help` and `cms COMMAND --help` too.
//
// It reads CMS_BASE_URL (the API root, …/2.0), CMS_UPLOAD_URL (the upload
// root, …/api/2.0) and CMS_TOKEN from the environment — the roots exactly
// as cmd/refserver prints them — or signs in with an app's config file
// (--app-config FILE: JWT when it holds a key pair, client credentials
// otherwise).
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, a second one ends the process at once.
		<-ctx.Done()
		stop()
	}()
	a := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	code := a.run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// run runs one command line with an empty standard input and returns the
// exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{stdin: eofReader{}, stdout: stdout, stderr: stderr, getenv: getenv}
	return a.run(ctx, args)
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
