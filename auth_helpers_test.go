package cms

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/youmark/pkcs8"
)

// The RSA key of the tests is generated once per test binary.
var (
	testKeyOnce sync.Once
	testKey     *rsa.PrivateKey
	testKeyPEM  string // encrypted PKCS#8 with testPassphrase
)

const (
	testClientID     = "clientid-0123456789abcdef"
	testClientSecret = "SECRET-client-secret-4f9a7c"
	testPassphrase   = "SECRET-passphrase-81b2"
	testKeyID        = "kid-7"
	testEnterprise   = "1000001"
)

func rsaKey(t testing.TB) (*rsa.PrivateKey, string) {
	t.Helper()
	testKeyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		der, err := pkcs8.MarshalPrivateKey(k, []byte(testPassphrase), &pkcs8.Opts{
			Cipher:  pkcs8.AES256CBC,
			KDFOpts: pkcs8.PBKDF2Opts{SaltSize: 16, IterationCount: 2048, HMACHash: crypto.SHA256},
		})
		if err != nil {
			panic(err)
		}
		testKey = k
		testKeyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: der}))
	})
	return testKey, testKeyPEM
}

func testAppConfigJSON(t testing.TB) []byte {
	_, p := rsaKey(t)
	b, _ := json.Marshal(map[string]any{
		"boxAppSettings": map[string]any{
			"clientID": testClientID, "clientSecret": testClientSecret,
			"appAuth": map[string]any{"publicKeyID": testKeyID, "privateKey": p, "passphrase": testPassphrase},
		},
		"enterpriseID": testEnterprise,
	})
	return b
}

