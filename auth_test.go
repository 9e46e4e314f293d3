package cms

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
)

func getFolder(ctx context.Context, c *Client) error {
	r, err := c.newRequest(http.MethodGet, c.cfg.baseURL, nil, "folders", "0")
	if err != nil {
		return err
	}
	_, err = c.do(ctx, r, &map[string]any{})
	return err
}

func postJSON(ctx context.Context, c *Client, body any) error {
	r, err := c.newRequest(http.MethodPost, c.cfg.baseURL, nil, "folders")
	if err != nil {
		return err
	}
	if err := r.setJSON(body); err != nil {
		return err
	}
	_, err = c.do(ctx, r, &map[string]any{})
	return err
}

func TestTokenURLFor(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.box.com/2.0":     "https://api.box.com/oauth2/token",
		"http://127.0.0.1:8080/2.0/":  "http://127.0.0.1:8080/oauth2/token",
		"http://api.cms.test/2.0":     "http://api.cms.test/oauth2/token",
		"https://example.com/api/2.0": "https://example.com/oauth2/token",
	} {
		got, err := TokenURLFor(in)
		if err != nil || got != want {
			t.Errorf("TokenURLFor(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := TokenURLFor("ftp://x"); err == nil {
		t.Error("ftp accepted")
	}
	var c authConfig
	if err := WithTokenEndpoint("http://h:1/oauth2/token")(&c); err != nil || c.revokeURL != "http://h:1/oauth2/revoke" {
		t.Errorf("revoke URL %q, %v", c.revokeURL, err)
	}
}

func TestParseAppConfig(t *testing.T) {
	c := testAppConfig(t)
	if c.BoxAppSettings.ClientID != testClientID || c.EnterpriseID != testEnterprise || c.BoxAppSettings.AppAuth.PublicKeyID != testKeyID {
		t.Fatalf("parsed %v", c)
	}
	key, err := c.privateKey()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := rsaKey(t)
	if !key.Equal(want) {
		t.Fatal("decoded key differs")
	}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("cfg", "config", c, "value", *c)
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprintf("%+v", *c), fmt.Sprintf("%v", c.BoxAppSettings), logs.String()} {
		assertNoSecret(t, s)
		if !strings.Contains(s, testClientID) {
			t.Errorf("client id missing from %q", s)
		}
	}

	wrong := *c
	wrong.BoxAppSettings.AppAuth.Passphrase = "nope"
	if _, err := wrong.privateKey(); err == nil || !strings.Contains(err.Error(), "passphrase") {
		t.Errorf("wrong passphrase: %v", err)
	}
	if _, err := NewJWTTokenSource(&wrong); err == nil {
		t.Error("JWT source with a wrong passphrase")
	}
	for name, data := range map[string]string{
		"syntax":    `{"boxAppSettings": `,
		"no secret": `{"boxAppSettings": {"clientID": "x"}}`,
		"type":      `{"boxAppSettings": {"clientID": 5}}`,
	} {
		if _, err := ParseAppConfig([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, testAppConfigJSON(t), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadAppConfig(path); err != nil {
		t.Fatal(err)
	}
}

func TestJWTAssertion(t *testing.T) {
	for _, alg := range []string{"RS256", "RS384", "RS512"} {
		t.Run(alg, func(t *testing.T) {
			clk := newFakeClock()
			f := newFakeAuth(t, clk.Now)
			ts, err := NewJWTTokenSource(testAppConfig(t), WithAuthBaseURL(f.baseURL()), WithJWTAlgorithm(alg), WithClock(clk.Now))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := ts.TokenContext(ctx); err != nil {
				t.Fatal(err)
			}
			first := f.lastForm()
			if _, err := ts.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			second := f.lastForm()
			var jtis []string
			for _, form := range []url.Values{first, second} {
				if form.Get("grant_type") != GrantTypeJWTBearer || form.Get("client_id") != testClientID || form.Get("client_secret") != testClientSecret {
					t.Fatalf("form %v", form.Get("grant_type"))
				}
				claims := jwt.MapClaims{}
				tok, _, err := jwt.NewParser().ParseUnverified(form.Get("assertion"), claims)
				if err != nil {
					t.Fatal(err)
				}
				if tok.Method.Alg() != alg || tok.Header["kid"] != testKeyID {
					t.Errorf("header %v", tok.Header)
				}
				if claims["iss"] != testClientID || claims["sub"] != testEnterprise || claims["box_sub_type"] != "enterprise" || claims["aud"] != f.tokenURL() {
					t.Errorf("claims %v", claims)
				}
				exp, _ := claims.GetExpirationTime()
				if d := exp.Sub(clk.Now()); d <= 0 || d > 60*time.Second {
					t.Errorf("exp %v ahead", d)
				}
				jtis = append(jtis, claims["jti"].(string))
			}
			if jtis[0] == jtis[1] {
				t.Error("jti reused")
			}
			uts, err := ts.ForUser("2000002")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := uts.TokenContext(ctx); err != nil {
				t.Fatal(err)
			}
			claims := jwt.MapClaims{}
			_, _, _ = jwt.NewParser().ParseUnverified(f.lastForm().Get("assertion"), claims)
			if claims["sub"] != "2000002" || claims["box_sub_type"] != "user" {
				t.Errorf("user claims %v", claims)
			}
		})
	}
}

func TestJWTClockSkew(t *testing.T) {
	local := newFakeClock()
	server := func() time.Time { return local.Now().Add(5 * time.Minute) } // service is 5 min ahead
	f := newFakeAuth(t, server)
	ts, err := NewJWTTokenSource(testAppConfig(t), WithAuthBaseURL(f.baseURL()), WithClock(local.Now))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.TokenContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.grantCount(GrantTypeJWTBearer); n != 2 {
		t.Fatalf("%d token requests, want 2 (rejected, retried)", n)
	}
	// The offset is kept: the next assertion is accepted at once.
	if _, err := ts.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.grantCount(GrantTypeJWTBearer); n != 3 {
		t.Fatalf("%d token requests, want 3", n)
	}

	// Without a usable retry the error is the service's.
	f2 := newFakeAuth(t, func() time.Time { return local.Now().Add(-5 * time.Minute) })
	cfg := testAppConfig(t)
	cfg.BoxAppSettings.ClientSecret = "wrong"
	ts2, _ := NewJWTTokenSource(cfg, WithAuthBaseURL(f2.baseURL()), WithClock(local.Now))
	_, err = ts2.TokenContext(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != "invalid_client" || !errors.Is(err, ErrBadRequest) {
		t.Fatalf("err %v", err)
	}
}

func TestCCG(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	ts, err := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise), WithAuthBaseURL(f.baseURL()), WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ts.TokenContext(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !tok.Expiry.Equal(clk.Now().Add(time.Hour)) {
		t.Errorf("expiry %v not from the injected clock", tok.Expiry)
	}
	form := f.lastForm()
	if form.Get("grant_type") != "client_credentials" || form.Get("box_subject_type") != "enterprise" || form.Get("box_subject_id") != testEnterprise || form.Get("client_id") != testClientID {
		t.Errorf("form %v", form)
	}
	uts, _ := ts.ForUser("2000002")
	if _, err := uts.TokenContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if form := f.lastForm(); form.Get("box_subject_type") != "user" || form.Get("box_subject_id") != "2000002" {
		t.Errorf("user form %v", form)
	}
	bad, _ := NewCCGTokenSource(testClientID, "wrong", EnterpriseSubject(testEnterprise), WithAuthBaseURL(f.baseURL()))
	_, err = bad.TokenContext(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != "invalid_client" || ae.StatusCode != 400 {
		t.Fatalf("err %v", err)
	}
	if _, err := NewCCGTokenSource(testClientID, testClientSecret, Subject{Type: "group", ID: "1"}); err == nil {
		t.Error("bad subject type accepted")
	}
}

func TestAuthorizationCodeRotationThroughFileStore(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	conf, err := NewOAuth2Config(testClientID, testClientSecret, "https://app.example/callback",
		WithAuthBaseURL(f.baseURL()), WithScopes("root_readwrite", "manage_webhook"), WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(conf.AuthCodeURL("state-123"))
	q := u.Query()
	if u.Scheme+"://"+u.Host+u.Path != DefaultAuthorizeURL || q.Get("response_type") != "code" || q.Get("client_id") != testClientID ||
		q.Get("redirect_uri") != "https://app.example/callback" || q.Get("state") != "state-123" || q.Get("scope") != "root_readwrite manage_webhook" {
		t.Errorf("authorize URL %s", u)
	}
	ctx := context.Background()
	if _, err := conf.Exchange(ctx, "bad-code"); err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("bad code: %v", err)
	}
	tok, err := conf.Exchange(ctx, "good-code")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "token.json")
	store, _ := NewFileTokenStore(path)
	if err := store.Store(ctx, tok); err != nil {
		t.Fatal(err)
	}
	ts, err := conf.TokenSource(store)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ts.TokenContext(ctx)
	if err != nil || got.AccessToken != tok.AccessToken {
		t.Fatalf("first token %v, %v", got, err)
	}
	if f.grantCount("refresh_token") != 0 {
		t.Fatal("refreshed a fresh token")
	}
	clk.Advance(time.Hour) // expired
	got2, err := ts.TokenContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got2.AccessToken == tok.AccessToken || got2.RefreshToken == tok.RefreshToken {
		t.Fatal("not rotated")
	}
	onDisk, err := store.Get(ctx)
	if err != nil || onDisk.RefreshToken != got2.RefreshToken || onDisk.AccessToken != got2.AccessToken {
		t.Fatalf("store holds %v, %v", onDisk, err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	// A restarted program continues from the file, with the rotated token.
	clk.Advance(time.Hour)
	store2, _ := NewFileTokenStore(path)
	ts2, _ := conf.TokenSource(store2)
	got3, err := ts2.TokenContext(ctx)
	if err != nil || got3.RefreshToken == got2.RefreshToken {
		t.Fatalf("after restart %v", err)
	}
	// The first refresh token is spent.
	old := NewMemoryTokenStore(&oauth2.Token{AccessToken: "x", RefreshToken: tok.RefreshToken, Expiry: clk.Now().Add(-time.Second)})
	ts3, _ := conf.TokenSource(old)
	if _, err := ts3.TokenContext(ctx); err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("spent refresh token: %v", err)
	}
	// Revoke clears the store.
	if err := ts2.Revoke(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := store2.Get(ctx); !errors.Is(err, ErrNoToken) {
		t.Fatalf("store after revoke: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("file not removed")
	}
	empty, _ := conf.TokenSource(NewMemoryTokenStore(nil))
	if _, err := empty.TokenContext(ctx); !errors.Is(err, ErrNoRefreshToken) {
		t.Fatalf("empty store: %v", err)
	}
}

func TestFileTokenStoreAtomic(t *testing.T) {
	dir := t.TempDir()
	store, _ := NewFileTokenStore(filepath.Join(dir, "tok.json"))
	ctx := context.Background()
	if _, err := store.Get(ctx); !errors.Is(err, ErrNoToken) {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = store.Store(ctx, &oauth2.Token{AccessToken: fmt.Sprint("a", i), RefreshToken: fmt.Sprint("r", i)})
		}()
	}
	wg.Wait()
	tok, err := store.Get(ctx)
	if err != nil || tok.AccessToken[1:] != tok.RefreshToken[1:] {
		t.Fatalf("%v %v", tok, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left: %v", entries)
	}
	if err := store.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.Clear(ctx); err != nil {
		t.Fatal("second clear:", err)
	}
}

func TestSingleFlightRefresh(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	ts, _ := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise),
		WithAuthBaseURL(f.baseURL()), WithClock(clk.Now), WithRefreshMargin(5*time.Minute))
	c, err := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithTokenSource(ts))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	// 56 minutes later the token is inside the 5-minute margin but still
	// valid: the next requests share one proactive refresh.
	clk.Advance(56 * time.Minute)
	f.mu.Lock()
	f.hold, f.arrived = make(chan struct{}), make(chan struct{}, 50)
	hold, arrived := f.hold, f.arrived
	f.mu.Unlock()
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- getFolder(ctx, c) }()
	}
	<-arrived // the one refresh is at the server; the others wait for it or find its token
	close(hold)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := f.grantCount("client_credentials"); n != 2 {
		t.Fatalf("%d token requests, want 2 (initial + one refresh)", n)
	}
}

func Test401RefreshAndRetryOnce(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	ts, _ := NewJWTTokenSource(testAppConfig(t), WithAuthBaseURL(f.baseURL()), WithClock(clk.Now))
	c, _ := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithTokenSource(ts), WithoutRetries())
	ctx := context.Background()
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	f.forgetAccessTokens() // the token looks valid to the SDK but the service rejects it
	f.mu.Lock()
	f.apiCalls, f.bodies = 0, nil
	f.mu.Unlock()
	if err := postJSON(ctx, c, map[string]string{"name": "x"}); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	calls, bodies := f.apiCalls, f.bodies
	f.mu.Unlock()
	if calls != 2 || bodies[0] != bodies[1] || bodies[1] != `{"name":"x"}` {
		t.Fatalf("%d calls, bodies %q", calls, bodies)
	}
	if n := f.grantCount(GrantTypeJWTBearer); n != 2 {
		t.Fatalf("%d token requests", n)
	}

	// A token the service keeps rejecting: one refresh, one retry, then the 401.
	f.mu.Lock()
	f.lifetime = 0 // issued tokens are dead on arrival
	f.apiCalls = 0
	f.mu.Unlock()
	f.forgetAccessTokens()
	err := getFolder(ctx, c)
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("err %v", err)
	}
	f.mu.Lock()
	calls = f.apiCalls
	f.mu.Unlock()
	if calls != 2 {
		t.Fatalf("%d calls, want 2", calls)
	}

	// A static token is not refreshed.
	sc, _ := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithToken("SECRET-unknown"), WithoutRetries())
	if err := getFolder(ctx, sc); !errors.Is(err, ErrUnauthorized) {
		t.Fatal(err)
	}
}

