package cms

import (
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

	"golang.org/x/oauth2"
)

// Endpoints of the authorization service (Box's authentication guides). The token and revoke
// endpoints live on the API host without the /2.0 prefix.
const (
	DefaultTokenURL     = "https://api.box.com/oauth2/token"
	DefaultRevokeURL    = "https://api.box.com/oauth2/revoke"
	DefaultAuthorizeURL = "https://account.box.com/api/oauth2/authorize"
)

// Grant and token type identifiers sent to POST /oauth2/token.
const (
	GrantTypeJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	GrantTypeTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	TokenTypeAccessToken   = "urn:ietf:params:oauth:token-type:access_token"
)

// SubjectType is what a client-credentials or JWT token acts as: the
// enterprise's service account or one user (box_subject_type / box_sub_type).
type SubjectType string

// Subject types.
const (
	SubjectTypeEnterprise SubjectType = "enterprise"
	SubjectTypeUser       SubjectType = "user"
)

// Subject names the principal a server-side token is issued for.
type Subject struct {
	Type SubjectType
	ID   string // enterprise id or user id
}

// EnterpriseSubject is the service account of enterprise id.
func EnterpriseSubject(id string) Subject { return Subject{Type: SubjectTypeEnterprise, ID: id} }

// UserSubject is the managed or app user id.
func UserSubject(id string) Subject { return Subject{Type: SubjectTypeUser, ID: id} }

func (s Subject) validate() error {
	if s.Type != SubjectTypeEnterprise && s.Type != SubjectTypeUser {
		return invalidArg("subject type", fmt.Sprintf("%q is not enterprise or user", s.Type))
	}
	return checkID(string(s.Type), s.ID)
}

// TokenURLFor returns the token endpoint that belongs to an API root:
// https://api.box.com/2.0 gives https://api.box.com/oauth2/token, and
// http://127.0.0.1:8080/2.0 gives http://127.0.0.1:8080/oauth2/token.
func TokenURLFor(baseURL string) (string, error) {
	u, err := parseRoot(baseURL)
	if err != nil {
		return "", fmt.Errorf("cms: base URL: %w", err)
	}
	return u.Scheme + "://" + u.Host + "/oauth2/token", nil
}

// authConfig is what AuthOptions set.
type authConfig struct {
	tokenURL     string
	revokeURL    string
	authorizeURL string
	httpClient   *http.Client
	logger       *slog.Logger
	clock        func() time.Time
	margin       time.Duration
	fetchTimeout time.Duration
	jwtAlg       string
	jwtLifetime  time.Duration
	subject      *Subject
	scopes       []string
	insecureHTTP bool // WithAuthInsecureHTTP
}

func defaultAuthConfig() authConfig {
	return authConfig{
		tokenURL:     DefaultTokenURL,
		revokeURL:    DefaultRevokeURL,
		authorizeURL: DefaultAuthorizeURL,
		clock:        time.Now,
		margin:       60 * time.Second,
		fetchTimeout: 60 * time.Second,
		jwtAlg:       "RS256",
		jwtLifetime:  30 * time.Second,
	}
}

func (c *authConfig) apply(opts []AuthOption) error {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return fmt.Errorf("cms: %w", err)
		}
	}
	return c.checkPlainHTTP()
}

// checkPlainHTTP refuses token and revoke endpoints on plain http to a host
// that is not loopback, as NewClient refuses such roots: the client secret,
// the JWT assertion, refresh tokens and the tokens themselves would travel
// unencrypted. WithAuthInsecureHTTP opts in.
func (c *authConfig) checkPlainHTTP() error {
	if c.insecureHTTP {
		return nil
	}
	for _, e := range []struct{ name, raw string }{{"token endpoint", c.tokenURL}, {"revoke endpoint", c.revokeURL}} {
		u, err := url.Parse(e.raw)
		if err != nil {
			return fmt.Errorf("cms: %s: %w", e.name, err)
		}
		if u.Scheme == "http" && !isLoopback(u.Hostname()) {
			return fmt.Errorf("cms: the %s %s is plain http on a host that is not loopback: the client's secrets and tokens would travel unencrypted; "+
				"use https, or add WithAuthInsecureHTTP to allow it", e.name, u.Redacted())
		}
	}
	return nil
}

func (c *authConfig) client() *http.Client {
	if c.httpClient != nil {
		return c.httpClient
	}
	return &http.Client{Timeout: 30 * time.Second}
}

func (c *authConfig) debug(ctx context.Context, msg string, attrs ...slog.Attr) {
	if c.logger != nil {
		c.logger.LogAttrs(ctx, slog.LevelDebug, "cms auth: "+msg, attrs...)
	}
}

// AuthOption configures a token source or an OAuth2Config. Options validate
// their arguments.
type AuthOption func(*authConfig) error