func testAppConfig(t testing.TB) *AppConfig {
	t.Helper()
	c, err := ParseAppConfig(testAppConfigJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fakeAuth is a small token endpoint plus an API that checks its tokens,
// for unit tests of the SDK side (the reference server has the strict one).
type fakeAuth struct {
	t        *testing.T
	srv      *httptest.Server
	now      func() time.Time
	lifetime time.Duration

	mu       sync.Mutex
	grants   map[string]int // token requests by grant_type
	forms    []url.Values
	access   map[string]time.Time // access token -> expiry
	refresh  map[string]bool      // live refresh tokens
	jtis     map[string]bool
	seq      int
	asUsers  []string
	apiCalls int
	bodies   []string
	hold     chan struct{} // when set, token answers wait for it
	arrived  chan struct{} // when set, gets a value per held token request
	revoked  []string
	down     bool // token endpoint answers 503

	tokenCalls atomic.Int64
}

func newFakeAuth(t *testing.T, now func() time.Time) *fakeAuth {
	f := &fakeAuth{t: t, now: now, lifetime: time.Hour, grants: map[string]int{}, access: map[string]time.Time{},
		refresh: map[string]bool{}, jtis: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth2/token", f.token)
	mux.HandleFunc("POST /oauth2/revoke", f.revoke)
	mux.HandleFunc("/2.0/", f.api)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAuth) baseURL() string  { return f.srv.URL + "/2.0" }
func (f *fakeAuth) tokenURL() string { return f.srv.URL + "/oauth2/token" }

func oauthErr(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

func (f *fakeAuth) issue(w http.ResponseWriter, withRefresh bool) {
	f.mu.Lock()
	f.seq++
	at := fmt.Sprintf("SECRET-access-%d", f.seq)
	f.access[at] = f.now().Add(f.lifetime)
	out := map[string]any{"access_token": at, "expires_in": int64(f.lifetime / time.Second), "token_type": "bearer", "restricted_to": []any{}}
	if withRefresh {
		rt := fmt.Sprintf("SECRET-refresh-%d", f.seq)
		f.refresh[rt] = true
		out["refresh_token"] = rt
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// expire makes every issued access token unknown (as after a revocation).
func (f *fakeAuth) forgetAccessTokens() {
	f.mu.Lock()
	f.access = map[string]time.Time{}
	f.mu.Unlock()
}

func (f *fakeAuth) token(w http.ResponseWriter, r *http.Request) {
	f.tokenCalls.Add(1)
	if err := r.ParseForm(); err != nil {
		oauthErr(w, 400, "invalid_request", "bad form")
		return
	}
	f.mu.Lock()
	f.grants[r.PostForm.Get("grant_type")]++
	f.forms = append(f.forms, r.PostForm)
	hold, arrived, down := f.hold, f.arrived, f.down
	f.mu.Unlock()
	if down {
		oauthErr(w, 503, "temporarily_unavailable", "down")
		return
	}
	if hold != nil {
		if arrived != nil {
			arrived <- struct{}{}
		}
		<-hold
	}
	w.Header().Set("Date", f.now().UTC().Format(http.TimeFormat))
	switch r.PostForm.Get("grant_type") {
	case GrantTypeJWTBearer:
		if r.PostForm.Get("client_secret") != testClientSecret {
			oauthErr(w, 400, "invalid_client", "The client credentials are invalid")
			return
		}
		key, _ := rsaKey(f.t)
		var claims jwt.MapClaims
		tok, err := jwt.ParseWithClaims(r.PostForm.Get("assertion"), &claims, func(t *jwt.Token) (any, error) {
			if t.Header["kid"] != testKeyID {
				return nil, fmt.Errorf("kid")
			}
			return &key.PublicKey, nil
		}, jwt.WithValidMethods([]string{"RS256", "RS384", "RS512"}), jwt.WithoutClaimsValidation())
		if err != nil || !tok.Valid {
			oauthErr(w, 400, "invalid_grant", "Signature verification failed")
			return
		}
		exp, _ := claims.GetExpirationTime()
		now := f.now()
		if exp == nil || !exp.After(now) || exp.Sub(now) > 60*time.Second {
			oauthErr(w, 400, "invalid_grant", "Please check the 'exp' claim.")
			return
		}
		if claims["aud"] != f.tokenURL() || claims["iss"] != testClientID {
			oauthErr(w, 400, "invalid_grant", "Please check the 'aud' claim.")
			return
		}
		jti, _ := claims["jti"].(string)
		f.mu.Lock()
		used := f.jtis[jti]
		f.jtis[jti] = true
		f.mu.Unlock()
		if used || len(jti) < 16 {
			oauthErr(w, 400, "invalid_grant", "Please check the 'jti' claim.")
			return
		}
		f.issue(w, false)
	case "client_credentials":
		if r.PostForm.Get("client_id") != testClientID || r.PostForm.Get("client_secret") != testClientSecret {
			oauthErr(w, 400, "invalid_client", "The client credentials are invalid")
			return
		}
		f.issue(w, false)
	case "authorization_code":
		if r.PostForm.Get("code") != "good-code" {
			oauthErr(w, 400, "invalid_grant", "Auth code doesn't exist or is invalid for the client")
			return
		}
		f.issue(w, true)
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		f.mu.Lock()
		ok := f.refresh[rt]
		delete(f.refresh, rt)
		f.mu.Unlock()
		if !ok {
			oauthErr(w, 400, "invalid_grant", "Invalid refresh token")
			return
		}
		f.issue(w, true)
	case GrantTypeTokenExchange:
		f.mu.Lock()
		_, ok := f.access[r.PostForm.Get("subject_token")]
		f.mu.Unlock()
		if !ok {
			oauthErr(w, 401, "invalid_grant", "subject token invalid")
			return
		}
		f.issue(w, false)
	default:
		oauthErr(w, 400, "unsupported_grant_type", "Invalid grant_type parameter or parameter missing")
	}
}

func (f *fakeAuth) revoke(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	if r.PostForm.Get("client_secret") != testClientSecret {
		oauthErr(w, 400, "invalid_client", "The client credentials are invalid")
		return
	}
	tok := r.PostForm.Get("token")
	f.mu.Lock()
	delete(f.access, tok)
	f.revoked = append(f.revoked, tok)
	f.mu.Unlock()
}

func (f *fakeAuth) api(w http.ResponseWriter, r *http.Request) {
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	exp, ok := f.access[tok]
	f.apiCalls++
	f.asUsers = append(f.asUsers, r.Header.Get("As-User"))
	var b strings.Builder
	if r.Body != nil {
		buf := make([]byte, 4096)
		n, _ := r.Body.Read(buf)
		b.Write(buf[:n])
	}
	f.bodies = append(f.bodies, b.String())
	f.mu.Unlock()
	if !ok || !f.now().Before(exp) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="Service", error="invalid_token", error_description="The access token provided has expired"`)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"type":"folder","id":"0"}`))
}

func (f *fakeAuth) grantCount(g string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.grants[g]
}

func (f *fakeAuth) lastForm() url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.forms[len(f.forms)-1]
}