func TestNonReplayableBodyNotRetried(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	ts, _ := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise), WithAuthBaseURL(f.baseURL()), WithClock(clk.Now))
	rt := newAuthTransport(ts, http.DefaultTransport, nil)
	if _, err := ts.TokenContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.forgetAccessTokens()
	req, _ := http.NewRequest(http.MethodPost, f.baseURL()+"/folders", io.NopCloser(strings.NewReader("stream")))
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || f.grantCount("client_credentials") != 1 {
		t.Fatalf("status %d, %d token requests", resp.StatusCode, f.grantCount("client_credentials"))
	}
}

func TestAsUserDerivedClient(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	ts, _ := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise), WithAuthBaseURL(f.baseURL()), WithClock(clk.Now))
	c, _ := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithTokenSource(ts))
	u, err := c.AsUser("2000002")
	if err != nil {
		t.Fatal(err)
	}
	if u.doer != c.doer || u.Files.client != u || c.Files.client != c {
		t.Fatal("derived client must share the transport and own its services")
	}
	ctx := context.Background()
	for range 3 {
		if err := getFolder(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := getFolder(ctx, c); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	got := append([]string(nil), f.asUsers...)
	f.mu.Unlock()
	if strings.Join(got, ",") != "2000002,2000002,2000002," {
		t.Fatalf("As-User headers %q", got)
	}
	if _, err := c.AsUser("../1"); !errors.Is(err, ErrInvalidID) {
		t.Fatal(err)
	}
}

func TestRevokeAndDownscope(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	ts, _ := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise), WithAuthBaseURL(f.baseURL()), WithClock(clk.Now))
	ctx := context.Background()
	tok, err := ts.TokenContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := ts.Downscope(ctx, []string{"item_preview", "item_download"}, f.baseURL()+"/files/123")
	if err != nil {
		t.Fatal(err)
	}
	form := f.lastForm()
	if form.Get("grant_type") != GrantTypeTokenExchange || form.Get("subject_token") != tok.AccessToken ||
		form.Get("subject_token_type") != TokenTypeAccessToken || form.Get("scope") != "item_preview item_download" || form.Get("resource") != f.baseURL()+"/files/123" {
		t.Errorf("form %v", form)
	}
	if ds.AccessToken == tok.AccessToken || ds.RefreshToken != "" {
		t.Error("downscoped token")
	}
	if _, err := ts.Downscope(ctx, nil, ""); !errors.Is(err, ErrInvalidArgument) {
		t.Error(err)
	}
	if err := ts.RevokeToken(ctx, ds.AccessToken); err != nil {
		t.Fatal(err)
	}
	if err := ts.Revoke(ctx); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	revoked := f.revoked
	f.mu.Unlock()
	if len(revoked) != 2 || revoked[1] != tok.AccessToken {
		t.Fatalf("revoked %v", revoked)
	}
	// The next use fetches a new token.
	tok2, err := ts.TokenContext(ctx)
	if err != nil || tok2.AccessToken == tok.AccessToken {
		t.Fatalf("after revoke: %v", err)
	}
}

