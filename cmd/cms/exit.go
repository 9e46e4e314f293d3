package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/contentapi/cms"
)

// Exit statuses, by kind of failure (as rclone has them). They are
// documented in docs/cli.md and in `cms --help`; scripts rely on them.
const (
	exitOK          = 0   // everything done
	exitFailed      = 1   // any other error
	exitUsage       = 2   // the command line cannot run: unknown command or flag, wrong arguments
	exitNotFound    = 3   // the file, folder or path does not exist
	exitConflict    = 4   // an item of that name exists already, or a precondition failed (409, 412)
	exitRetryable   = 5   // temporary: rate limited, a server error, the network; trying again may work
	exitAuth        = 6   // no credentials, or refused ones; or not allowed (401, 403)
	exitPartial     = 7   // a transfer completed, but some files failed
	exitInterrupted = 130 // interrupted (ctrl-C, SIGTERM)
)

// exitHelp is the exit status table of `cms --help`.
const exitHelp = `Exit status:
  0    ok
  1    other error
  2    usage: unknown command or flag, wrong arguments, an id without its kind where one is needed
  3    not found: no such file, folder or path
  4    conflict: an item of that name exists already, or a precondition failed
  5    temporary: rate limited, a server error or the network; trying again may work
  6    auth: no credentials, refused ones, or not allowed
  7    partial transfer: some files failed, the rest was done
  130  interrupted (ctrl-C, SIGTERM)
`

// usageError is a command line that cannot run.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// errPartial is the error of a transfer that completed with failed files
// (they were listed already).
var errPartial = errors.New("some files failed")

// errNoCredentials is a missing CMS_TOKEN and --app-config.
var errNoCredentials = errors.New("set CMS_TOKEN, or give --app-config FILE")

// exitCode is the status err ends the command with; ctx is the command's
// context (its cancellation is an interruption).
func exitCode(ctx context.Context, err error) int {
	var ue usageError
	var apiErr *cms.APIError
	var netErr net.Error
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil && errors.Is(err, context.Canceled), errors.Is(err, errInterrupted):
		return exitInterrupted
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, errPartial):
		return exitPartial
	case errors.Is(err, errNoCredentials):
		return exitAuth
	case errors.As(err, &apiErr):
		switch {
		case errors.Is(err, cms.ErrNotFound):
			return exitNotFound
		case errors.Is(err, cms.ErrConflict), errors.Is(err, cms.ErrPreconditionFailed):
			return exitConflict
		case errors.Is(err, cms.ErrUnauthorized), errors.Is(err, cms.ErrForbidden):
			return exitAuth
		case errors.Is(err, cms.ErrRateLimited), errors.Is(err, cms.ErrServer):
			return exitRetryable
		}
		return exitFailed
	case errors.Is(err, errNotFound), errors.Is(err, fs.ErrNotExist):
		return exitNotFound
	case errors.Is(err, errConflict):
		return exitConflict
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr):
		return exitRetryable
	}
	return exitFailed
}

// errInterrupted is said when the command was interrupted.
var errInterrupted = errors.New("interrupted")

// errNotFound and errConflict are the command's own not-found and conflict
// (a path that does not resolve, a name taken by an item of another kind).
var (
	errNotFound = errors.New("not found")
	errConflict = errors.New("conflict")
)

// urlPattern finds the URLs in an error's text.
var urlPattern = regexp.MustCompile(`https?://[^\s"']+`)

// errorText is err as one readable line: exactly one "cms: " prefix (the
// SDK's errors carry their own, and wrapping doubles it), the command's
// name, URLs decoded and without their query, and the secrets of the
// environment never shown.
func errorText(cmdName string, err error, secrets ...string) string {
	msg := urlPattern.ReplaceAllStringFunc(err.Error(), readableURL)
	for strings.Contains(msg, "cms: ") { // a removal may join a new one ("cmcms: s: ")
		msg = strings.ReplaceAll(msg, "cms: ", "")
	}
	for _, s := range secrets {
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "[redacted]")
		}
	}
	if cmdName != "" {
		return "cms: " + cmdName + ": " + msg
	}
	return "cms: " + msg
}

// readableURL is raw with its path decoded and its query dropped (the SDK
// redacts credentials in it; a query is noise in an error line).
func readableURL(raw string) string {
	trail := ""
	for strings.HasSuffix(raw, ":") || strings.HasSuffix(raw, ",") || strings.HasSuffix(raw, ")") {
		trail = raw[len(raw)-1:] + trail
		raw = raw[:len(raw)-1]
	}
	u, err := url.Parse(raw)
	if err != nil {
		return raw + trail
	}
	return u.Scheme + "://" + u.Host + u.Path + trail
}

// errorJSON is the --json object of a fatal error.
type errorJSON struct {
	Error    string `json:"error"`
	ExitCode int    `json:"exit_code"`
	Status   int    `json:"status,omitempty"`     // the HTTP status of a service error
	Code     string `json:"code,omitempty"`       // the service's error code
	Request  string `json:"request_id,omitempty"` // the service's request id
}

// reportError prints err to stderr (and as a JSON object to stdout with
// --json) and returns the exit status.
func reportError(ctx context.Context, cmdName string, err error, asJSON bool, stdout, stderr io.Writer, secrets ...string) int {
	code := exitCode(ctx, err)
	if code == exitInterrupted {
		err = errInterrupted
	}
	text := errorText(cmdName, err, secrets...)
	if !errors.Is(err, errPartial) {
		fmt.Fprintln(stderr, text)
	}
	var ue usageError
	if errors.As(err, &ue) {
		name := "cms"
		if cmdName != "" {
			name += " " + cmdName
		}
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", name)
	}
	if asJSON && !errors.Is(err, errPartial) {
		j := errorJSON{Error: text, ExitCode: code}
		var apiErr *cms.APIError
		if errors.As(err, &apiErr) {
			j.Status, j.Code, j.Request = apiErr.StatusCode, apiErr.Code, apiErr.RequestID
		}
		printJSON(stdout, j)
	}
	return code
}
