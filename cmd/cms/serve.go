package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/contentapi/cms/refserver"
)

// cmdServe runs a reference server until interrupted, printing one JSON
// line as cmd/refserver does (base_url, upload_url, download_url, tokens,
// webhook_keys); cmd/refserver has every other option.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("cms serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts refserver.Options
	fs.StringVar(&opts.Addr, "addr", "127.0.0.1:0", "the API listener's address")
	fs.StringVar(&opts.DataDir, "data", "", "persist the whole state in this directory")
	fs.StringVar(&opts.UserToken, "user-token", "", "the managed user's token (default: random)")
	fs.StringVar(&opts.AdminToken, "admin-token", "", "the admin's token (default: random)")
	seed := fs.Bool("seed", false, "add demo content")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{"serve takes no arguments"}
	}
	srv, err := refserver.Start(opts)
	if err != nil {
		return err
	}
	if *seed && !srv.Restored() {
		if err := srv.Seed(); err != nil {
			srv.Close()
			return err
		}
	}
	primary, secondary := srv.WebhookKeys()
	line, _ := json.Marshal(map[string]any{
		"base_url": srv.BaseURL(), "upload_url": srv.UploadURL(), "download_url": srv.DownloadURL(),
		"tokens":       map[string]string{"admin": srv.AdminToken(), "user": srv.UserToken(), "app": srv.AppToken()},
		"webhook_keys": map[string]string{"primary": primary, "secondary": secondary},
	})
	fmt.Fprintf(stdout, "%s\n", line)
	<-ctx.Done()
	return srv.Close()
}
