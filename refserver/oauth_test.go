package refserver

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/youmark/pkcs8"

	"github.com/contentapi/cms/refserver/internal/oauth"
	"github.com/contentapi/cms/refserver/internal/wire"
)

var (
	oauthKeyOnce sync.Once
	oauthKey     *rsa.PrivateKey
)

// testRSAKey is generated once per test binary.
func testRSAKey(t *testing.T) *rsa.PrivateKey {
	oauthKeyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		oauthKey = k
	})
	return oauthKey
}

const testRedirect = "https://app.example/cb"

func (e *env) form(path string, v url.Values) (*http.Response, map[string]any) {
	e.t.Helper()
	resp, err := e.hc.PostForm(e.s.st.APIOrigin()+path, v)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp, m
}

func requireOAuthError(t *testing.T, resp *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	require.Equal(t, status, resp.StatusCode, "body %v", body)
	assert.Equal(t, code, body["error"], "body %v", body)
	assert.NotEmpty(t, body["error_description"])
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
}

func (e *env) registerApp(a App) App {
	e.t.Helper()
	if a.RedirectURIs == nil {
		a.RedirectURIs = []string{testRedirect}
	}
	app, err := e.s.RegisterApp(a)
	require.NoError(e.t, err)
	return app
}

func (e *env) ccg(app App, subType, subID string) (*http.Response, map[string]any) {
	return e.form("/oauth2/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {app.ClientID},
		"client_secret": {app.ClientSecret}, "box_subject_type": {subType}, "box_subject_id": {subID}})
}

func TestOAuthTokenEndpointWire(t *testing.T) {
	e := newEnv(t, Options{})
	app := e.registerApp(App{})

	resp, body := e.ccg(app, "enterprise", e.s.EnterpriseID())
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, "bearer", body["token_type"])
	assert.EqualValues(t, 3600, body["expires_in"])
	assert.Equal(t, []any{}, body["restricted_to"])
	assert.NotContains(t, body, "refresh_token")
	assert.Equal(t, e.clock.Now().UTC().Format(http.TimeFormat), resp.Header.Get("Date"))

	r, err := http.NewRequest(http.MethodPost, e.s.TokenURL(), strings.NewReader(`{"grant_type":"client_credentials"}`))
	require.NoError(t, err)
	r.Header.Set("Content-Type", "application/json")
	resp2, err := e.hc.Do(r)
	require.NoError(t, err)
	var b2 map[string]any
	require.NoError(t, json.NewDecoder(resp2.Body).Decode(&b2))
	resp2.Body.Close()
	requireOAuthError(t, resp2, b2, 400, "invalid_request")

	resp, body = e.form("/oauth2/token", url.Values{"grant_type": {"password"}})
	requireOAuthError(t, resp, body, 400, "unsupported_grant_type")
	resp, body = e.form("/oauth2/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {app.ClientID}, "client_secret": {"x"}})
	requireOAuthError(t, resp, body, 400, "invalid_client")
	resp, body = e.ccg(app, "enterprise", "42")
	requireOAuthError(t, resp, body, 400, "invalid_grant")
	resp, body = e.ccg(app, "user", e.s.AppUserID())
	requireOAuthError(t, resp, body, 400, "invalid_grant")
	resp, body = e.ccg(app, "group", "1")
	requireOAuthError(t, resp, body, 400, "invalid_request")
	na := e.registerApp(App{NotAuthorized: true})
	resp, body = e.ccg(na, "enterprise", e.s.EnterpriseID())
	requireOAuthError(t, resp, body, 400, "unauthorized_client")

	resp, raw := e.do(http.MethodGet, e.s.TokenURL(), "", nil, nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "%s", raw)
}

