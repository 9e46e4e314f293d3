package cms

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/contentapi/cms/internal/transport"
	"golang.org/x/oauth2"
)

// RetryPolicy says how often and how long the client retries a request.
//
// Which requests: a status in RetryStatuses (default 429, 500, 502, 503,
// 504) is retried for idempotent requests (GET, HEAD, PUT, DELETE, OPTIONS,
// upload parts, upload-session commits, and calls whose ctx went through
// WithIdempotent); 429 is retried for every request, since the service did
// not process it. Network errors are retried for idempotent requests only.
//
// Zero and negative values follow the package's one rule for options: zero
// means the documented default, a negative count means "none", and a
// negative duration is invalid. So RetryPolicy{} is DefaultRetryPolicy(),
// RetryPolicy{MaxRetries: 3} keeps the default backoff, and
// RetryPolicy{MaxRetries: -1} never retries.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt:
	// 0 means 4, negative means none.
	MaxRetries int
	// MinBackoff and MaxBackoff bound the jittered exponential backoff used
	// when the response has no Retry-After (0 means 0.5 s and 30 s).
	MinBackoff, MaxBackoff time.Duration
	// MaxRetryAfter caps how long a Retry-After is honoured; a longer one
	// ends the retries with an *APIError whose RetryAfter is set (0 means
	// 60 s).
	MaxRetryAfter time.Duration
	// RetryStatuses are the HTTP statuses retried (each 400-599); nil means
	// DefaultRetryStatuses, an empty non-nil slice retries no status.
	RetryStatuses []int
}

// DefaultRetryStatuses returns the statuses retried by default: 429, 500,
// 502, 503 and 504.
func DefaultRetryStatuses() []int { return transport.DefaultRetryStatuses() }

// withDefaults fills the fields whose zero value means "default".
func (p RetryPolicy) withDefaults() RetryPolicy {
	return RetryPolicy(transport.Policy(p).WithDefaults())
}

// validate checks p as WithRetryPolicy does.
func (p RetryPolicy) validate() error {
	if err := transport.Policy(p).Validate(); err != nil {
		return &ArgError{Arg: "retry policy", Reason: err.Error(), Err: ErrInvalidArgument}
	}
	return nil
}

// DefaultRetryPolicy returns 4 retries, 0.5 s to 30 s backoff, Retry-After
// up to 60 s, on DefaultRetryStatuses.
func DefaultRetryPolicy() RetryPolicy { return RetryPolicy(transport.DefaultPolicy()) }

// WithCallRetryPolicy returns a ctx whose requests use p instead of the
// client's retry policy (zero fields mean the defaults, as in RetryPolicy).
// An invalid p is reported by the first call made with the ctx, as an
// *ArgError, before anything is sent.
func WithCallRetryPolicy(ctx context.Context, p RetryPolicy) context.Context {
	if err := p.validate(); err != nil {
		return context.WithValue(ctx, badCallPolicyKey{}, err)
	}
	return transport.WithPolicy(ctx, transport.Policy(p.withDefaults()))
}

type badCallPolicyKey struct{}

// WithIdempotent returns a ctx whose requests are safe to repeat, so POSTs
// sent with it are retried on 5xx and network errors too. Use it only when
// repeating the call cannot duplicate a write.
func WithIdempotent(ctx context.Context) context.Context { return transport.WithIdempotent(ctx) }

// config is what the options set.
type config struct {
	baseURL, uploadURL *url.URL
	// baseSet and uploadSet record which roots the options of the NewClient
	// or Clone being built set (checkRoots).
	baseSet, uploadSet bool
	tokenSource        oauth2.TokenSource
	httpClient         *http.Client
	downloadClient     *http.Client
	retry              RetryPolicy
	userAgent          string
	asUser             string
	headers            http.Header
	logger             *slog.Logger
	sleep              func(context.Context, time.Duration) error // nil = real timers (sleep.go)
	limiter            *pacer                                     // WithRateLimit; nil = no pacing
	insecureHTTP       bool                                       // WithInsecureHTTP
}

// Option configures a Client. Options validate their arguments.
type Option func(*config) error

// WithBaseURL sets the API root (default https://api.box.com/2.0).
//
// A root other than the public service's must come with WithUploadURL (or
// use WithURLs for both): NewClient refuses a custom API root whose upload
// root would stay the public one, since every upload would then send this
// deployment's token to the public service.
func WithBaseURL(raw string) Option {
	return func(c *config) error {
		u, err := parseRoot(raw)
		if err != nil {
			return fmt.Errorf("base URL: %w", err)
		}
		c.baseURL, c.baseSet = u, true
		return nil
	}
}

// WithUploadURL sets the upload root (default
// https://upload.box.com/api/2.0). Like WithBaseURL, a custom upload root
// needs a custom API root beside it (WithURLs sets both).
func WithUploadURL(raw string) Option {
	return func(c *config) error {
		u, err := parseRoot(raw)
		if err != nil {
			return fmt.Errorf("upload URL: %w", err)
		}
		c.uploadURL, c.uploadSet = u, true
		return nil
	}
}

// WithURLs sets the API root and the upload root of a deployment other than
// the public service (a reference server, a staging stack) in one option,
// as cmd/refserver prints them: baseURL ends in /2.0, uploadURL in
// /api/2.0. Downloads need no root of their own: the API redirects them to
// its content host, which never gets the token (see FilesService.Download).
func WithURLs(baseURL, uploadURL string) Option {
	return func(c *config) error {
		if err := WithBaseURL(baseURL)(c); err != nil {
			return err
		}
		return WithUploadURL(uploadURL)(c)
	}
}

