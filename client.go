package cms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/contentapi/cms/internal/transport"
	"github.com/google/go-querystring/query"
	"golang.org/x/oauth2"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// Default roots of the public service.
const (
	DefaultBaseURL   = "https://api.box.com/2.0"
	DefaultUploadURL = "https://upload.box.com/api/2.0"
)

const defaultUserAgent = "cms-go/" + Version

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
	tokenSource        oauth2.TokenSource
	httpClient         *http.Client
	downloadClient     *http.Client
	retry              RetryPolicy
	userAgent          string
	asUser             string
	headers            http.Header
	logger             *slog.Logger
	sleep              func(context.Context, time.Duration) error // nil = real timers (sleep.go)
}

// Option configures a Client. Options validate their arguments.
type Option func(*config) error

// WithBaseURL sets the API root (default https://api.box.com/2.0).
func WithBaseURL(raw string) Option {
	return func(c *config) error {
		u, err := parseRoot(raw)
		if err != nil {
			return fmt.Errorf("base URL: %w", err)
		}
		c.baseURL = u
		return nil
	}
}

// WithUploadURL sets the upload root (default https://upload.box.com/api/2.0).
func WithUploadURL(raw string) Option {
	return func(c *config) error {
		u, err := parseRoot(raw)
		if err != nil {
			return fmt.Errorf("upload URL: %w", err)
		}
		c.uploadURL = u
		return nil
	}
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
			return errors.New("header name empty or value not one line")
		}
		if strings.EqualFold(key, "Authorization") {
			return errors.New("set credentials with WithToken or WithTokenSource")
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

// Client talks to the Content API. It is safe for concurrent use. Each field
// is the service for one resource.
type Client struct {
	cfg      config
	doer     *transport.Doer
	download *http.Client

	Files                      *FilesService
	Uploads                    *UploadsService
	Folders                    *FoldersService
	WebLinks                   *WebLinksService
	Tasks                      *TasksService
	TaskAssignments            *TaskAssignmentsService
	Watermarks                 *WatermarksService
	Trash                      *TrashService
	MetadataTemplates          *MetadataTemplatesService
	Metadata                   *MetadataService
	RetentionPolicies          *RetentionPoliciesService
	RetentionPolicyAssignments *RetentionPolicyAssignmentsService
	FileVersionRetentions      *FileVersionRetentionsService
	LegalHoldPolicies          *LegalHoldPoliciesService
	LegalHoldPolicyAssignments *LegalHoldPolicyAssignmentsService
	FileVersionLegalHolds      *FileVersionLegalHoldsService
	Users                      *UsersService
	Groups                     *GroupsService
	GroupMemberships           *GroupMembershipsService
	DevicePins                 *DevicePinsService
}

type service struct{ client *Client }

// NewClient returns a client configured by opts. Without WithToken or
// WithTokenSource it fails: every call of the API needs a token.
func NewClient(opts ...Option) (*Client, error) {
	base, _ := url.Parse(DefaultBaseURL)
	upload, _ := url.Parse(DefaultUploadURL)
	cfg := config{baseURL: base, uploadURL: upload, retry: DefaultRetryPolicy(), userAgent: defaultUserAgent}
	return newClient(cfg, opts)
}

func newClient(cfg config, opts []Option) (*Client, error) {
	cfg.headers = cfg.headers.Clone()
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&cfg); err != nil {
			return nil, fmt.Errorf("cms: %w", err)
		}
	}
	if cfg.tokenSource == nil {
		return nil, errors.New("cms: no credentials: use WithToken or WithTokenSource")
	}
	c := &Client{cfg: cfg}
	c.doer = &transport.Doer{HTTPClient: apiHTTPClient(cfg), Policy: transport.Policy(cfg.retry), Logger: cfg.logger, Sleep: cfg.sleep}
	c.download = cfg.downloadClient
	if c.download == nil {
		c.download = &http.Client{Transport: baseTransport(cfg.httpClient)}
	}
	c.initServices()
	return c, nil
}

