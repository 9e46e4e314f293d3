// Package oauth is the reference server's authorization service: registered
// apps, the grants of POST /oauth2/token (authorization code, refresh token,
// client credentials, JWT bearer, token exchange), revocation, authorization
// codes and the access and refresh tokens it issued. It knows the server only
// through its Config (the clock, the subjects a token may act for, the
// persistence marks) and imports nothing of it.
//
// Errors are the OAuth 2.0 body {"error","error_description"} with the codes
// and descriptions the service documents ("common errors" guide, the JWT and
// client-credentials guides): 400 invalid_request, invalid_client,
// unauthorized_client, invalid_grant, unsupported_grant_type, invalid_scope;
// 401 when a token exchange asks for scopes the subject token lacks (as the
// spec's PostOAuth2Token.scope says).
package oauth

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/contentapi/cms/refserver/internal/oauth/oauthrec"
)

// The grant types and the token type of POST /oauth2/token (grant_type,
// subject_token_type, issued_token_type).
const (
	GrantAuthorizationCode = "authorization_code"
	GrantRefreshToken      = "refresh_token"
	GrantClientCredentials = "client_credentials"
	GrantJWTBearer         = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	GrantTokenExchange     = "urn:ietf:params:oauth:grant-type:token-exchange"
	TokenTypeAccessToken   = "urn:ietf:params:oauth:token-type:access_token"

	// DefaultTokenLifetime is the lifetime of access tokens unless
	// Config.Lifetime says otherwise (the service's: one hour).
	DefaultTokenLifetime = time.Hour
	refreshTokenLifetime = 60 * 24 * time.Hour
	authCodeLifetime     = 30 * time.Second
	maxJWTLifetime       = 60 * time.Second
)

// The records of the service: their types live in oauthrec, which needs
// no net/http, so that the persistence (internal/persist) encodes them.
type (
	// App is an application registered for OAuth 2.0 (oauthrec.App).
	App = oauthrec.App
	// Resource is the item a downscoped token is restricted to.
	Resource = oauthrec.Resource
	// AccessToken is an access token the service handed out.
	AccessToken[S any] = oauthrec.AccessToken[S]
	// RefreshToken is an issued refresh token.
	RefreshToken[S any] = oauthrec.RefreshToken[S]
	// Code is an authorization code of the code flow.
	Code[S any] = oauthrec.Code[S]
	// Records are the maps of a Service, by key (see Kind).
	Records[S any] = oauthrec.Records[S]
)

// Kind names a kind of record, for Config.Mark.
type Kind int

// The kinds of records the service keeps.
const (
	KindApp     Kind = iota // by client id
	KindAccess              // by access token
	KindRefresh             // by refresh token
	KindCode                // by code
	KindJTI                 // used JWT ids, by "<client id>\x00<jti>"
)

// Config is what the service needs of its server. S is the server's type
// of the subject a token acts for.
type Config[S any] struct {
	// Now is the clock (required).
	Now func() time.Time
	// Lifetime of access tokens; 0 means DefaultTokenLifetime.
	Lifetime time.Duration
	// Mark, when set, is called under the service's lock for every record
	// a change writes or deletes: the persistence of the server stores it.
	Mark func(kind Kind, key string)
	// EnterpriseSubject is the subject of an enterprise token (the
	// enterprise's service account) when id is the server's enterprise.
	EnterpriseSubject func(id string) (S, bool)
	// UserSubject is the subject of a user token when id is a managed or
	// app user of the enterprise. The service calls it with its own lock
	// held: it may take the server's state lock (the lock order is the
	// service's lock, then the state's, never the other way round).
	UserSubject func(id string) (S, bool)
	// TokenURL is the server's own token endpoint, a JWT's audience besides
	// the service's.
	TokenURL func() string
	// ParseResource reads the resource of a token exchange (the API URL of
	// a file or folder).
	ParseResource func(raw string) (*Resource, bool)
}

// Service is the authorization service's state, guarded by its own lock.
type Service[S any] struct {
	cfg      Config[S]
	mu       sync.Mutex
	apps     table[*App]             // by client id
	access   table[*AccessToken[S]]  // by access token
	refresh  table[*RefreshToken[S]] // by refresh token
	codes    table[*Code[S]]
	jtis     table[time.Time] // used JWT ids until their exp
	lifetime time.Duration
}

