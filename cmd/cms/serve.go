package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/contentapi/cms/cmd/internal/serveflags"
	"github.com/spf13/cobra"
)

func (a *app) serveCmd() *cobra.Command {
	goFlags := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg := serveflags.Register(goFlags)
	var env bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run a reference server (as cmd/refserver does) until interrupted",
		Long: `Run a reference server until interrupted, with every flag of cmd/refserver
(-v logs its requests; --app-config here is the server's: where to write a
registered app's config). It prints one JSON line (base_url, upload_url,
download_url, enterprise_id, tokens, users, webhook_keys, client_id), or with
--env the lines to eval in a shell:

  cms serve --env > cms.env &   # then, once the line is there:
  . ./cms.env                   # CMS_BASE_URL, CMS_UPLOAD_URL and CMS_TOKEN set`,
		Args: nArgs(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.Verbose = a.g.verbose
			if err := cfg.Validate(); err != nil {
				return usageError{err.Error()}
			}
			srv, line, err := cfg.Start(a.stderr)
			if err != nil {
				return err
			}
			if env {
				fmt.Fprintf(a.stdout, "export CMS_BASE_URL=%s CMS_UPLOAD_URL=%s CMS_TOKEN=%s\n",
					shellQuote(line.BaseURL), shellQuote(line.UploadURL), shellQuote(line.Tokens["user"]))
			} else {
				b, _ := json.Marshal(line)
				fmt.Fprintf(a.stdout, "%s\n", b)
			}
			<-cmd.Context().Done()
			return srv.Close()
		},
	}
	// The shared definition, but for -v: cms has its own (it sets Verbose).
	goFlags.VisitAll(func(f *flag.Flag) {
		if f.Name == serveflags.VerboseFlag {
			return
		}
		cmd.Flags().AddGoFlag(f)
		if f.DefValue == "0s" { // a zero duration: no "(default 0s)" after the text's own default
			cmd.Flags().Lookup(f.Name).DefValue = "0"
		}
	})
	cmd.Flags().BoolVar(&env, "env", false, "print eval-able export lines (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN of the managed user) instead of the JSON line")
	return cmd
}

// shellQuote quotes s for a POSIX shell: single quotes, with each single
// quote written as '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