// WithAuthBaseURL points the token (POST /oauth2/token) and revoke
// (POST /oauth2/revoke) endpoints at the host of an API root, e.g. the
// base_url of a reference server.
func WithAuthBaseURL(baseURL string) AuthOption {
	return func(c *authConfig) error {
		u, err := parseRoot(baseURL)
		if err != nil {
			return fmt.Errorf("auth base URL: %w", err)
		}
		c.tokenURL = u.Scheme + "://" + u.Host + "/oauth2/token"
		c.revokeURL = u.Scheme + "://" + u.Host + "/oauth2/revoke"
		return nil
	}
}

// WithTokenEndpoint sets the token endpoint (default
// https://api.box.com/oauth2/token). The revoke endpoint becomes its sibling
// .../oauth2/revoke.
func WithTokenEndpoint(tokenURL string) AuthOption {
	return func(c *authConfig) error {
		u, err := url.Parse(tokenURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.User != nil {
			return errors.New("token endpoint must be an absolute http(s) URL without query or user info")
		}
		c.tokenURL = u.String()
		r := *u
		r.Path = strings.TrimSuffix(u.Path, "/token") + "/revoke"
		r.RawPath = ""
		c.revokeURL = r.String()
		return nil
	}
}

// WithAuthInsecureHTTP allows token and revoke endpoints (WithAuthBaseURL,
// WithTokenEndpoint) on plain http:// to any host. Without it they may be
// plain http only on loopback (localhost, 127.0.0.0/8, ::1), as NewClient's
// roots without WithInsecureHTTP, since POST /oauth2/token carries the
// client secret or assertion and returns the tokens. Use it for a
// deployment on a private network you trust.
func WithAuthInsecureHTTP() AuthOption {
	return func(c *authConfig) error {
		c.insecureHTTP = true
		return nil
	}
}

// WithAuthorizeURL sets the authorization page of the authorization-code
// flow (default https://account.box.com/api/oauth2/authorize).
func WithAuthorizeURL(authorizeURL string) AuthOption {
	return func(c *authConfig) error {
		u, err := url.Parse(authorizeURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return errors.New("authorize URL must be an absolute http(s) URL")
		}
		c.authorizeURL = u.String()
		return nil
	}
}

// WithAuthHTTPClient sets the HTTP client that talks to the token and revoke
// endpoints (default: a client with a 30 s timeout).
func WithAuthHTTPClient(hc *http.Client) AuthOption {
	return func(c *authConfig) error {
		if hc == nil {
			return errors.New("auth HTTP client is nil")
		}
		c.httpClient = hc
		return nil
	}
}

// WithAuthLogger logs token fetches, refreshes and revocations at debug
// level. Tokens, secrets, keys and assertions are never logged.
func WithAuthLogger(l *slog.Logger) AuthOption {
	return func(c *authConfig) error {
		if l == nil {
			return errors.New("auth logger is nil")
		}
		c.logger = l
		return nil
	}
}

// WithClock sets the clock token sources use for expiry and JWT claims
// (default time.Now). Tests use it to expire tokens without sleeping.
func WithClock(now func() time.Time) AuthOption {
	return func(c *authConfig) error {
		if now == nil {
			return errors.New("clock is nil")
		}
		c.clock = now
		return nil
	}
}

// WithRefreshMargin sets how long before its expiry a token is replaced
// (default 60 s), so no request leaves with a token about to expire.
func WithRefreshMargin(d time.Duration) AuthOption {
	return func(c *authConfig) error {
		if d < 0 {
			return errors.New("refresh margin must not be negative")
		}
		c.margin = d
		return nil
	}
}

// WithJWTAlgorithm sets the JWT assertion's signing algorithm: RS256
// (default), RS384 or RS512.
func WithJWTAlgorithm(alg string) AuthOption {
	return func(c *authConfig) error {
		switch alg {
		case "RS256", "RS384", "RS512":
			c.jwtAlg = alg
			return nil
		}
		return fmt.Errorf("JWT algorithm %q is not RS256, RS384 or RS512", alg)
	}
}

// WithJWTLifetime sets how far ahead of now a JWT assertion's exp is
// (default 30 s; the service accepts at most 60 s).
func WithJWTLifetime(d time.Duration) AuthOption {
	return func(c *authConfig) error {
		if d <= 0 || d > 60*time.Second {
			return errors.New("JWT lifetime must be in (0, 60s]")
		}
		c.jwtLifetime = d
		return nil
	}
}

// WithSubject makes a JWT token source ask for tokens of s instead of the
// app config's enterprise (box_sub_type and sub).
func WithSubject(s Subject) AuthOption {
	return func(c *authConfig) error {
		if err := s.validate(); err != nil {
			return err
		}
		c.subject = &s
		return nil
	}
}

// WithScopes sets the scopes the authorization-code flow asks for.
func WithScopes(scopes ...string) AuthOption {
	return func(c *authConfig) error {
		for _, s := range scopes {
			if s == "" || strings.ContainsAny(s, " \t\r\n") {
				return fmt.Errorf("scope %q is empty or has white space", s)
			}
		}
		c.scopes = append([]string(nil), scopes...)
		return nil
	}
}

// tokenJSON is the AccessToken record of POST /oauth2/token.
type tokenJSON struct {
	AccessToken     string          `json:"access_token"`
	ExpiresIn       int64           `json:"expires_in"`
	TokenType       string          `json:"token_type"`
	RefreshToken    string          `json:"refresh_token"`
	RestrictedTo    json.RawMessage `json:"restricted_to"`
	IssuedTokenType string          `json:"issued_token_type"`
}

// postForm sends a form to an authorization endpoint and decodes a 2xx
// JSON answer into out (when not nil). A non-2xx answer is an *APIError
// whose Code and Message are the OAuth error and error_description. The
// response body is always read and closed.
func (c *authConfig) postForm(ctx context.Context, endpoint string, form url.Values, out any) (*http.Response, error) {
	// The body carries secrets: wrapping it keeps net/http from keeping a
	// GetBody copy of it on the request that an error would reference.
	encoded := form.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, io.NopCloser(strings.NewReader(encoded)))
	if err != nil {
		return nil, errors.New("cms: building authorization request")
	}
	req.ContentLength = int64(len(encoded))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", defaultUserAgent)
	resp, err := c.client().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &url.Error{Op: http.MethodPost, URL: endpoint, Err: unwrapURLError(err)}
	}
	if err := CheckResponse(resp); err != nil {
		return resp, err
	}
	defer resp.Body.Close()
	if out == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return resp, nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
		// The body holds credentials: never quote it.
		return resp, fmt.Errorf("cms: POST %s: undecodable token response", endpoint)
	}
	return resp, nil
}