// initServices wires the services to c.
func (c *Client) initServices() {
	s := &service{client: c}
	c.Files = (*FilesService)(s)
	c.Uploads = (*UploadsService)(s)
	c.Folders = (*FoldersService)(s)
	c.WebLinks = (*WebLinksService)(s)
	c.Tasks = (*TasksService)(s)
	c.TaskAssignments = (*TaskAssignmentsService)(s)
	c.Watermarks = (*WatermarksService)(s)
	c.Trash = (*TrashService)(s)
	c.MetadataTemplates = (*MetadataTemplatesService)(s)
	c.Metadata = (*MetadataService)(s)
	c.RetentionPolicies = (*RetentionPoliciesService)(s)
	c.RetentionPolicyAssignments = (*RetentionPolicyAssignmentsService)(s)
	c.FileVersionRetentions = (*FileVersionRetentionsService)(s)
	c.LegalHoldPolicies = (*LegalHoldPoliciesService)(s)
	c.LegalHoldPolicyAssignments = (*LegalHoldPolicyAssignmentsService)(s)
	c.FileVersionLegalHolds = (*FileVersionLegalHoldsService)(s)
	c.Users = (*UsersService)(s)
	c.Groups = (*GroupsService)(s)
	c.GroupMemberships = (*GroupMembershipsService)(s)
	c.DevicePins = (*DevicePinsService)(s)
}

func baseTransport(hc *http.Client) http.RoundTripper {
	if hc != nil && hc.Transport != nil {
		return hc.Transport
	}
	return http.DefaultTransport
}

// apiHTTPClient is the authenticated client for API calls: it never follows
// redirects, so a token can never travel to another host.
func apiHTTPClient(cfg config) *http.Client {
	hc := &http.Client{}
	if cfg.httpClient != nil {
		*hc = *cfg.httpClient
	}
	hc.Transport = newAuthTransport(cfg.tokenSource, baseTransport(cfg.httpClient), cfg.logger)
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return hc
}

// Clone returns a client with the same configuration changed by opts. It
// shares nothing mutable with c.
func (c *Client) Clone(opts ...Option) (*Client, error) {
	return newClient(c.cfg, opts)
}

// AsUser returns a client that sends every request with the header
// "As-User: userID", so an admin or service-account token acts as that
// user. It shares c's transport, token source and settings: nothing is
// rebuilt, and c itself is unchanged.
func (c *Client) AsUser(userID string) (*Client, error) {
	if err := checkID("user", userID); err != nil {
		return nil, err
	}
	d := &Client{cfg: c.cfg, doer: c.doer, download: c.download}
	d.cfg.headers = c.cfg.headers.Clone()
	d.cfg.asUser = userID
	d.initServices()
	return d, nil
}

// BaseURL returns the API root the client sends to.
func (c *Client) BaseURL() string { return c.cfg.baseURL.String() }

// UploadURL returns the upload root the client sends to.
func (c *Client) UploadURL() string { return c.cfg.uploadURL.String() }

// Response is the HTTP response of a call, with the fields the service adds.
type Response struct {
	*http.Response
	// RequestID is the service's id for the request (for support).
	RequestID string
	// RetryAfter is the response's Retry-After, when it has one.
	RetryAfter time.Duration
	// NextMarker is the marker of the next page of a marker-paged list
	// ("" on the last page); keep it to resume a listing later.
	NextMarker string
}

func newResponse(r *http.Response) *Response {
	resp := &Response{Response: r}
	resp.RequestID = requestID(r)
	if d, ok := transport.ParseRetryAfter(r.Header.Get("Retry-After"), time.Now()); ok {
		resp.RetryAfter = d
	}
	return resp
}

func requestID(r *http.Response) string {
	for _, h := range []string{"Box-Request-Id", "X-Request-Id", "Request-Id"} {
		if v := r.Header.Get(h); v != "" {
			return v
		}
	}
	return ""
}

// request is one API call being built.
type request struct {
	method string
	url    *url.URL
	header http.Header
	body   *transport.Body
	// acceptRedirect lets a 3xx answer through to the caller (downloads
	// read its Location) instead of turning it into an *APIError.
	acceptRedirect bool
}

