// Package serveflags is the one definition of the reference server's
// command-line flags and startup line, shared by cmd/refserver and
// `cms serve` so that the two cannot drift.
package serveflags

import (
	"errors"
	"flag"
	"io"
	"log/slog"
	"strings"

	"github.com/contentapi/cms/cmd/internal/memgoal"
	"github.com/contentapi/cms/refserver"
)

// DefaultRequestLog is the request log size of the commands: a modest ring,
// since the commands themselves never read the log.
const DefaultRequestLog = 1000

// Config is what the flags set: the server's options and what the command
// does once the server runs.
type Config struct {
	Options refserver.Options
	// Seed adds demo content to a fresh server.
	Seed bool
	// DevicePins pins this many devices on a fresh server.
	DevicePins int
	// AppConfig is where to write a registered app's config.json ("": none).
	AppConfig string
	// Verbose logs requests to the standard error of Start.
	Verbose bool
	// MemoryHeadroom is the memory goal of the process, in percent above
	// its live heap (memgoal); 0 leaves the collector to GOGC. A GOGC or
	// GOMEMLIMIT in the environment wins over it.
	MemoryHeadroom int
}

// VerboseFlag is the name of the flag that sets Config.Verbose; a command
// with a verbose flag of its own may skip it and set the field itself.
const VerboseFlag = "v"

// Register defines every flag on fs and returns the Config they fill.
func Register(fs *flag.FlagSet) *Config {
	c := &Config{}
	o := &c.Options
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:0", "API listener address")
	fs.StringVar(&o.UploadAddr, "upload-addr", "", "upload listener address (default: a free port)")
	fs.StringVar(&o.DownloadAddr, "download-addr", "", "content host listener address (default: a free port)")
	fs.StringVar(&o.AdminToken, "admin-token", "", "bearer token of the enterprise admin (default: random)")
	fs.StringVar(&o.UserToken, "user-token", "", "bearer token of the managed user (default: random)")
	fs.StringVar(&o.AppToken, "app-token", "", "bearer token of the app (default: random)")
	fs.BoolVar(&c.Seed, "seed", false, "add demo folders and files (and device pins)")
	fs.IntVar(&c.DevicePins, "device-pins", 0, "pin this many devices to the admin's and the managed user's accounts (the API has no call that creates pins)")
	fs.StringVar(&o.DataDir, "data", "", "persist the server in this directory: file content and the whole state (state.db and its commit log), "+
		"committed before each answer; a restart on the same directory resumes it with the same tokens (default: memory only)")
	fs.Int64Var(&o.PartSize, "part-size", 0, "part_size of upload sessions in bytes (default 8388608)")
	fs.Int64Var(&o.ChunkedMinSize, "chunked-min-size", 0, "minimum file_size of upload sessions in bytes (default 20000000)")
	fs.BoolVar(&o.IgnoreContentAuthorization, "ignore-content-auth", false,
		"content host ignores an Authorization header, as the real one does (default: refuse it with 400)")
	fs.DurationVar(&o.LegalHoldReleaseDelay, "legal-hold-delay", 0,
		"how long legal hold policies stay applying/releasing and deleted assignments stay listed (default 2s; negative: at once)")
	fs.BoolVar(&c.Verbose, VerboseFlag, false, "log requests to standard error")
	fs.DurationVar(&o.CloseGrace, "close-grace", 0, "how long a stop (SIGTERM, interrupt) lets requests in flight finish before it closes their connections (default 2s)")
	fs.StringVar(&o.WebhookPrimaryKey, "webhook-primary-key", "", "the primary key webhook deliveries are signed with (default: random, kept with -data)")
	fs.StringVar(&o.WebhookSecondaryKey, "webhook-secondary-key", "", "the secondary key webhook deliveries are signed with (default: random, kept with -data)")
	fs.Func("webhook-allow-hosts", "comma-separated hosts webhooks may deliver to besides public https on port 443 and http on loopback: "+
		"host names, IP addresses or CIDR prefixes (10.0.0.0/8), with any scheme and port; repeatable", func(v string) error {
		o.WebhookAllowedHosts = append(o.WebhookAllowedHosts, splitList(v)...)
		return nil
	})
	fs.DurationVar(&o.SearchIndexDelay, "search-delay", 0, "how long a new or changed item waits before search sees the change, "+
		"as the service indexes asynchronously (default 0: at once)")
	fs.IntVar(&o.EventHistory, "event-history", 0, "how many events GET /events keeps (default 10000; negative records none)")
	fs.DurationVar(&o.LongPollTimeout, "long-poll-timeout", 0, "how long a long poll of the event stream waits before it answers reconnect (default 60s)")
	fs.IntVar(&o.RequestLogSize, "request-log", DefaultRequestLog,
		"how many of the newest requests the in-memory request log keeps (negative: none); the command never reads it, scripts of its embedders may")
	fs.Func("cors-origins", "comma-separated origins (scheme://host[:port]) whose web pages may call the server from a browser, "+
		"e.g. http://localhost:3000 (default: any origin, as suits a server on this machine)", func(v string) error {
		o.CORSOrigins = append(o.CORSOrigins, splitList(v)...)
		return nil
	})
	fs.Func("external-users", "comma-separated logins of Box users outside the enterprise, for POST /invites (made at start unless they exist)", func(v string) error {
		o.ExternalUsers = append(o.ExternalUsers, splitList(v)...)
		return nil
	})
	fs.Func("enterprise-domains", "comma-separated domains registered to the enterprise, which email aliases must use (default: cms.test)", func(v string) error {
		o.EnterpriseDomains = append(o.EnterpriseDomains, splitList(v)...)
		return nil
	})
	fs.IntVar(&o.FileRequests, "file-requests", 0, "give a fresh server this many file requests, each on a new folder of the managed user (the API cannot create them)")
	fs.BoolVar(&o.SeparateIDSpaces, "separate-id-spaces", false, "draw folder ids from a counter apart from that of files and web links, "+
		"so that a file and a folder can share an id, as on the service (a data directory keeps the spaces it was made with)")
	fs.IntVar(&c.MemoryHeadroom, "memory-headroom", memgoal.DefaultHeadroom, "hold the process's memory to this many percent above its live heap "+
		"(a memory limit moved after each garbage collection, never under 256 MiB); 0: Go's default (GOGC). GOGC or GOMEMLIMIT in the environment wins")
	fs.StringVar(&c.AppConfig, "app-config", "", "register an app authorized in the enterprise and write its config.json (client credentials and JWT) to this file")
	return c
}

