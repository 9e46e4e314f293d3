package refserver

// The authorization service: POST /oauth2/token (authorization_code,
// refresh_token, client_credentials, JWT bearer, token exchange),
// POST /oauth2/revoke, and an authorization page a test can drive without a
// browser. All three live on the API host, outside /2.0, as on the real
// service (whose authorize page is on account.box.com).
//
// Errors are the OAuth 2.0 body {"error","error_description"} with the codes
// and descriptions the service documents ("common errors" guide, the JWT and
// client-credentials guides): 400 invalid_request, invalid_client,
// unauthorized_client, invalid_grant, unsupported_grant_type, invalid_scope;
// 401 when a token exchange asks for scopes the subject token lacks (as the
// spec's PostOAuth2Token.scope says).

import (
	"crypto/rsa"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// OAuth grant types and token types of POST /oauth2/token.
const (
	grantAuthorizationCode = "authorization_code"
	grantRefreshToken      = "refresh_token"
	grantClientCredentials = "client_credentials"
	grantJWTBearer         = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	grantTokenExchange     = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeAccessToken   = "urn:ietf:params:oauth:token-type:access_token"

	defaultTokenLifetime = time.Hour
	refreshTokenLifetime = 60 * 24 * time.Hour
	authCodeLifetime     = 30 * time.Second
	maxJWTLifetime       = 60 * time.Second

	// AuthorizePath is where the server's authorization page is served on
	// the API host (the real one is https://account.box.com/api/oauth2/authorize).
	AuthorizePath = "/api/oauth2/authorize"
)

// fullScopes are the scopes of a token that is not downscoped; downscoped
// tokens may carry any subset of downscopableScopes.
var downscopableScopes = []string{
	"annotation_edit", "annotation_view_all", "annotation_view_self",
	"base_explorer", "base_picker", "base_preview", "base_sidebar", "base_upload",
	"item_delete", "item_download", "item_preview", "item_rename", "item_share", "item_upload",
	"root_readonly", "root_readwrite",
}

// App is an application registered with the server for OAuth 2.0 (code
// flow), client credentials and JWT.
type App struct {
	// ClientID and ClientSecret identify the app; RegisterApp makes random
	// ones when empty.
	ClientID, ClientSecret string
	// RedirectURIs are the allowed redirect_uri values of the code flow.
	RedirectURIs []string
	// PublicKeys are the app's JWT public keys by key id (publicKeyID).
	PublicKeys map[string]*rsa.PublicKey
	// NotAuthorized leaves the app unauthorized in the enterprise: client
	// credentials and JWT answer unauthorized_client.
	NotAuthorized bool
}

// issued is an access token the server handed out.
type issued struct {
	principal *principal
	clientID  string
	expires   time.Time
	scopes    []string // nil = full access
	resource  *resourceRef
	refresh   string // the refresh token issued with it, if any
}

type resourceRef struct{ kind, id string }

type refreshEntry struct {
	clientID string
	user     *user
	expires  time.Time
	access   string
}

type authCode struct {
	clientID, redirectURI string
	user                  *user
	expires               time.Time
}

// oauthState is the authorization service's state, guarded by its own lock.
type oauthState struct {
	mu       sync.Mutex
	apps     map[string]*App          // by client id
	access   map[string]*issued       // by access token
	refresh  map[string]*refreshEntry // by refresh token
	codes    map[string]*authCode
	jtis     map[string]time.Time // used JWT ids until their exp
	lifetime time.Duration
}

func (s *Server) initOAuth() {
	lt := s.opts.TokenLifetime
	if lt <= 0 {
		lt = defaultTokenLifetime
	}
	s.oauth = &oauthState{apps: map[string]*App{}, access: map[string]*issued{}, refresh: map[string]*refreshEntry{},
		codes: map[string]*authCode{}, jtis: map[string]time.Time{}, lifetime: lt}
}

// onlyMethod answers other methods with 405 and the standard error body.
func onlyMethod(method string, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			drain(r.Body)
			w.Header().Set("Allow", method)
			wire.WriteError(w, wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: %s", r.Method))
			return
		}
		h(w, r)
	})
}