func TestOAuthIssuedTokensActAndExpire(t *testing.T) {
	e := newEnv(t, Options{TokenLifetime: time.Minute})
	app := e.registerApp(App{})
	_, body := e.ccg(app, "user", e.s.UserID())
	userTok := body["access_token"].(string)
	_, body = e.ccg(app, "enterprise", e.s.EnterpriseID())
	svcTok := body["access_token"].(string)

	f := e.createFolder(userTok, "0", "mine")
	assert.Equal(t, e.s.UserID(), f["owned_by"].(map[string]any)["id"])
	f2 := e.createFolder(svcTok, "0", "service")
	assert.Equal(t, e.s.AppUserID(), f2["owned_by"].(map[string]any)["id"])

	// As-User: the service account acts as the user; the user may not.
	resp, m := e.doJSON(http.MethodGet, e.api("/folders/"+f["id"].(string)), svcTok, nil, hdr{"As-User": e.s.UserID()})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	resp, m = e.doJSON(http.MethodGet, e.api("/folders/0"), userTok, nil, hdr{"As-User": e.s.AdminUserID()})
	requireAPIError(t, resp, m, 403, wire.CodeAccessDenied)
	resp, m = e.doJSON(http.MethodGet, e.api("/folders/0"), e.s.AdminToken(), nil, hdr{"As-User": "999"})
	requireAPIError(t, resp, m, 403, wire.CodeAccessDenied)
	resp, m = e.doJSON(http.MethodGet, e.api("/folders/0"), e.s.AdminToken(), nil, hdr{"As-User": e.s.UserID()})
	require.Equal(t, 200, resp.StatusCode, "%v", m)

	e.clock.Advance(time.Minute)
	resp, m = e.doJSON(http.MethodGet, e.api("/folders/0"), userTok, nil, nil)
	requireAPIError(t, resp, m, 401, wire.CodeUnauthorized)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), "expired")
	// The static tokens keep working.
	resp, _ = e.doJSON(http.MethodGet, e.api("/folders/0"), e.s.UserToken(), nil, nil)
	assert.Equal(t, 200, resp.StatusCode)
}

func TestOAuthAuthorizationCodeAndRotation(t *testing.T) {
	e := newEnv(t, Options{})
	app := e.registerApp(App{})
	authorize := func(q url.Values) *url.URL {
		resp, err := e.hc.Get(e.s.AuthorizeURL() + "?" + q.Encode())
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusFound, resp.StatusCode)
		loc, err := url.Parse(resp.Header.Get("Location"))
		require.NoError(t, err)
		return loc
	}
	q := url.Values{"response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {testRedirect}, "state": {"xyz"}}
	loc := authorize(q)
	assert.Equal(t, "xyz", loc.Query().Get("state"))
	code := loc.Query().Get("code")
	require.NotEmpty(t, code)

	bad := url.Values{"response_type": {"token"}, "client_id": {app.ClientID}, "redirect_uri": {testRedirect}, "state": {"s"}}
	assert.Equal(t, "unsupported_response_type", authorize(bad).Query().Get("error"))
	resp, err := e.hc.Get(e.s.AuthorizeURL() + "?client_id=" + app.ClientID + "&response_type=code&redirect_uri=https://evil.example/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 400, resp.StatusCode)

	exchange := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {app.ClientID},
		"client_secret": {app.ClientSecret}, "redirect_uri": {testRedirect}}
	resp, body := e.form("/oauth2/token", exchange)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	access, refresh := body["access_token"].(string), body["refresh_token"].(string)
	resp, body = e.form("/oauth2/token", exchange)
	requireOAuthError(t, resp, body, 400, "invalid_grant") // single use

	r, _ := e.doJSON(http.MethodGet, e.api("/folders/0"), access, nil, nil)
	assert.Equal(t, 200, r.StatusCode)

	ref := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {app.ClientID}, "client_secret": {app.ClientSecret}}
	resp, body = e.form("/oauth2/token", ref)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	refresh2 := body["refresh_token"].(string)
	assert.NotEqual(t, refresh, refresh2)
	resp, body = e.form("/oauth2/token", ref)
	requireOAuthError(t, resp, body, 400, "invalid_grant")

	// Revoking the refresh token ends its access token too.
	resp, body = e.form("/oauth2/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh2}, "client_id": {app.ClientID}, "client_secret": {app.ClientSecret}})
	require.Equal(t, 200, resp.StatusCode)
	access3, refresh3 := body["access_token"].(string), body["refresh_token"].(string)
	resp, _ = e.form("/oauth2/revoke", url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret}, "token": {refresh3}})
	require.Equal(t, 200, resp.StatusCode)
	r, _ = e.doJSON(http.MethodGet, e.api("/folders/0"), access3, nil, nil)
	assert.Equal(t, 401, r.StatusCode)
	resp, body = e.form("/oauth2/revoke", url.Values{"client_id": {app.ClientID}, "client_secret": {"x"}, "token": {access}})
	requireOAuthError(t, resp, body, 400, "invalid_client")
}