// requestToken posts a grant to the token endpoint and returns the token,
// its Expiry computed with the configured clock.
func (c *authConfig) requestToken(ctx context.Context, form url.Values) (*oauth2.Token, *http.Response, error) {
	var tj tokenJSON
	resp, err := c.postForm(ctx, c.tokenURL, form, &tj)
	if err != nil {
		return nil, resp, err
	}
	if tj.AccessToken == "" {
		return nil, resp, fmt.Errorf("cms: POST %s: token response has no access_token", c.tokenURL)
	}
	tok := &oauth2.Token{AccessToken: tj.AccessToken, TokenType: tj.TokenType, RefreshToken: tj.RefreshToken, ExpiresIn: tj.ExpiresIn}
	if tj.ExpiresIn > 0 {
		tok.Expiry = c.clock().Add(time.Duration(tj.ExpiresIn) * time.Second)
	}
	extra := map[string]any{}
	if len(tj.RestrictedTo) > 0 {
		var rt any
		if json.Unmarshal(tj.RestrictedTo, &rt) == nil {
			extra["restricted_to"] = rt
		}
	}
	if tj.IssuedTokenType != "" {
		extra["issued_token_type"] = tj.IssuedTokenType
	}
	if len(extra) > 0 {
		tok = tok.WithExtra(extra)
	}
	return tok, resp, nil
}

// fromOAuth2Error turns x/oauth2's error for a failed token request into
// the SDK's *APIError.
func fromOAuth2Error(err error, endpoint string) error {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.Response == nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return &url.Error{Op: http.MethodPost, URL: endpoint, Err: ue.Err}
		}
		return err
	}
	e := &APIError{StatusCode: re.Response.StatusCode, Code: re.ErrorCode, Message: re.ErrorDescription,
		Body: re.Body, Response: re.Response, Method: http.MethodPost, URL: endpoint, RequestID: requestID(re.Response)}
	if re.Response.StatusCode >= 200 && re.Response.StatusCode < 300 {
		// A 2xx that x/oauth2 rejected (no access_token): the body is a token; drop it.
		e.Body = nil
		e.Message = "unusable token response"
	}
	if e.Code == "" && e.Message == "" {
		e.Message = http.StatusText(e.StatusCode)
	}
	return e
}

// withHTTPClient puts the auth HTTP client where x/oauth2 looks for it.
func (c *authConfig) withHTTPClient(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, c.client())
}

// revoke posts POST /oauth2/revoke for token.
func (c *authConfig) revoke(ctx context.Context, clientID, clientSecret, token string) error {
	if token == "" {
		return &ArgError{Arg: "token", Err: ErrInvalidArgument, Reason: "empty"}
	}
	form := url.Values{"client_id": {clientID}, "client_secret": {clientSecret}, "token": {token}}
	_, err := c.postForm(ctx, c.revokeURL, form, nil)
	if err == nil {
		c.debug(ctx, "token revoked", slog.String("endpoint", c.revokeURL))
	}
	return err
}