// RegisterApp registers an app and returns it with its client id and secret
// filled in. Apps are authorized in the server's enterprise unless
// NotAuthorized is set.
func (s *Server) RegisterApp(a App) (App, error) {
	if a.ClientID == "" {
		a.ClientID = randomHex(16)
	}
	if a.ClientSecret == "" {
		a.ClientSecret = randomHex(16)
	}
	keys := make(map[string]*rsa.PublicKey, len(a.PublicKeys))
	for kid, k := range a.PublicKeys {
		if kid == "" || k == nil {
			return App{}, errors.New("refserver: public keys need an id and a key")
		}
		keys[kid] = k
	}
	a.PublicKeys = keys
	a.RedirectURIs = slices.Clone(a.RedirectURIs)
	s.oauth.mu.Lock()
	if _, dup := s.oauth.apps[a.ClientID]; dup {
		s.oauth.mu.Unlock()
		return App{}, fmt.Errorf("refserver: app %s is already registered", a.ClientID)
	}
	stored := a
	s.oauth.apps[a.ClientID] = &stored
	s.dirty(kApps, a.ClientID)
	s.oauth.mu.Unlock()
	return a, s.flushState()
}

// TokenURL is the token endpoint, e.g. http://127.0.0.1:PORT/oauth2/token.
func (s *Server) TokenURL() string { return s.apiOrigin() + "/oauth2/token" }

// AuthorizeURL is the authorization page of the code flow on the API host,
// e.g. http://127.0.0.1:PORT/api/oauth2/authorize. GET it with
// response_type=code, client_id, redirect_uri (registered with the app) and
// state; it answers 302 to redirect_uri with code and state, as if the user
// had granted access. The reference-server extension user_id chooses the
// user who grants (the admin's or the managed user's id; default the
// managed user).
func (s *Server) AuthorizeURL() string { return s.apiOrigin() + AuthorizePath }

func (s *Server) apiOrigin() string { return strings.TrimSuffix(s.baseURL, apiRoot) }

// oauthError is an answer of the authorization endpoints.
type oauthError struct {
	status     int
	code, desc string
	wwwAuth    bool
}

func (e *oauthError) Error() string { return e.code + ": " + e.desc }

func oauthErr(status int, code, desc string) *oauthError {
	return &oauthError{status: status, code: code, desc: desc}
}