// New returns a service with no apps and no tokens.
func New[S any](cfg Config[S]) *Service[S] {
	lt := cfg.Lifetime
	if lt <= 0 {
		lt = DefaultTokenLifetime
	}
	if cfg.Mark == nil {
		cfg.Mark = func(Kind, string) {}
	}
	return &Service[S]{cfg: cfg, apps: newTable[*App](KindApp, cfg.Mark), access: newTable[*AccessToken[S]](KindAccess, cfg.Mark),
		refresh: newTable[*RefreshToken[S]](KindRefresh, cfg.Mark), codes: newTable[*Code[S]](KindCode, cfg.Mark),
		jtis: newTable[time.Time](KindJTI, cfg.Mark), lifetime: lt}
}

// RandomHex is n random bytes in hex: tokens, codes, client ids.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Register registers an app and returns it with its client id and secret
// filled in. Apps are authorized in the server's enterprise unless
// NotAuthorized is set.
func (o *Service[S]) Register(a App) (App, error) {
	if a.ClientID == "" {
		a.ClientID = RandomHex(16)
	}
	if a.ClientSecret == "" {
		a.ClientSecret = RandomHex(16)
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
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, dup := o.apps.m[a.ClientID]; dup {
		return App{}, fmt.Errorf("refserver: app %s is already registered", a.ClientID)
	}
	stored := a
	o.apps.put(a.ClientID, &stored)
	return a, nil
}

// Error is an answer of the authorization endpoints.
type Error struct {
	Status     int
	Code, Desc string
}

// Error is the code and the description.
func (e *Error) Error() string { return e.Code + ": " + e.Desc }

func errf(status int, code, desc string) *Error {
	return &Error{Status: status, Code: code, Desc: desc}
}

// TokenResponse is the AccessToken record.
type TokenResponse struct {
	AccessToken     string         `json:"access_token"`
	ExpiresIn       int64          `json:"expires_in"`
	TokenType       string         `json:"token_type"`
	RestrictedTo    []RestrictedTo `json:"restricted_to"`
	RefreshToken    string         `json:"refresh_token,omitempty"`
	IssuedTokenType string         `json:"issued_token_type,omitempty"`
}

// RestrictedTo is one scope of a downscoped token, with its item.
type RestrictedTo struct {
	Scope  string         `json:"scope"`
	Object map[string]any `json:"object,omitempty"`
}

// ParseForm reads a form-encoded body and rejects repeated parameters.
func ParseForm(r *http.Request) (url.Values, *Error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" {
		return nil, errf(http.StatusBadRequest, "invalid_request", "The request body must be application/x-www-form-urlencoded")
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return nil, errf(http.StatusBadRequest, "invalid_request", "The request body could not be parsed")
	}
	for k, v := range r.PostForm {
		if len(v) > 1 {
			return nil, errf(http.StatusBadRequest, "invalid_request", fmt.Sprintf("Parameter %q is repeated", k))
		}
	}
	return r.PostForm, nil
}

// clientApp checks client_id and client_secret (under the room's lock, which its callers take).
func (o *Service[S]) clientApp(form url.Values) (*App, *Error) {
	a := o.apps.m[form.Get("client_id")]
	if a == nil || subtle.ConstantTimeCompare([]byte(a.ClientSecret), []byte(form.Get("client_secret"))) != 1 {
		return nil, errf(http.StatusBadRequest, "invalid_client", "The client credentials are invalid")
	}
	return a, nil
}

// Token answers POST /oauth2/token's form: the grant it names, or its
// error.
func (o *Service[S]) Token(form url.Values) (*TokenResponse, *Error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.prune()
	switch form.Get("grant_type") {
	case GrantAuthorizationCode:
		return o.grantCode(form)
	case GrantRefreshToken:
		return o.grantRefresh(form)
	case GrantClientCredentials:
		return o.GrantClientCredentials(form)
	case GrantJWTBearer:
		return o.grantJWT(form)
	case GrantTokenExchange:
		return o.GrantTokenExchange(form)
	default:
		return nil, errf(http.StatusBadRequest, "unsupported_grant_type", "Invalid grant_type parameter or parameter missing")
	}
}

