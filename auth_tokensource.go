package cms

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/sync/singleflight"
)

// grant fetches a new token from POST /oauth2/token. cur is the token the
// source holds (nil at first); rejected is true when the service refused
// it (401), so a stored token must not be trusted either.
type grant interface {
	fetch(ctx context.Context, cfg *authConfig, cur *oauth2.Token, rejected bool) (*oauth2.Token, error)
	name() string
}

// TokenSource hands out access tokens of one credential (JWT, client
// credentials or authorization code with refresh) and keeps them fresh:
//
//   - a token is replaced once it is within the refresh margin of its
//     expiry (WithRefreshMargin), before any request leaves with it;
//   - concurrent callers share one fetch (single flight): N requests on an
//     expiring token cause one call of POST /oauth2/token;
//   - a Client using it answers a 401 by forcing one refresh and retrying
//     the request once, when its body can be sent again.
//
// It implements oauth2.TokenSource; pass it to WithTokenSource. It is safe
// for concurrent use.
type TokenSource struct {
	cfg          authConfig
	grant        grant
	clientID     string
	clientSecret string
	store        TokenStore // authorization code only

	mu    sync.Mutex
	tok   *oauth2.Token
	fetch singleflight.Group // one POST /oauth2/token at a time, shared by every caller
}

func newTokenSource(cfg authConfig, g grant, clientID, clientSecret string, store TokenStore) *TokenSource {
	return &TokenSource{cfg: cfg, grant: g, clientID: clientID, clientSecret: clientSecret, store: store}
}

// Token returns a valid access token, fetching one if needed. It implements
// oauth2.TokenSource; prefer TokenContext, which honours a ctx.
func (ts *TokenSource) Token() (*oauth2.Token, error) {
	return ts.TokenContext(context.Background())
}

// TokenContext returns a valid access token, fetching one from
// POST /oauth2/token when there is none or it is within the refresh margin
// of its expiry. Waiting for a fetch started by another caller ends when
// ctx does.
func (ts *TokenSource) TokenContext(ctx context.Context) (*oauth2.Token, error) {
	return ts.get(ctx, "", false)
}

// Refresh replaces the current token by a new one from POST /oauth2/token
// whatever its expiry (a refresh-token grant for the authorization-code
// flow) and returns it.
func (ts *TokenSource) Refresh(ctx context.Context) (*oauth2.Token, error) {
	ts.mu.Lock()
	stale := ""
	if ts.tok != nil {
		stale = ts.tok.AccessToken
	}
	ts.mu.Unlock()
	return ts.get(ctx, stale, true)
}

// refreshRejected replaces the token the service rejected with a 401,
// unless another caller already replaced it.
func (ts *TokenSource) refreshRejected(ctx context.Context, rejected string) (*oauth2.Token, error) {
	return ts.get(ctx, rejected, true)
}

func (ts *TokenSource) valid(t *oauth2.Token) bool { return t != nil && validAt(&ts.cfg, t) }

// usable reports whether cur can be handed out: valid, and, when forced,
// not the stale token being replaced.
func (ts *TokenSource) usable(cur *oauth2.Token, stale string, force bool) bool {
	return ts.valid(cur) && (!force || cur.AccessToken != stale)
}