// Validate checks what the flags cannot.
func (c *Config) Validate() error {
	if c.Options.PartSize < 0 || c.Options.ChunkedMinSize < 0 || c.DevicePins < 0 || c.Options.FileRequests < 0 {
		return errors.New("-part-size, -chunked-min-size and -device-pins must not be negative (nor -file-requests)")
	}
	if c.MemoryHeadroom < 0 {
		return errors.New("-memory-headroom must not be negative")
	}
	return nil
}

// StartupLine is the one JSON line printed on start; scripts depend on it.
type StartupLine struct {
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
	// FileRequests are the ids of the server's file requests (-file-requests).
	FileRequests []string `json:"file_requests,omitempty"`
	// ExternalUsers maps the login of each user outside the enterprise
	// (-external-users) to the user's id.
	ExternalUsers map[string]string `json:"external_users,omitempty"`
}

// splitList splits a comma-separated flag value, dropping empty entries.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Start validates c, starts the server (logging requests to logTo with
// Verbose), seeds it, pins devices and writes the app config as asked, and
// returns the server with its startup line. The caller closes the server.
func (c *Config) Start(logTo io.Writer) (*refserver.Server, *StartupLine, error) {
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	opts := c.Options
	if c.Verbose {
		opts.Logger = slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	c.startMemoryGoal()
	srv, err := refserver.Start(opts)
	if err != nil {
		return nil, nil, err
	}
	line, err := c.prepare(srv)
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return srv, line, nil
}

// startMemoryGoal starts the process's memory goal (MemoryHeadroom), unless
// the environment sets the collector or a goal runs already (a test that
// starts several servers): it lasts as long as the process.
func (c *Config) startMemoryGoal() {
	if c.MemoryHeadroom > 0 && !memgoal.FromEnvironment() {
		_, _ = memgoal.Start(c.MemoryHeadroom, memgoal.DefaultFloor) // ErrRunning: that goal holds
	}
}

// prepare seeds a fresh server (a resumed state has its demo content and
// pins already), writes the app config and builds the startup line.
func (c *Config) prepare(srv *refserver.Server) (*StartupLine, error) {
	if c.Seed && !srv.Restored() {
		if err := srv.Seed(); err != nil {
			return nil, err
		}
	}
	if !srv.Restored() {
		if err := srv.AddDevicePins(c.DevicePins); err != nil {
			return nil, err
		}
	}
	clientID := ""
	if c.AppConfig != "" {
		var err error
		if clientID, err = srv.WriteAppConfig(c.AppConfig); err != nil {
			return nil, err
		}
	}
	primary, secondary := srv.WebhookKeys()
	return &StartupLine{
		BaseURL: srv.BaseURL(), UploadURL: srv.UploadURL(), DownloadURL: srv.DownloadURL(),
		EnterpriseID: srv.EnterpriseID(),
		Tokens:       map[string]string{"admin": srv.AdminToken(), "user": srv.UserToken(), "app": srv.AppToken()},
		Users:        map[string]string{"admin": srv.AdminUserID(), "user": srv.UserID()},
		WebhookKeys:  map[string]string{"primary": primary, "secondary": secondary},
		ClientID:     clientID,
		FileRequests: srv.FileRequestIDs(), ExternalUsers: srv.ExternalUsers(),
	}, nil
}