// prune forgets expired tokens, codes and JWT ids (lock held).
func (o *Service[S]) prune() {
	now := o.cfg.Now()
	o.jtis.deleteWhere(func(v time.Time) bool { return now.After(v.Add(maxJWTLifetime)) })
	o.codes.deleteWhere(func(v *Code[S]) bool { return now.After(v.Expires) })
	o.refresh.deleteWhere(func(v *RefreshToken[S]) bool { return now.After(v.Expires) })
	// Expired access tokens are kept a while so they answer "expired".
	o.access.deleteWhere(func(v *AccessToken[S]) bool { return now.After(v.Expires.Add(24 * time.Hour)) })
}

// issue makes an access token for subj (lock held).
func (o *Service[S]) issue(subj S, clientID string, withRefresh bool) *TokenResponse {
	at := RandomHex(16)
	now := o.cfg.Now()
	it := &AccessToken[S]{Subject: subj, ClientID: clientID, Expires: now.Add(o.lifetime)}
	resp := &TokenResponse{AccessToken: at, ExpiresIn: int64(o.lifetime / time.Second), TokenType: "bearer", RestrictedTo: []RestrictedTo{}}
	if withRefresh {
		rt := RandomHex(32)
		o.refresh.put(rt, &RefreshToken[S]{ClientID: clientID, Subject: subj, Expires: now.Add(refreshTokenLifetime), Access: at})
		it.Refresh = rt
		resp.RefreshToken = rt
	}
	o.access.put(at, it)
	return resp
}

func (o *Service[S]) grantCode(form url.Values) (*TokenResponse, *Error) {
	app, oerr := o.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	code := form.Get("code")
	c := o.codes.m[code]
	if c == nil || c.ClientID != app.ClientID || !o.cfg.Now().Before(c.Expires) {
		return nil, errf(http.StatusBadRequest, "invalid_grant", "Auth code doesn't exist or is invalid for the client")
	}
	if ru := form.Get("redirect_uri"); ru != "" && ru != c.RedirectURI {
		return nil, errf(http.StatusBadRequest, "invalid_grant", "The redirect_uri does not match the one of the authorization request")
	}
	o.codes.delete(code) // single use
	return o.issue(c.Subject, app.ClientID, true), nil
}

func (o *Service[S]) grantRefresh(form url.Values) (*TokenResponse, *Error) {
	app, oerr := o.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	rt := form.Get("refresh_token")
	e := o.refresh.m[rt]
	if e == nil || e.ClientID != app.ClientID {
		return nil, errf(http.StatusBadRequest, "invalid_grant", "Invalid refresh token")
	}
	// Rotation: the refresh token is single use. The access token issued
	// with it lives on until it expires or is revoked.
	o.refresh.delete(rt)
	o.access.update(e.Access, func(it *AccessToken[S]) { it.Refresh = "" })
	return o.issue(e.Subject, app.ClientID, true), nil
}

// subject applies the subject rules of client credentials and JWT: the app
// must be authorized in the enterprise; an enterprise subject is the
// server's enterprise (its service account); a user subject must be a
// managed or app user.
func (o *Service[S]) subject(app *App, subType, subID, badSub string) (S, *Error) {
	var zero S
	if app.NotAuthorized {
		return zero, errf(http.StatusBadRequest, "unauthorized_client", "This app is not authorized by the enterprise admin")
	}
	switch subType {
	case "enterprise":
		if s, ok := o.cfg.EnterpriseSubject(subID); ok {
			return s, nil
		}
	case "user":
		if s, ok := o.cfg.UserSubject(subID); ok {
			return s, nil
		}
	default:
		return zero, errf(http.StatusBadRequest, "invalid_request", "box_subject_type must be enterprise or user")
	}
	return zero, errf(http.StatusBadRequest, "invalid_grant", badSub)
}

// GrantClientCredentials answers the client_credentials grant: the app's
// client id and secret, and the subject (box_subject_type and id) it acts
// for, give an access token (no refresh token). Callers (Token) hold the
// service's lock.
func (o *Service[S]) GrantClientCredentials(form url.Values) (*TokenResponse, *Error) {
	app, oerr := o.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	subj, oerr := o.subject(app, form.Get("box_subject_type"), form.Get("box_subject_id"), "Grant credentials are invalid")
	if oerr != nil {
		return nil, oerr
	}
	return o.issue(subj, app.ClientID, false), nil
}
