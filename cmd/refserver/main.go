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
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/contentapi/cms/refserver"
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

// startupLine is the one JSON line printed on start; scripts depend on it.
type startupLine struct {
	BaseURL      string            `json:"base_url"`
	UploadURL    string            `json:"upload_url"`
	DownloadURL  string            `json:"download_url"`
	EnterpriseID string            `json:"enterprise_id"`
	Tokens       map[string]string `json:"tokens"`
	Users        map[string]string `json:"users"`
	// WebhookKeys are the keys deliveries are signed with.
	WebhookKeys map[string]string `json:"webhook_keys"`
	// ClientID is the app registered by -app-config.
	ClientID string `json:"client_id,omitempty"`
}

// defaultRequestLog is the command's request log size: a modest ring, since
// the command itself never reads the log.
const defaultRequestLog = 1000

// run parses args, starts the server, writes the startup line to stdout and
// serves until ctx is done. Logs go to standard error, only with -v.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	stderr := os.Stderr
	fs := flag.NewFlagSet("refserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		opts    refserver.Options
		seed    bool
		verbose bool
		appCfg  string
		pins    int
		allow   string
	)
	fs.StringVar(&opts.Addr, "addr", "127.0.0.1:0", "API listener address")
	fs.StringVar(&opts.UploadAddr, "upload-addr", "", "upload listener address (default: a free port)")
	fs.StringVar(&opts.DownloadAddr, "download-addr", "", "content host listener address (default: a free port)")
	fs.StringVar(&opts.AdminToken, "admin-token", "", "bearer token of the enterprise admin (default: random)")
	fs.StringVar(&opts.UserToken, "user-token", "", "bearer token of the managed user (default: random)")
	fs.StringVar(&opts.AppToken, "app-token", "", "bearer token of the app (default: random)")
	fs.BoolVar(&seed, "seed", false, "add demo folders and files (and device pins)")
	fs.IntVar(&pins, "device-pins", 0, "pin this many devices to the admin's and the managed user's accounts (the API has no call that creates pins)")
	fs.StringVar(&opts.DataDir, "data", "", "persist the server in this directory: file content and the whole state (state.db and its commit log), "+
		"committed before each answer; a restart on the same directory resumes it with the same tokens (default: memory only)")
	fs.Int64Var(&opts.PartSize, "part-size", 0, "part_size of upload sessions in bytes (default 8388608)")
	fs.Int64Var(&opts.ChunkedMinSize, "chunked-min-size", 0, "minimum file_size of upload sessions in bytes (default 20000000)")
	fs.BoolVar(&opts.IgnoreContentAuthorization, "ignore-content-auth", false,
		"content host ignores an Authorization header, as the real one does (default: refuse it with 400)")
	fs.DurationVar(&opts.LegalHoldReleaseDelay, "legal-hold-delay", 0,
		"how long legal hold policies stay applying/releasing and deleted assignments stay listed (default 2s; negative: at once)")
	fs.BoolVar(&verbose, "v", false, "log requests to standard error")
	fs.DurationVar(&opts.CloseGrace, "close-grace", 0, "how long a stop (SIGTERM, interrupt) lets requests in flight finish before it closes their connections (default 2s)")
	fs.StringVar(&opts.WebhookPrimaryKey, "webhook-primary-key", "", "the primary key webhook deliveries are signed with (default: random, kept with -data)")
	fs.StringVar(&opts.WebhookSecondaryKey, "webhook-secondary-key", "", "the secondary key webhook deliveries are signed with (default: random, kept with -data)")
	fs.StringVar(&allow, "webhook-allow-hosts", "", "comma-separated hosts webhooks may deliver to besides public https on port 443 and http on loopback: "+
		"host names, IP addresses or CIDR prefixes (10.0.0.0/8), with any scheme and port")
	fs.DurationVar(&opts.SearchIndexDelay, "search-delay", 0, "how long a new or changed item waits before search sees the change, "+
		"as the service indexes asynchronously (default 0: at once)")
	fs.IntVar(&opts.EventHistory, "event-history", 0, "how many events GET /events keeps (default 10000; negative records none)")
	fs.DurationVar(&opts.LongPollTimeout, "long-poll-timeout", 0, "how long a long poll of the event stream waits before it answers reconnect (default 60s)")
	fs.IntVar(&opts.RequestLogSize, "request-log", defaultRequestLog,
		"how many of the newest requests the in-memory request log keeps (negative: none); the command never reads it, scripts of its embedders may")
	fs.StringVar(&appCfg, "app-config", "", "register an app authorized in the enterprise and write its config.json (client credentials and JWT) to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if allow != "" {
		opts.WebhookAllowedHosts = strings.Split(allow, ",")
	}
	if opts.PartSize < 0 || opts.ChunkedMinSize < 0 || pins < 0 {
		return errors.New("-part-size, -chunked-min-size and -device-pins must not be negative")
	}
	if verbose {
		opts.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	srv, err := refserver.Start(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	// A resumed state (-data) has its demo content and pins already.
	if seed && !srv.Restored() {
		if err := srv.Seed(); err != nil {
			return err
		}
	}
	if !srv.Restored() {
		if err := srv.AddDevicePins(pins); err != nil {
			return err
		}
	}
	clientID := ""
	if appCfg != "" {
		if clientID, err = srv.WriteAppConfig(appCfg); err != nil {
			return err
		}
	}
	primary, secondary := srv.WebhookKeys()
	line, err := json.Marshal(startupLine{
		BaseURL: srv.BaseURL(), UploadURL: srv.UploadURL(), DownloadURL: srv.DownloadURL(),
		EnterpriseID: srv.EnterpriseID(),
		Tokens:       map[string]string{"admin": srv.AdminToken(), "user": srv.UserToken(), "app": srv.AppToken()},
		Users:        map[string]string{"admin": srv.AdminUserID(), "user": srv.UserID()},
		WebhookKeys:  map[string]string{"primary": primary, "secondary": secondary},
		ClientID:     clientID,
	})
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", line); err != nil {
		return err
	}
	<-ctx.Done()
	return srv.Close()
}