// secrets are every credential the tests use; none may appear in logs or errors.
func assertNoSecret(t *testing.T, s string) {
	t.Helper()
	_, keyPEM := rsaKey(t)
	for _, secret := range []string{testClientSecret, testPassphrase, "SECRET-", "PRIVATE KEY", keyPEM[40:80]} {
		if strings.Contains(s, secret) {
			t.Errorf("secret %q leaked in: %s", secret, s)
		}
	}
	if strings.Contains(s, "eyJ") { // a JWT (assertion) in any form
		t.Errorf("JWT leaked in: %s", s)
	}
}

func TestNoSecretsInLogsOrErrors(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, func() time.Time { return clk.Now().Add(2 * time.Minute) })
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := []AuthOption{WithAuthBaseURL(f.baseURL()), WithClock(clk.Now), WithAuthLogger(logger)}
	ctx := context.Background()
	var errs []error
	collect := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	jts, err := NewJWTTokenSource(testAppConfig(t), opts...) // skew: rejected, then retried
	collect(err)
	c, _ := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithTokenSource(jts), WithLogger(logger), WithoutRetries())
	collect(getFolder(ctx, c))
	f.forgetAccessTokens()
	collect(getFolder(ctx, c)) // 401, refresh, retry
	ds, err := jts.Downscope(ctx, []string{"item_preview"}, "")
	collect(err)
	if ds != nil {
		collect(jts.RevokeToken(ctx, ds.AccessToken))
	}
	collect(jts.Revoke(ctx))

	cts, _ := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise), opts...)
	cc, _ := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithTokenSource(cts), WithLogger(logger), WithoutRetries())
	collect(getFolder(ctx, cc))

	conf, _ := NewOAuth2Config(testClientID, testClientSecret, "https://app.example/cb", opts...)
	tok, err := conf.Exchange(ctx, "good-code")
	collect(err)
	ats, _ := conf.TokenSource(NewMemoryTokenStore(tok))
	_, err = ats.Refresh(ctx)
	collect(err)

	// Failures: their errors must not carry secrets either.
	var failures []error
	badCfg := testAppConfig(t)
	badCfg.BoxAppSettings.ClientSecret = "SECRET-wrong"
	bad, _ := NewJWTTokenSource(badCfg, opts...)
	bc, _ := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithTokenSource(bad), WithLogger(logger), WithoutRetries())
	failures = append(failures, getFolder(ctx, bc))
	badCCG, _ := NewCCGTokenSource(testClientID, "SECRET-wrong", EnterpriseSubject(testEnterprise), opts...)
	_, err = badCCG.TokenContext(ctx)
	failures = append(failures, err)
	_, err = conf.Exchange(ctx, "SECRET-code")
	failures = append(failures, err)
	spent, _ := conf.TokenSource(NewMemoryTokenStore(tok))
	_, err = spent.Refresh(ctx)
	failures = append(failures, err)
	wrongPass := testAppConfig(t)
	wrongPass.BoxAppSettings.AppAuth.Passphrase = "SECRET-wrong-pass"
	_, err = NewJWTTokenSource(wrongPass)
	failures = append(failures, err)
	_, err = ParseAppConfig([]byte(`{"boxAppSettings":{"clientID":"x","clientSecret":"SECRET-s"`))
	failures = append(failures, err)
	sc, _ := NewClient(WithURLs(f.baseURL(), f.baseURL()), WithToken("SECRET-static"), WithLogger(logger), WithoutRetries())
	failures = append(failures, getFolder(ctx, sc))

	if len(errs) > 0 {
		t.Fatalf("flows failed: %v", errs)
	}
	for i, err := range failures {
		if err == nil {
			t.Fatalf("failure %d did not fail", i)
		}
		assertNoSecret(t, err.Error())
		assertNoSecret(t, fmt.Sprintf("%+v", err))
	}
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if !strings.Contains(out, "token fetched") || !strings.Contains(out, "retrying with the service's clock") || !strings.Contains(out, "401: token refreshed") {
		t.Fatalf("expected debug logs, got:\n%s", out)
	}
	assertNoSecret(t, out)
	if testing.Verbose() {
		t.Log(out)
		for _, err := range failures {
			t.Log(err)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }

func TestProactiveRefreshFailureKeepsUnexpiredToken(t *testing.T) {
	clk := newFakeClock()
	f := newFakeAuth(t, clk.Now)
	ts, _ := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise),
		WithAuthBaseURL(f.baseURL()), WithClock(clk.Now), WithRefreshMargin(5*time.Minute))
	ctx := context.Background()
	first, err := ts.TokenContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.down = true
	f.mu.Unlock()
	clk.Advance(58 * time.Minute) // inside the margin, not expired
	got, err := ts.TokenContext(ctx)
	if err != nil || got.AccessToken != first.AccessToken {
		t.Fatalf("got %v, %v; want the unexpired token", got, err)
	}
	clk.Advance(2 * time.Minute) // expired
	if _, err := ts.TokenContext(ctx); !errors.Is(err, ErrServer) {
		t.Fatalf("expired token and failing endpoint: %v", err)
	}
}