func TestOAuthDownscopedTokenLimits(t *testing.T) {
	e := newEnv(t, Options{})
	file := e.uploadFile(e.s.UserToken(), "0", "a.txt", []byte("hello"))
	other := e.uploadFile(e.s.UserToken(), "0", "b.txt", []byte("world"))
	id, otherID := file["id"].(string), other["id"].(string)
	exch := func(subject, scope, resource string) (*http.Response, map[string]any) {
		return e.form("/oauth2/token", url.Values{"grant_type": {oauth.GrantTokenExchange}, "subject_token": {subject},
			"subject_token_type": {oauth.TokenTypeAccessToken}, "scope": {scope}, "resource": {resource}})
	}
	resp, body := exch(e.s.UserToken(), "item_preview", e.api("/files/"+id))
	// Static tokens are not issued tokens: they cannot be exchanged.
	requireOAuthError(t, resp, body, 400, "invalid_grant")

	app := e.registerApp(App{})
	_, body = e.ccg(app, "user", e.s.UserID())
	userTok := body["access_token"].(string)
	resp, body = exch(userTok, "item_preview", e.api("/files/"+id))
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, oauth.TokenTypeAccessToken, body["issued_token_type"])
	assert.Equal(t, []any{map[string]any{"scope": "item_preview", "object": map[string]any{"type": "file", "id": id}}}, body["restricted_to"])
	ds := body["access_token"].(string)

	r, m := e.doJSON(http.MethodGet, e.api("/files/"+id), ds, nil, nil)
	assert.Equal(t, 200, r.StatusCode, "%v", m)
	r, m = e.doJSON(http.MethodGet, e.api("/files/"+otherID), ds, nil, nil)
	requireAPIError(t, r, m, 403, wire.CodeInsufficientScope)
	r, m = e.doJSON(http.MethodDelete, e.api("/files/"+id), ds, nil, nil)
	requireAPIError(t, r, m, 403, wire.CodeInsufficientScope)

	resp, body = exch(ds, "item_delete", "")
	requireOAuthError(t, resp, body, 401, "invalid_scope")
	resp, body = exch(userTok, "everything", "")
	requireOAuthError(t, resp, body, 400, "invalid_scope")
	resp, body = exch(userTok, "item_preview", "https://elsewhere.example/2.0/files/1")
	requireOAuthError(t, resp, body, 400, "invalid_request")
}

func TestWriteAppConfig(t *testing.T) {
	e := newEnv(t, Options{})
	path := filepath.Join(t.TempDir(), "config.json")
	clientID, err := e.s.WriteAppConfig(path)
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var cfg struct {
		BoxAppSettings struct {
			ClientID, ClientSecret string
			AppAuth                struct{ PublicKeyID, PrivateKey, Passphrase string }
		}
		EnterpriseID string
	}
	require.NoError(t, json.Unmarshal(raw, &cfg))
	assert.Equal(t, clientID, cfg.BoxAppSettings.ClientID)
	assert.Equal(t, e.s.EnterpriseID(), cfg.EnterpriseID)
	block, _ := pem.Decode([]byte(cfg.BoxAppSettings.AppAuth.PrivateKey))
	require.NotNil(t, block)
	assert.Equal(t, "ENCRYPTED PRIVATE KEY", block.Type)
	key, err := pkcs8.ParsePKCS8PrivateKeyRSA(block.Bytes, []byte(cfg.BoxAppSettings.AppAuth.Passphrase))
	require.NoError(t, err)
	e.s.oauth.Lock()
	registered := e.s.oauth.Records().Apps[clientID].PublicKeys[cfg.BoxAppSettings.AppAuth.PublicKeyID]
	secret := e.s.oauth.Records().Apps[clientID].ClientSecret
	e.s.oauth.Unlock()
	assert.True(t, key.PublicKey.Equal(registered))
	assert.Equal(t, secret, cfg.BoxAppSettings.ClientSecret)

	_, app, err := e.s.NewAppConfig(testRSAKey(t), "pw", testRedirect)
	require.NoError(t, err)
	assert.Equal(t, []string{testRedirect}, app.RedirectURIs)
}
