package cms

// End-to-end tests of every authentication flow against the reference
// server. The server and the SDK share an injected clock: tokens expire
// without sleeping.

import (
	"bytes"
	"context"
	"crypto/rsa"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver"
	"github.com/golang-jwt/jwt/v5"
)

const e2eRedirect = "https://app.example/callback"

type e2e struct {
	t     *testing.T
	hc    *http.Client // own connections, closed before the server
	srv   *refserver.Server
	clk   *fakeClock
	app   *AppConfig
	reg   refserver.App
	noRed *http.Client
}

func newE2E(t *testing.T, serverSkew time.Duration) *e2e {
	t.Helper()
	clk := newFakeClock()
	srv, err := refserver.Start(refserver.Options{
		Now:           func() time.Time { return clk.Now().Add(serverSkew) },
		TokenLifetime: 10 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	key, _ := rsaKey(t)
	raw, reg, err := srv.NewAppConfig(key, testPassphrase, e2eRedirect)
	if err != nil {
		t.Fatal(err)
	}
	app, err := ParseAppConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections) // runs before the server's Close
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	noRed := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &e2e{t: t, hc: hc, srv: srv, clk: clk, app: app, reg: reg, noRed: noRed}
}

func (e *e2e) authOpts(extra ...AuthOption) []AuthOption {
	return append([]AuthOption{WithAuthBaseURL(e.srv.BaseURL()), WithAuthorizeURL(e.srv.AuthorizeURL()), WithClock(e.clk.Now), WithAuthHTTPClient(e.hc)}, extra...)
}

func (e *e2e) client(opts ...Option) *Client {
	e.t.Helper()
	c, err := NewClient(append([]Option{WithBaseURL(e.srv.BaseURL()), WithUploadURL(e.srv.UploadURL()), WithHTTPClient(e.hc), WithoutRetries()}, opts...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// tokenRequests counts the requests the token endpoint received.
func (e *e2e) tokenRequests() int {
	n := 0
	for _, r := range e.srv.Requests() {
		if r.Path == "/oauth2/token" {
			n++
		}
	}
	return n
}

func (e *e2e) apiRequests() []refserver.RequestRecord {
	var out []refserver.RequestRecord
	for _, r := range e.srv.Requests() {
		if strings.HasPrefix(r.Path, "/2.0/") {
			out = append(out, r)
		}
	}
	return out
}

// postToken posts a raw form to the token endpoint and returns the status
// and the OAuth error.
func (e *e2e) postToken(form url.Values) (int, string, string) {
	resp, err := e.hc.PostForm(e.srv.TokenURL(), form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	err = CheckResponse(resp)
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.StatusCode, ae.Code, ae.Message
	}
	return resp.StatusCode, "", ""
}

func (e *e2e) assertion(claims jwt.MapClaims, kid string) string {
	key, _ := rsaKey(e.t)
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(key)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func TestE2EJWT(t *testing.T) {
	e := newE2E(t, 0)
	ctx := context.Background()
	ts, err := NewJWTTokenSource(e.app, e.authOpts(WithJWTAlgorithm("RS512"))...)
	if err != nil {
		t.Fatal(err)
	}
	c := e.client(WithTokenSource(ts))
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	uts, _ := ts.ForUser(e.srv.UserID())
	if err := getFolder(ctx, e.client(WithTokenSource(uts))); err != nil {
		t.Fatal(err)
	}
	bad, _ := ts.ForUser(e.srv.AppUserID()) // the service account is not a managed user
	_, err = bad.TokenContext(ctx)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != "invalid_grant" || !strings.Contains(ae.Message, "'sub'") {
		t.Fatalf("service account as user subject: %v", err)
	}

	// The server's checks, one by one, with hand-made assertions.
	now := e.clk.Now()
	kid := e.app.BoxAppSettings.AppAuth.PublicKeyID
	claims := func(jti string, exp time.Time) jwt.MapClaims {
		return jwt.MapClaims{"iss": e.reg.ClientID, "sub": e.srv.EnterpriseID(), "box_sub_type": "enterprise",
			"aud": e.srv.TokenURL(), "jti": jti, "exp": exp.Unix()}
	}
	form := func(assertion string) url.Values {
		return url.Values{"grant_type": {GrantTypeJWTBearer}, "assertion": {assertion}, "client_id": {e.reg.ClientID}, "client_secret": {e.reg.ClientSecret}}
	}
	jti := "0123456789abcdef-reused"
	if st, code, _ := e.postToken(form(e.assertion(claims(jti, now.Add(30*time.Second)), kid))); st != 200 {
		t.Fatalf("first use of jti: %d %s", st, code)
	}
	for name, tc := range map[string]struct {
		assertion string
		desc      string
	}{
		"reused jti":    {e.assertion(claims(jti, now.Add(30*time.Second)), kid), "'jti'"},
		"exp too far":   {e.assertion(claims("0123456789abcdef-far", now.Add(90*time.Second)), kid), "'exp'"},
		"exp past":      {e.assertion(claims("0123456789abcdef-past", now.Add(-time.Second)), kid), "'exp'"},
		"unknown kid":   {e.assertion(claims("0123456789abcdef-kid", now.Add(30*time.Second)), "other"), "'kid'"},
		"short jti":     {e.assertion(claims("short", now.Add(30*time.Second)), kid), "'jti'"},
		"wrong aud":     {e.assertion(jwt.MapClaims{"iss": e.reg.ClientID, "sub": e.srv.EnterpriseID(), "box_sub_type": "enterprise", "aud": "https://example.com/oauth2/token", "jti": "0123456789abcdef-aud", "exp": now.Add(30 * time.Second).Unix()}, kid), "'aud'"},
		"wrong sub":     {e.assertion(jwt.MapClaims{"iss": e.reg.ClientID, "sub": "999", "box_sub_type": "enterprise", "aud": e.srv.TokenURL(), "jti": "0123456789abcdef-sub", "exp": now.Add(30 * time.Second).Unix()}, kid), "'sub'"},
		"tampered":      {e.assertion(claims("0123456789abcdef-tamp", now.Add(30*time.Second)), kid) + "x", "ignature"},
		"not signed":    {"e30.e30.", "ignature"},
		"missing claim": {e.assertion(jwt.MapClaims{"iss": e.reg.ClientID, "aud": e.srv.TokenURL(), "jti": "0123456789abcdef-miss", "exp": now.Add(30 * time.Second).Unix()}, kid), ""},
	} {
		st, code, desc := e.postToken(form(tc.assertion))
		if st == 200 || (code != "invalid_grant" && code != "invalid_request") || !strings.Contains(desc, tc.desc) {
			t.Errorf("%s: %d %s %q", name, st, code, desc)
		}
	}
	// An app the enterprise has not authorized.
	key, _ := rsaKey(t)
	na, err := e.srv.RegisterApp(refserver.App{NotAuthorized: true, PublicKeys: map[string]*rsa.PublicKey{"k": &key.PublicKey}})
	if err != nil {
		t.Fatal(err)
	}
	naCfg := *e.app
	naCfg.BoxAppSettings.ClientID, naCfg.BoxAppSettings.ClientSecret, naCfg.BoxAppSettings.AppAuth.PublicKeyID = na.ClientID, na.ClientSecret, "k"
	nts, _ := NewJWTTokenSource(&naCfg, e.authOpts()...)
	if _, err := nts.TokenContext(ctx); !errors.As(err, &ae) || ae.Code != "unauthorized_client" {
		t.Fatalf("unauthorized app: %v", err)
	}
}

func TestE2EJWTClockSkewRecoveredViaDate(t *testing.T) {
	e := newE2E(t, 10*time.Minute) // the service's clock is 10 minutes ahead
	ts, _ := NewJWTTokenSource(e.app, e.authOpts()...)
	if err := getFolder(context.Background(), e.client(WithTokenSource(ts))); err != nil {
		t.Fatal(err)
	}
	if n := e.tokenRequests(); n != 2 {
		t.Fatalf("%d token requests, want 2 (exp rejected, then accepted)", n)
	}
}

func TestE2EClientCredentials(t *testing.T) {
	e := newE2E(t, 0)
	ctx := context.Background()
	ts, err := NewCCGTokenSourceFromConfig(e.app, e.authOpts()...)
	if err != nil {
		t.Fatal(err)
	}
	if err := getFolder(ctx, e.client(WithTokenSource(ts))); err != nil {
		t.Fatal(err)
	}
	uts, _ := NewCCGTokenSource(e.reg.ClientID, e.reg.ClientSecret, UserSubject(e.srv.UserID()), e.authOpts()...)
	if err := getFolder(ctx, e.client(WithTokenSource(uts))); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		secret  string
		subject Subject
		code    string
	}{
		"wrong secret":         {"nope", EnterpriseSubject(e.srv.EnterpriseID()), "invalid_client"},
		"other enterprise":     {e.reg.ClientSecret, EnterpriseSubject("42"), "invalid_grant"},
		"unknown user":         {e.reg.ClientSecret, UserSubject("42"), "invalid_grant"},
		"service account user": {e.reg.ClientSecret, UserSubject(e.srv.AppUserID()), "invalid_grant"},
	} {
		bad, _ := NewCCGTokenSource(e.reg.ClientID, tc.secret, tc.subject, e.authOpts()...)
		_, err := bad.TokenContext(ctx)
		var ae *APIError
		if !errors.As(err, &ae) || ae.Code != tc.code || ae.StatusCode != 400 {
			t.Errorf("%s: %v", name, err)
		}
	}
	na, _ := e.srv.RegisterApp(refserver.App{NotAuthorized: true})
	nts, _ := NewCCGTokenSource(na.ClientID, na.ClientSecret, EnterpriseSubject(e.srv.EnterpriseID()), e.authOpts()...)
	var ae *APIError
	if _, err := nts.TokenContext(ctx); !errors.As(err, &ae) || ae.Code != "unauthorized_client" {
		t.Fatalf("unauthorized app: %v", err)
	}
}

// authorize drives the authorization page like a browser that grants access.
func (e *e2e) authorize(conf *OAuth2Config, state string) string {
	e.t.Helper()
	resp, err := e.noRed.Get(conf.AuthCodeURL(state))
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("authorize: %d", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if !strings.HasPrefix(loc.String(), e2eRedirect+"?") || loc.Query().Get("state") != state || loc.Query().Get("code") == "" {
		e.t.Fatalf("redirect %s", loc)
	}
	return loc.Query().Get("code")
}

func TestE2EAuthorizationCodeRotationThroughFileStore(t *testing.T) {
	e := newE2E(t, 0)
	ctx := context.Background()
	conf, err := NewOAuth2Config(e.reg.ClientID, e.reg.ClientSecret, e2eRedirect, e.authOpts(WithScopes("root_readwrite"))...)
	if err != nil {
		t.Fatal(err)
	}
	code := e.authorize(conf, "st-1")
	tok, err := conf.Exchange(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conf.Exchange(ctx, code); err == nil {
		t.Fatal("a code was accepted twice")
	}
	path := filepath.Join(t.TempDir(), "tokens.json")
	store, _ := NewFileTokenStore(path)
	if err := store.Store(ctx, tok); err != nil {
		t.Fatal(err)
	}
	ts, _ := conf.TokenSource(store)
	c := e.client(WithTokenSource(ts))
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(10 * time.Minute) // the access token has expired
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	rotated, err := store.Get(ctx)
	if err != nil || rotated.RefreshToken == tok.RefreshToken || rotated.AccessToken == tok.AccessToken {
		t.Fatalf("store not rotated: %v", err)
	}
	// The old refresh token stopped working.
	st, ecode, _ := e.postToken(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken},
		"client_id": {e.reg.ClientID}, "client_secret": {e.reg.ClientSecret}})
	if st != 400 || ecode != "invalid_grant" {
		t.Fatalf("old refresh token: %d %s", st, ecode)
	}
	// A restarted program continues from the file.
	e.clk.Advance(10 * time.Minute)
	store2, _ := NewFileTokenStore(path)
	ts2, _ := conf.TokenSource(store2)
	if err := getFolder(ctx, e.client(WithTokenSource(ts2))); err != nil {
		t.Fatal(err)
	}
	again, _ := store2.Get(ctx)
	if again.RefreshToken == rotated.RefreshToken {
		t.Fatal("not rotated after restart")
	}
	// The unregistered redirect URI is refused.
	other, _ := NewOAuth2Config(e.reg.ClientID, e.reg.ClientSecret, "https://evil.example/cb", e.authOpts()...)
	resp, err := e.noRed.Get(other.AuthCodeURL("s"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("unregistered redirect: %d", resp.StatusCode)
	}
	// Revoke ends the pair and clears the store.
	if err := ts2.Revoke(ctx); err != nil {
		t.Fatal(err)
	}
	err = getFolder(ctx, e.client(WithToken(again.AccessToken)))
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("revoked token: %v", err)
	}
	if _, err := ts2.TokenContext(ctx); !errors.Is(err, ErrNoRefreshToken) {
		t.Fatalf("after revoke: %v", err)
	}
}

func TestE2EConcurrentRequestsOnExpiringTokenRefreshOnce(t *testing.T) {
	e := newE2E(t, 0)
	ts, _ := NewJWTTokenSource(e.app, e.authOpts(WithRefreshMargin(time.Minute))...)
	c := e.client(WithTokenSource(ts))
	ctx := context.Background()
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(9*time.Minute + 30*time.Second) // inside the refresh margin
	before := e.tokenRequests()
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- getFolder(ctx, c) }()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := e.tokenRequests() - before; n != 1 {
		t.Fatalf("%d refreshes, want 1", n)
	}
}

func TestE2E401RefreshAndRetryOnce(t *testing.T) {
	e := newE2E(t, 0)
	ctx := context.Background()
	ts, _ := NewCCGTokenSourceFromConfig(e.app, e.authOpts()...)
	c := e.client(WithTokenSource(ts))
	tok, err := ts.TokenContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Revoked behind the source's back: it still looks valid to the SDK.
	if err := ts.RevokeToken(ctx, tok.AccessToken); err != nil {
		t.Fatal(err)
	}
	e.srv.ResetRequests()
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	if n, api := e.tokenRequests(), len(e.apiRequests()); n != 1 || api != 2 {
		t.Fatalf("%d token requests, %d API requests; want 1 and 2", n, api)
	}
	// A revoked token fails.
	err = getFolder(ctx, e.client(WithToken(tok.AccessToken)))
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 401 || !strings.Contains(ae.Response.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("revoked token: %v", err)
	}
	// An expired token fails with the expiry named.
	cur, _ := ts.TokenContext(ctx)
	e.clk.Advance(11 * time.Minute)
	err = getFolder(ctx, e.client(WithToken(cur.AccessToken)))
	if !errors.As(err, &ae) || ae.StatusCode != 401 || !strings.Contains(ae.Response.Header.Get("WWW-Authenticate"), "expired") {
		t.Fatalf("expired token: %v", err)
	}
}

func TestE2EAsUser(t *testing.T) {
	e := newE2E(t, 0)
	ctx := context.Background()
	ts, _ := NewJWTTokenSource(e.app, e.authOpts()...)
	c := e.client(WithTokenSource(ts))
	u, err := c.AsUser(e.srv.UserID())
	if err != nil {
		t.Fatal(err)
	}
	e.srv.ResetRequests()
	for range 3 {
		if err := getFolder(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	reqs := e.apiRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs[:3] {
		if r.Header.Get("As-User") != e.srv.UserID() {
			t.Errorf("request %d without As-User", i)
		}
	}
	if reqs[3].Header.Get("As-User") != "" {
		t.Error("the parent client sent As-User")
	}
	// A managed user may not act as another.
	uc, _ := e.client(WithToken(e.srv.UserToken())).AsUser(e.srv.AdminUserID())
	if err := getFolder(ctx, uc); !errors.Is(err, ErrForbidden) {
		t.Fatalf("user with As-User: %v", err)
	}
}

func TestE2EDownscope(t *testing.T) {
	e := newE2E(t, 0)
	ctx := context.Background()
	ts, _ := NewJWTTokenSource(e.app, e.authOpts()...)
	root := e.srv.BaseURL() + "/folders/0"
	ds, err := ts.Downscope(ctx, []string{"base_explorer"}, root)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Extra("issued_token_type") != TokenTypeAccessToken || ds.Extra("restricted_to") == nil {
		t.Errorf("extra %v %v", ds.Extra("issued_token_type"), ds.Extra("restricted_to"))
	}
	dc := e.client(WithToken(ds.AccessToken))
	if err := getFolder(ctx, dc); err != nil {
		t.Fatal(err)
	}
	if err := postJSON(ctx, dc, map[string]any{"name": "x", "parent": map[string]string{"id": "0"}}); !errors.Is(err, ErrForbidden) {
		t.Fatalf("write with a read-only token: %v", err)
	}
	// More scopes than the subject token has: 401.
	_, err = Downscope(ctx, ds.AccessToken, []string{"root_readwrite"}, "", e.authOpts()...)
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 401 {
		t.Fatalf("upscoping: %v", err)
	}
	if _, err := ts.Downscope(ctx, []string{"no_such_scope"}, ""); !errors.As(err, &ae) || ae.Code != "invalid_scope" {
		t.Fatalf("unknown scope: %v", err)
	}
	if err := ts.RevokeToken(ctx, ds.AccessToken); err != nil {
		t.Fatal(err)
	}
	if err := getFolder(ctx, dc); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("revoked downscoped token: %v", err)
	}
}

func TestE2ENoSecretsInLogs(t *testing.T) {
	e := newE2E(t, 2*time.Minute) // includes a skew recovery
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx := context.Background()
	opts := e.authOpts(WithAuthLogger(logger))
	var secrets []string
	keep := func(ts *TokenSource) {
		if tok, err := ts.TokenContext(ctx); err == nil {
			secrets = append(secrets, tok.AccessToken, tok.RefreshToken)
		}
	}
	jts, _ := NewJWTTokenSource(e.app, opts...)
	c := e.client(WithTokenSource(jts), WithLogger(logger))
	_ = getFolder(ctx, c)
	keep(jts)
	cts, _ := NewCCGTokenSourceFromConfig(e.app, opts...)
	_ = getFolder(ctx, e.client(WithTokenSource(cts), WithLogger(logger)))
	keep(cts)
	conf, _ := NewOAuth2Config(e.reg.ClientID, e.reg.ClientSecret, e2eRedirect, opts...)
	tok, err := conf.Exchange(ctx, e.authorize(conf, "s"))
	if err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, tok.AccessToken, tok.RefreshToken)
	ats, _ := conf.TokenSource(NewMemoryTokenStore(tok))
	ac := e.client(WithTokenSource(ats), WithLogger(logger))
	_ = getFolder(ctx, ac)
	e.clk.Advance(10 * time.Minute)
	_ = getFolder(ctx, ac)
	keep(ats)
	_ = ats.Revoke(ctx)
	_ = getFolder(ctx, ac) // fails: no refresh token any more
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if !strings.Contains(out, "refresh token rotated") {
		t.Fatalf("logs incomplete:\n%s", out)
	}
	assertNoSecret(t, out)
	for _, s := range append(secrets, e.reg.ClientSecret, e.app.BoxAppSettings.AppAuth.PrivateKey[40:90]) {
		if s != "" && strings.Contains(out, s) {
			t.Errorf("secret %q... in logs", s[:min(6, len(s))])
		}
	}
}