// TestAppConfigOpenSSLKeys decodes keys encrypted by OpenSSL 3 (test-only
// keys, passphrase "openssl-pass"): PBES2 with PBKDF2-HMAC-SHA256 (its
// default) and with PBKDF2-HMAC-SHA1, both AES-256-CBC.
func TestAppConfigOpenSSLKeys(t *testing.T) {
	for _, name := range []string{"openssl_pbes2_sha256_aes256.pem", "openssl_pbes2_sha1_aes256.pem"} {
		pemBytes, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		app := &AppConfig{BoxAppSettings: AppSettings{ClientID: "c", ClientSecret: "s",
			AppAuth: AppAuth{PublicKeyID: "k", PrivateKey: string(pemBytes), Passphrase: "openssl-pass"}}, EnterpriseID: "1"}
		if _, err := app.privateKey(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := NewJWTTokenSource(app); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzParseAppConfig: no panics, and errors never quote the input's
// secrets (the seeds mark them with "SECRET").
func FuzzParseAppConfig(f *testing.F) {
	f.Add(testAppConfigJSON(f))
	f.Add([]byte(`{"boxAppSettings":{"clientID":"a","clientSecret":"SECRETSECRET","appAuth":{"privateKey":"SECRET","passphrase":"SECRET"}}}`))
	f.Add([]byte(`{"boxAppSettings":{"clientID":1,"clientSecret":"SECRET"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		app, err := ParseAppConfig(data)
		if err == nil {
			_, err = app.privateKey()
			if s := app.String(); strings.Contains(s, "SECRET") && !strings.Contains(app.BoxAppSettings.ClientID+app.EnterpriseID+app.BoxAppSettings.AppAuth.PublicKeyID, "SECRET") {
				t.Fatalf("String shows a secret: %s", s)
			}
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Fatalf("error quotes a secret: %v", err)
		}
	})
}