func writeOAuthError(w http.ResponseWriter, e *oauthError) {
	if e.wwwAuth || e.code == "invalid_client" && e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="Service"`)
	}
	w.Header().Set("Cache-Control", "no-store")
	wire.WriteJSON(w, e.status, map[string]string{"error": e.code, "error_description": e.desc})
}

// tokenResponse is the AccessToken record.
type tokenResponse struct {
	AccessToken     string         `json:"access_token"`
	ExpiresIn       int64          `json:"expires_in"`
	TokenType       string         `json:"token_type"`
	RestrictedTo    []restrictedTo `json:"restricted_to"`
	RefreshToken    string         `json:"refresh_token,omitempty"`
	IssuedTokenType string         `json:"issued_token_type,omitempty"`
}

type restrictedTo struct {
	Scope  string         `json:"scope"`
	Object map[string]any `json:"object,omitempty"`
}

// parseOAuthForm reads a form-encoded body and rejects repeated parameters.
func parseOAuthForm(r *http.Request) (url.Values, *oauthError) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" {
		drain(r.Body)
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "The request body must be application/x-www-form-urlencoded")
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "The request body could not be parsed")
	}
	for k, v := range r.PostForm {
		if len(v) > 1 {
			return nil, oauthErr(http.StatusBadRequest, "invalid_request", fmt.Sprintf("Parameter %q is repeated", k))
		}
	}
	return r.PostForm, nil
}

// clientApp checks client_id and client_secret (caller holds the lock).
func (o *oauthState) clientApp(form url.Values) (*App, *oauthError) {
	a := o.apps[form.Get("client_id")]
	if a == nil || subtle.ConstantTimeCompare([]byte(a.ClientSecret), []byte(form.Get("client_secret"))) != 1 {
		return nil, oauthErr(http.StatusBadRequest, "invalid_client", "The client credentials are invalid")
	}
	return a, nil
}

func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	// The Date header comes from the server's clock: clients correct a
	// JWT's exp with it.
	w.Header().Set("Date", s.now().UTC().Format(http.TimeFormat))
	form, oerr := parseOAuthForm(r)
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	var (
		resp *tokenResponse
	)
	s.oauth.mu.Lock()
	s.pruneOAuth()
	switch form.Get("grant_type") {
	case grantAuthorizationCode:
		resp, oerr = s.grantCode(form)
	case grantRefreshToken:
		resp, oerr = s.grantRefresh(form)
	case grantClientCredentials:
		resp, oerr = s.grantClientCredentials(form)
	case grantJWTBearer:
		resp, oerr = s.grantJWT(form)
	case grantTokenExchange:
		resp, oerr = s.grantTokenExchange(form)
	default:
		oerr = oauthErr(http.StatusBadRequest, "unsupported_grant_type", "Invalid grant_type parameter or parameter missing")
	}
	s.oauth.mu.Unlock()
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	wire.WriteJSON(w, http.StatusOK, resp)
}

// pruneOAuth forgets expired tokens, codes and JWT ids (lock held).
func (s *Server) pruneOAuth() {
	now := s.now()
	dropWhere(s, kJWTIDs, s.oauth.jtis, func(v time.Time) bool { return now.After(v.Add(maxJWTLifetime)) })
	dropWhere(s, kAuthCodes, s.oauth.codes, func(v *authCode) bool { return now.After(v.expires) })
	dropWhere(s, kRefreshTokens, s.oauth.refresh, func(v *refreshEntry) bool { return now.After(v.expires) })
	// Expired access tokens are kept a while so they answer "expired".
	dropWhere(s, kAccessTokens, s.oauth.access, func(v *issued) bool { return now.After(v.expires.Add(24 * time.Hour)) })
}

// issue makes an access token for p (lock held).
func (s *Server) issue(p *principal, clientID string, withRefresh bool) *tokenResponse {
	at := randomHex(16)
	exp := s.now().Add(s.oauth.lifetime)
	it := &issued{principal: p, clientID: clientID, expires: exp}
	resp := &tokenResponse{AccessToken: at, ExpiresIn: int64(s.oauth.lifetime / time.Second), TokenType: "bearer", RestrictedTo: []restrictedTo{}}
	if withRefresh {
		rt := randomHex(32)
		s.oauth.refresh[rt] = &refreshEntry{clientID: clientID, user: p.user, expires: s.now().Add(refreshTokenLifetime), access: at}
		s.dirty(kRefreshTokens, rt)
		it.refresh = rt
		resp.RefreshToken = rt
	}
	s.oauth.access[at] = it
	s.dirty(kAccessTokens, at)
	return resp
}

// principalForUser is the principal a token of user u acts as.
func (s *Server) principalForUser(u *user) *principal {
	switch u {
	case s.admin:
		return &principal{kind: "admin", user: s.admin}
	case s.app:
		// The service account of an authorized app: it acts with the
		// enterprise admin's permissions (an app with Manage Enterprise).
		return &principal{kind: "admin", user: s.app}
	default:
		return &principal{kind: "user", user: u}
	}
}

// managedUser returns the managed (or app) user of the enterprise with id,
// not the service account, nor a deleted or rolled-out user (users.go).
// It takes s.mu: callers may hold s.oauth.mu (never the other way round).
func (s *Server) managedUser(id string) *user {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.enterpriseUser(id); u != nil && u != s.app {
		return u
	}
	return nil
}

func (s *Server) grantCode(form url.Values) (*tokenResponse, *oauthError) {
	app, oerr := s.oauth.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	code := form.Get("code")
	c := s.oauth.codes[code]
	if c == nil || c.clientID != app.ClientID || !s.now().Before(c.expires) {
		return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "Auth code doesn't exist or is invalid for the client")
	}
	if ru := form.Get("redirect_uri"); ru != "" && ru != c.redirectURI {
		return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "The redirect_uri does not match the one of the authorization request")
	}
	delete(s.oauth.codes, code) // single use
	s.dirty(kAuthCodes, code)
	return s.issue(s.principalForUser(c.user), app.ClientID, true), nil
}

func (s *Server) grantRefresh(form url.Values) (*tokenResponse, *oauthError) {
	app, oerr := s.oauth.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	rt := form.Get("refresh_token")
	e := s.oauth.refresh[rt]
	if e == nil || e.clientID != app.ClientID {
		return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "Invalid refresh token")
	}
	// Rotation: the refresh token is single use. The access token issued
	// with it lives on until it expires or is revoked.
	delete(s.oauth.refresh, rt)
	s.dirty(kRefreshTokens, rt)
	if it := s.oauth.access[e.access]; it != nil {
		it.refresh = ""
		s.dirty(kAccessTokens, e.access)
	}
	return s.issue(s.principalForUser(e.user), app.ClientID, true), nil
}

// subjectPrincipal applies the subject rules of client credentials and JWT:
// the app must be authorized in the enterprise; an enterprise subject is the
// server's enterprise (its service account); a user subject must be a
// managed or app user.
func (s *Server) subjectPrincipal(app *App, subType, subID, badSub string) (*principal, *oauthError) {
	if app.NotAuthorized {
		return nil, oauthErr(http.StatusBadRequest, "unauthorized_client", "This app is not authorized by the enterprise admin")
	}
	switch subType {
	case "enterprise":
		if subID == s.enterpriseID {
			return s.principalForUser(s.app), nil
		}
	case "user":
		if u := s.managedUser(subID); u != nil {
			return s.principalForUser(u), nil
		}
	default:
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "box_subject_type must be enterprise or user")
	}
	return nil, oauthErr(http.StatusBadRequest, "invalid_grant", badSub)
}

func (s *Server) grantClientCredentials(form url.Values) (*tokenResponse, *oauthError) {
	app, oerr := s.oauth.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	p, oerr := s.subjectPrincipal(app, form.Get("box_subject_type"), form.Get("box_subject_id"), "Grant credentials are invalid")
	if oerr != nil {
		return nil, oerr
	}
	return s.issue(p, app.ClientID, false), nil
}

var errUnknownKid = errors.New("unknown kid")

// serviceTokenURL is the audience the service's documentation gives for JWT
// assertions, whatever host the token request goes to. Box's generated SDKs
// always send it, so the server accepts it besides its own TokenURL.
const serviceTokenURL = "https://api.box.com/oauth2/token"

func (s *Server) grantJWT(form url.Values) (*tokenResponse, *oauthError) {
	app, oerr := s.oauth.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	bad := func(desc string) *oauthError { return oauthErr(http.StatusBadRequest, "invalid_grant", desc) }
	assertion := form.Get("assertion")
	if assertion == "" {
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "The assertion parameter is missing")
	}
	claims := jwt.MapClaims{}
	tok, err := jwt.NewParser(jwt.WithValidMethods([]string{"RS256", "RS384", "RS512"}), jwt.WithoutClaimsValidation()).
		ParseWithClaims(assertion, claims, func(t *jwt.Token) (any, error) {
			kid, ok := t.Header["kid"].(string)
			if !ok {
				// The service makes kid optional: without one, any of the
				// app's keys may verify the assertion (Box's Node SDKs
				// sign without kid).
				var set jwt.VerificationKeySet
				for _, k := range app.PublicKeys {
					set.Keys = append(set.Keys, k)
				}
				return set, nil
			}
			if k := app.PublicKeys[kid]; k != nil {
				return k, nil
			}
			return nil, errUnknownKid
		})
	if err != nil || !tok.Valid {
		if errors.Is(err, errUnknownKid) {
			return nil, bad("Please check the 'kid' header. The public key id is not registered with the app.")
		}
		return nil, bad("Signature verification of the assertion failed. Check the private key and the 'alg' header.")
	}
	if iss, _ := claims["iss"].(string); iss != app.ClientID {
		return nil, bad("Please check the 'iss' claim.")
	}
	if aud, _ := claims["aud"].(string); aud != s.TokenURL() && aud != serviceTokenURL {
		return nil, bad("Please check the 'aud' claim.")
	}
	exp, err := claims.GetExpirationTime()
	now := s.now()
	if err != nil || exp == nil || !exp.After(now) || exp.Sub(now) > maxJWTLifetime {
		return nil, bad("Please check the 'exp' claim.")
	}
	jti, _ := claims["jti"].(string)
	if len(jti) < 16 || len(jti) > 128 {
		return nil, bad("Please check the 'jti' claim. It must be a unique string of 16 to 128 characters.")
	}
	if _, used := s.oauth.jtis[app.ClientID+"\x00"+jti]; used {
		return nil, bad("Please check the 'jti' claim. A unique 'jti' value is required.")
	}
	subType, _ := claims["box_sub_type"].(string)
	sub, _ := claims["sub"].(string)
	p, oerr := s.subjectPrincipal(app, subType, sub, "Please check the 'sub' claim. The 'sub' specified is invalid.")
	if oerr != nil {
		return nil, oerr
	}
	s.oauth.jtis[app.ClientID+"\x00"+jti] = exp.Time
	s.dirty(kJWTIDs, app.ClientID+"\x00"+jti)
	return s.issue(p, app.ClientID, false), nil
}

// marshalAppConfig builds the service's config.json for an app.
func marshalAppConfig(clientID, clientSecret, keyID, keyPEM, passphrase, enterpriseID string) ([]byte, error) {
	cfg := map[string]any{
		"boxAppSettings": map[string]any{
			"clientID":     clientID,
			"clientSecret": clientSecret,
			"appAuth": map[string]any{
				"publicKeyID": keyID,
				"privateKey":  keyPEM,
				"passphrase":  passphrase,
			},
		},
		"enterpriseID": enterpriseID,
	}
	return json.MarshalIndent(cfg, "", "  ")
}