// newRequest builds a call of method on root (c.cfg.baseURL or
// c.cfg.uploadURL) joined with the path segments, each escaped; opts, when
// not nil, becomes the query via its `url` tags.
func (c *Client) newRequest(method string, root *url.URL, opts any, segments ...string) (*request, error) {
	var b strings.Builder
	for _, s := range segments {
		if s == "" || s == "." || s == ".." {
			return nil, &ArgError{Arg: "path", Err: ErrInvalidID}
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	u := *root
	u.RawPath = u.EscapedPath() + b.String()
	u.Path, _ = url.PathUnescape(u.RawPath)
	return c.newRequestURL(method, &u, opts)
}

// newRequestURL builds a call of method on an absolute URL.
func (c *Client) newRequestURL(method string, u *url.URL, opts any) (*request, error) {
	u = &url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	if opts != nil {
		q, err := query.Values(opts)
		if err != nil {
			return nil, fmt.Errorf("cms: encoding query: %w", err)
		}
		if existing := u.Query(); len(existing) > 0 {
			for k, vs := range q {
				existing[k] = vs
			}
			q = existing
		}
		u.RawQuery = q.Encode()
	}
	h := c.cfg.headers.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("User-Agent", c.cfg.userAgent)
	h.Set("Accept", "application/json")
	if c.cfg.asUser != "" {
		h.Set("As-User", c.cfg.asUser)
	}
	return &request{method: method, url: u, header: h}, nil
}

// setJSON makes v the JSON body of the request.
func (r *request) setJSON(v any) error {
	buf, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cms: encoding request body: %w", err)
	}
	r.setBytes("application/json", buf)
	return nil
}

// setBytes makes buf the request body, replayable for retries.
func (r *request) setBytes(contentType string, buf []byte) {
	r.header.Set("Content-Type", contentType)
	r.body = &transport.Body{
		Open:          func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf)), nil },
		ContentLength: int64(len(buf)),
		Replayable:    true,
	}
}

// send performs the request and checks its status. On success the caller
// owns resp.Body; on failure the body is closed and the error is an
// *APIError (or ctx.Err(), or a transport error).
func (c *Client) send(ctx context.Context, r *request) (*Response, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if err, _ := ctx.Value(badCallPolicyKey{}).(error); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, r.method, r.url.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("cms: building request: %w", err)
	}
	hreq.Header = r.header
	start := time.Now()
	hresp, err := c.doer.Do(hreq, r.body)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, &url.Error{Op: r.method, URL: transport.RedactURL(r.url), Err: unwrapURLError(err)}
	}
	resp := newResponse(hresp)
	if c.cfg.logger != nil {
		c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "cms request",
			slog.String("method", r.method), slog.String("url", transport.RedactURL(r.url)),
			slog.Int("status", hresp.StatusCode), slog.String("request_id", resp.RequestID),
			slog.Duration("elapsed", time.Since(start)))
	}
	if r.acceptRedirect && hresp.StatusCode >= 300 && hresp.StatusCode < 400 && hresp.StatusCode != http.StatusNotModified {
		return resp, nil
	}
	if err := CheckResponse(hresp); err != nil {
		return resp, err
	}
	return resp, nil
}

// unwrapURLError strips the *url.Error the HTTP client adds (its URL is unredacted).
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// do performs the request and decodes a JSON body into v (when v is not
// nil and the response has a body).
func (c *Client) do(ctx context.Context, r *request, v any) (*Response, error) {
	resp, err := c.send(ctx, r)
	if err != nil {
		return resp, err
	}
	defer resp.Body.Close()
	if v == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return resp, nil
	}
	body, err := readBody(resp.Body, resp.ContentLength)
	if err == nil {
		if raw, ok := v.(*[]byte); ok { // the caller decodes (iterators reading ahead)
			*raw = body
			return resp, nil
		}
		if len(bytes.TrimSpace(body)) == 0 {
			return resp, nil // no body
		}
		err = decodeJSON(body, v)
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return resp, ctxErr
		}
		return resp, fmt.Errorf("cms: decoding %s response: %w", r.method, err)
	}
	return resp, nil
}

// waitNotReady waits out a 202 + Retry-After (content not ready, commit
// still processing) before the caller asks again. It returns an
// *AcceptedError instead of waiting when waits reached maxWaits, the wait
// exceeds the retry policy's MaxRetryAfter, or it would pass the ctx
// deadline; ctx.Err() when ctx ends during the wait.
func (c *Client) waitNotReady(ctx context.Context, resp *Response, waits, maxWaits int) error {
	wait := resp.RetryAfter
	if resp.Header.Get("Retry-After") == "" {
		wait = defaultNotReadyWait
	}
	policy := transport.Policy(c.cfg.retry)
	if p, ok := transport.PolicyFrom(ctx); ok {
		policy = p
	}
	notReady := &AcceptedError{RetryAfter: wait, Response: resp}
	if waits >= maxWaits || wait > policy.MaxRetryAfter {
		return notReady
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return notReady
	}
	return c.sleep(ctx, wait)
}