// checkRoots refuses a client whose API and upload roots do not belong
// together: one of them set by the options of this NewClient or Clone to a
// deployment other than the public service while the other is still the
// public one. The token would travel to the public service with every call
// of the root left public.
func (c *config) checkRoots() error {
	for _, root := range []struct {
		name string
		u    *url.URL
	}{{"API root", c.baseURL}, {"upload root", c.uploadURL}} {
		if root.u.Scheme == "http" && !c.insecureHTTP && !isLoopback(root.u.Hostname()) {
			return fmt.Errorf("the %s %s is plain http on a host that is not loopback: the token would travel unencrypted; "+
				"use https, or add WithInsecureHTTP to allow it", root.name, root.u.Redacted())
		}
	}
	publicBase := sameRoot(c.baseURL, DefaultBaseURL)
	publicUpload := sameRoot(c.uploadURL, DefaultUploadURL)
	switch {
	case c.baseSet && !c.uploadSet && !publicBase && publicUpload:
		return fmt.Errorf("the API root is %s but the upload root is still the public %s: uploads would send this deployment's token there; "+
			"add WithUploadURL, or set both with WithURLs", c.baseURL, DefaultUploadURL)
	case c.uploadSet && !c.baseSet && !publicUpload && publicBase:
		return fmt.Errorf("the upload root is %s but the API root is still the public %s: API calls would send this deployment's token there; "+
			"add WithBaseURL, or set both with WithURLs", c.uploadURL, DefaultBaseURL)
	}
	return nil
}

// WithInsecureHTTP allows plain http:// roots on any host. Without it
// NewClient accepts plain http only on loopback (localhost, 127.0.0.0/8,
// ::1), since every API call carries the token. Use it for a deployment on
// a private network you trust, or a client whose WithHTTPClient transport
// never reaches the network (an in-process server).
func WithInsecureHTTP() Option {
	return func(c *config) error {
		c.insecureHTTP = true
		return nil
	}
}

// isLoopback reports whether host (without port) is a loopback name or
// address: localhost, 127.0.0.0/8 or ::1.
func isLoopback(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// sameRoot reports whether u is the root raw.
func sameRoot(u *url.URL, raw string) bool {
	return u != nil && u.String() == raw
}

func parseRoot(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("not a URL")
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if u.Host == "" {
		return nil, errors.New("no host")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, errors.New("must not have a query, fragment or user info")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// WithToken authenticates with a fixed access token (a developer token).
func WithToken(token string) Option {
	return func(c *config) error {
		if strings.TrimSpace(token) == "" {
			return errors.New("token is empty")
		}
		c.tokenSource = oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token, TokenType: "Bearer"})
		return nil
	}
}

// WithTokenSource authenticates with tokens from ts, asked before every
// attempt of every request (wrap it in oauth2.ReuseTokenSource to cache).
// A *TokenSource of this package caches and refreshes its tokens, and a
// 401 makes the client refresh once and resend the request.
func WithTokenSource(ts oauth2.TokenSource) Option {
	return func(c *config) error {
		if ts == nil {
			return errors.New("token source is nil")
		}
		c.tokenSource = ts
		return nil
	}
}

// WithHTTPClient sets the HTTP client whose Transport and Timeout API calls
// use. The client is copied: the SDK adds authentication and turns off
// automatic redirects on its copy, so hc itself is never changed.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) error {
		if hc == nil {
			return errors.New("HTTP client is nil")
		}
		c.httpClient = hc
		return nil
	}
}

// WithDownloadHTTPClient sets the client that fetches file content from the
// download host a download redirects to. It never gets the access token.
func WithDownloadHTTPClient(hc *http.Client) Option {
	return func(c *config) error {
		if hc == nil {
			return errors.New("download HTTP client is nil")
		}
		c.downloadClient = hc
		return nil
	}
}

// WithRetryPolicy sets the client's retry policy.
func WithRetryPolicy(p RetryPolicy) Option {
	return func(c *config) error {
		if err := p.validate(); err != nil {
			return err
		}
		c.retry = p.withDefaults()
		return nil
	}
}

// WithoutRetries turns retries off (MaxRetries -1).
func WithoutRetries() Option {
	return func(c *config) error {
		c.retry.MaxRetries = -1
		c.retry = c.retry.withDefaults()
		return nil
	}
}

// WithUserAgent puts product in front of the SDK's User-Agent.
func WithUserAgent(product string) Option {
	return func(c *config) error {
		if strings.ContainsAny(product, "\r\n") {
			return errors.New("user agent must be one line")
		}
		c.userAgent = strings.TrimSpace(product + " " + defaultUserAgent)
		return nil
	}
}

// WithAsUser sends every request with the As-User header, so an admin or
// service account acts as the user with that id.
func WithAsUser(userID string) Option {
	return func(c *config) error {
		if err := checkID("user", userID); err != nil {
			return err
		}
		c.asUser = userID
		return nil
	}
}

// WithHeader adds a header to every request. Authorization cannot be set
// this way.
func WithHeader(key, value string) Option {
	return func(c *config) error {
		if key == "" || strings.ContainsAny(key+value, "\r\n") {
			// The value is not quoted: it may carry a secret.
			return fmt.Errorf("header %q: the name is empty, or the name or value is not one line", key)
		}
		if strings.EqualFold(key, "Authorization") {
			return fmt.Errorf("header %q: set credentials with WithToken or WithTokenSource", key)
		}
		if c.headers == nil {
			c.headers = http.Header{}
		}
		c.headers.Add(key, value)
		return nil
	}
}

// WithLogger logs requests and retries to l at debug level. Logging is off
// by default. Tokens and credential query values are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("logger is nil")
		}
		c.logger = l
		return nil
	}
}
