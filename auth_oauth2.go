package cms

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"golang.org/x/oauth2"
)

func secondsDur(n int64) time.Duration { return time.Duration(n) * time.Second }

// OAuth2Config is an app that signs users in with the OAuth 2.0
// authorization-code flow: send the user to AuthCodeURL, receive the code
// at the redirect URI, Exchange it, then use TokenSource with a TokenStore.
// Refresh tokens are single use: every refresh returns a new pair, which the
// token source hands to the store before using it.
type OAuth2Config struct {
	cfg          authConfig
	clientID     string
	clientSecret string
	redirectURL  string
}

// NewOAuth2Config returns the authorization-code configuration of the app
// with clientID and clientSecret that receives codes at redirectURL.
// Options: WithScopes, WithAuthorizeURL, WithTokenEndpoint or
// WithAuthBaseURL, WithAuthHTTPClient, WithAuthLogger, WithClock,
// WithRefreshMargin.
func NewOAuth2Config(clientID, clientSecret, redirectURL string, opts ...AuthOption) (*OAuth2Config, error) {
	cfg := defaultAuthConfig()
	if err := cfg.apply(opts); err != nil {
		return nil, err
	}
	if clientID == "" || clientSecret == "" {
		return nil, errors.New("cms: client id and client secret are required")
	}
	if redirectURL != "" {
		if u, err := url.Parse(redirectURL); err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, errors.New("cms: redirect URL must be an absolute http(s) URL")
		}
	}
	return &OAuth2Config{cfg: cfg, clientID: clientID, clientSecret: clientSecret, redirectURL: redirectURL}, nil
}

func (c *OAuth2Config) oauth2() *oauth2.Config {
	return &oauth2.Config{
		ClientID:     c.clientID,
		ClientSecret: c.clientSecret,
		RedirectURL:  c.redirectURL,
		Scopes:       c.cfg.scopes,
		Endpoint:     oauth2.Endpoint{AuthURL: c.cfg.authorizeURL, TokenURL: c.cfg.tokenURL, AuthStyle: oauth2.AuthStyleInParams},
	}
}

// AuthCodeURL returns the URL of the authorization page
// (GET https://account.box.com/api/oauth2/authorize) with response_type=code,
// client_id, redirect_uri, scope and state. state must be unguessable and
// checked when the user comes back to the redirect URI.
func (c *OAuth2Config) AuthCodeURL(state string, opts ...oauth2.AuthCodeOption) string {
	return c.oauth2().AuthCodeURL(state, opts...)
}

// Exchange trades an authorization code for an access and refresh token
// with POST /oauth2/token (grant authorization_code). Store the result in
// the TokenStore given to TokenSource.
func (c *OAuth2Config) Exchange(ctx context.Context, code string, opts ...oauth2.AuthCodeOption) (*oauth2.Token, error) {
	if code == "" {
		return nil, invalidArg("code", "empty")
	}
	tok, err := c.oauth2().Exchange(c.cfg.withHTTPClient(ctx), code, opts...)
	if err != nil {
		return nil, fromOAuth2Error(err, c.cfg.tokenURL)
	}
	c.cfg.debug(ctx, "authorization code exchanged", slog.Int64("expires_in", tok.ExpiresIn))
	return withClockExpiry(&c.cfg, tok), nil
}

// TokenSource returns a token source that reads the user's tokens from
// store and refreshes them (POST /oauth2/token, grant refresh_token) before
// they expire, writing every new pair to store before using it. The store
// must already hold a token from Exchange.
func (c *OAuth2Config) TokenSource(store TokenStore) (*TokenSource, error) {
	if store == nil {
		return nil, errors.New("cms: token store is nil")
	}
	return newTokenSource(c.cfg, &refreshGrant{conf: c, store: store}, c.clientID, c.clientSecret, store), nil
}

// Revoke revokes an access or refresh token of this app with
// POST /oauth2/revoke.
func (c *OAuth2Config) Revoke(ctx context.Context, token string) error {
	return c.cfg.revoke(ctx, c.clientID, c.clientSecret, token)
}

// ErrNoRefreshToken is returned by an authorization-code token source whose
// store holds no refresh token: the user must authorize the app again.
var ErrNoRefreshToken = errors.New("cms: no refresh token; authorize again")

type refreshGrant struct {
	conf  *OAuth2Config
	store TokenStore
}

func (g *refreshGrant) name() string { return "refresh_token" }

func (g *refreshGrant) fetch(ctx context.Context, cfg *authConfig, cur *oauth2.Token, rejected bool) (*oauth2.Token, error) {
	stored, err := g.store.Get(ctx)
	if err != nil && !errors.Is(err, ErrNoToken) {
		return nil, fmt.Errorf("cms: token store: %w", err)
	}
	if stored != nil {
		// Another process (or the first use) may have a newer token.
		if !rejected && stored.AccessToken != "" && (cur == nil || stored.AccessToken != cur.AccessToken) && validAt(cfg, stored) {
			return stored, nil
		}
	}
	rt := ""
	switch {
	case stored != nil && stored.RefreshToken != "":
		rt = stored.RefreshToken
	case cur != nil:
		rt = cur.RefreshToken
	}
	if rt == "" {
		return nil, ErrNoRefreshToken
	}
	src := g.conf.oauth2().TokenSource(cfg.withHTTPClient(ctx), &oauth2.Token{RefreshToken: rt})
	tok, err := src.Token()
	if err != nil {
		return nil, fromOAuth2Error(err, cfg.tokenURL)
	}
	tok = withClockExpiry(cfg, tok)
	// The old refresh token is spent: persist the new pair before using it.
	if err := g.store.Store(ctx, tok); err != nil {
		return nil, fmt.Errorf("cms: token store: %w", err)
	}
	cfg.debug(ctx, "refresh token rotated and stored", slog.Int64("expires_in", tok.ExpiresIn))
	return tok, nil
}

func validAt(cfg *authConfig, t *oauth2.Token) bool {
	return t.AccessToken != "" && (t.Expiry.IsZero() || cfg.clock().Add(cfg.margin).Before(t.Expiry))
}