// get returns the current token or joins (or starts) the one fetch in
// flight (golang.org/x/sync/singleflight). With force, the token whose
// access token is stale is replaced even when it looks valid; a different
// current token is returned as is.
func (ts *TokenSource) get(ctx context.Context, stale string, force bool) (*oauth2.Token, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	ts.mu.Lock()
	cur := ts.tok
	ts.mu.Unlock()
	if ts.usable(cur, stale, force) {
		return cur, nil
	}
	ch := ts.fetch.DoChan("token", func() (any, error) {
		// A fetch that ended just before this one started may already
		// have brought what is needed.
		ts.mu.Lock()
		now := ts.tok
		ts.mu.Unlock()
		if now != cur && ts.usable(now, stale, force) {
			return now, nil
		}
		reason := "expiring"
		switch {
		case force:
			reason = "forced"
		case now == nil:
			reason = "initial"
		}
		// The fetch runs in its own goroutine and outlives a caller that
		// gives up: others may be waiting for it.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ts.cfg.fetchTimeout)
		defer cancel()
		tok, err := ts.grant.fetch(fctx, &ts.cfg, now, force)
		if err == nil && (tok == nil || tok.AccessToken == "") {
			err = errors.New("cms: token endpoint returned no access token")
		}
		if err != nil {
			ts.cfg.debug(fctx, "token fetch failed", slog.String("grant", ts.grant.name()), slog.String("reason", reason), slog.String("error", err.Error()))
			return nil, err
		}
		ts.mu.Lock()
		ts.tok = tok
		ts.mu.Unlock()
		ts.cfg.debug(fctx, "token fetched", slog.String("grant", ts.grant.name()), slog.String("reason", reason), slog.Int64("expires_in", tok.ExpiresIn))
		return tok, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			if !force && cur != nil && cur.AccessToken != "" && ts.cfg.clock().Before(cur.Expiry) {
				// A proactive refresh failed but the token has not expired
				// yet: use it; the next call tries again.
				return cur, nil
			}
			return nil, res.Err
		}
		return res.Val.(*oauth2.Token), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Revoke revokes the current token with POST /oauth2/revoke (for the
// authorization-code flow this ends the refresh token too), forgets it and
// clears the token store. The next use fetches a new token where the grant
// allows it (JWT, client credentials); the authorization-code flow needs a
// new authorization.
func (ts *TokenSource) Revoke(ctx context.Context) error {
	ts.mu.Lock()
	cur := ts.tok
	ts.mu.Unlock()
	token := ""
	if cur != nil {
		token = cur.AccessToken
	}
	if token == "" && ts.store != nil {
		if st, err := ts.store.Get(ctx); err == nil && st != nil {
			token = st.AccessToken
			if token == "" {
				token = st.RefreshToken
			}
		}
	}
	if token != "" {
		if err := ts.cfg.revoke(ctx, ts.clientID, ts.clientSecret, token); err != nil {
			return err
		}
	}
	ts.mu.Lock()
	if ts.tok == cur {
		ts.tok = nil
	}
	ts.mu.Unlock()
	if ts.store != nil {
		return ts.store.Clear(ctx)
	}
	return nil
}

// RevokeToken revokes any token issued to this app (for instance one from
// Downscope) with POST /oauth2/revoke.
func (ts *TokenSource) RevokeToken(ctx context.Context, token string) error {
	return ts.cfg.revoke(ctx, ts.clientID, ts.clientSecret, token)
}

// Downscope exchanges the current token for one restricted to scopes and,
// when resource is not empty, to one item (the full API URL of a file or
// folder, e.g. https://api.box.com/2.0/files/123), with the token-exchange
// grant of POST /oauth2/token. The result has no refresh token; hand it to
// a less trusted party (a browser, a preview widget) and revoke it with
// RevokeToken when done. The token's Extra("restricted_to") holds what the
// service granted.
func (ts *TokenSource) Downscope(ctx context.Context, scopes []string, resource string) (*oauth2.Token, error) {
	if len(scopes) == 0 {
		return nil, invalidArg("scopes", "at least one scope is needed")
	}
	for _, s := range scopes {
		if s == "" || strings.ContainsAny(s, " \t\r\n") {
			return nil, invalidArg("scopes", "a scope is empty or has white space")
		}
	}
	if resource != "" {
		if u, err := url.Parse(resource); err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, invalidArg("resource", "not an absolute URL")
		}
	}
	cur, err := ts.TokenContext(ctx)
	if err != nil {
		return nil, err
	}
	return downscope(ctx, &ts.cfg, cur.AccessToken, scopes, resource)
}

// Downscope exchanges accessToken for a token restricted to scopes (and
// resource, when not empty) with the token-exchange grant of
// POST /oauth2/token. See TokenSource.Downscope.
func Downscope(ctx context.Context, accessToken string, scopes []string, resource string, opts ...AuthOption) (*oauth2.Token, error) {
	cfg := defaultAuthConfig()
	if err := cfg.apply(opts); err != nil {
		return nil, err
	}
	if accessToken == "" {
		return nil, invalidArg("access token", "empty")
	}
	if len(scopes) == 0 {
		return nil, invalidArg("scopes", "at least one scope is needed")
	}
	return downscope(ctx, &cfg, accessToken, scopes, resource)
}

func downscope(ctx context.Context, cfg *authConfig, subjectToken string, scopes []string, resource string) (*oauth2.Token, error) {
	form := url.Values{
		"grant_type":         {GrantTypeTokenExchange},
		"subject_token":      {subjectToken},
		"subject_token_type": {TokenTypeAccessToken},
		"scope":              {strings.Join(scopes, " ")},
	}
	if resource != "" {
		form.Set("resource", resource)
	}
	tok, _, err := cfg.requestToken(ctx, form)
	if err != nil {
		return nil, err
	}
	cfg.debug(ctx, "token downscoped", slog.String("scope", strings.Join(scopes, " ")), slog.Int64("expires_in", tok.ExpiresIn))
	return tok, nil
}
