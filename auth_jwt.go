package cms

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
)

// NewJWTTokenSource returns a token source for JWT server authentication
// with an app config: each token comes from POST /oauth2/token with grant
// urn:ietf:params:oauth:grant-type:jwt-bearer and an assertion signed with
// the app's private key (RS256 unless WithJWTAlgorithm; claims iss, sub,
// box_sub_type, aud = the token endpoint, a unique jti, exp at most 60 s
// ahead; header kid = appAuth.publicKeyID). The subject is the config's
// enterprise (its service account) unless WithSubject names another; see
// also ForUser. When the service rejects the assertion's exp (clock skew),
// the source retries once with the clock of the response's Date header and
// keeps that offset. Nothing is sent until the first token is needed.
func NewJWTTokenSource(app *AppConfig, opts ...AuthOption) (*TokenSource, error) {
	if app == nil {
		return nil, errors.New("cms: app config is nil")
	}
	cfg := defaultAuthConfig()
	if err := cfg.apply(opts); err != nil {
		return nil, err
	}
	s := app.BoxAppSettings
	if s.ClientID == "" || s.ClientSecret == "" {
		return nil, errors.New("cms: app config: clientID and clientSecret are required")
	}
	if s.AppAuth.PublicKeyID == "" {
		return nil, errors.New("cms: app config: appAuth.publicKeyID is missing")
	}
	key, err := app.privateKey()
	if err != nil {
		return nil, err
	}
	subject := EnterpriseSubject(app.EnterpriseID)
	if cfg.subject != nil {
		subject = *cfg.subject
	}
	if err := subject.validate(); err != nil {
		return nil, fmt.Errorf("cms: JWT subject (set enterpriseID or use WithSubject): %w", err)
	}
	g := &jwtGrant{clientID: s.ClientID, clientSecret: s.ClientSecret, keyID: s.AppAuth.PublicKeyID,
		key: key, subject: subject, method: jwt.GetSigningMethod(cfg.jwtAlg)}
	return newTokenSource(cfg, g, s.ClientID, s.ClientSecret, nil), nil
}

// ForUser returns a token source of the same app for the user userID (a
// managed or app user): box_sub_type user for JWT, box_subject_type user
// for client credentials. Use it to get a client acting as that user with
// the user's own token:
//
//	uts, _ := ts.ForUser("12345")
//	userClient, _ := cms.NewClient(cms.WithTokenSource(uts), ...)
//
// The authorization-code flow has no user subject and returns an error.
func (ts *TokenSource) ForUser(userID string) (*TokenSource, error) {
	return ts.forSubject(UserSubject(userID))
}

// ForEnterprise returns a token source of the same app for the service
// account of enterprise id.
func (ts *TokenSource) ForEnterprise(id string) (*TokenSource, error) {
	return ts.forSubject(EnterpriseSubject(id))
}

func (ts *TokenSource) forSubject(s Subject) (*TokenSource, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	var g grant
	switch x := ts.grant.(type) {
	case *jwtGrant:
		g = x.withSubject(s)
	case *ccgGrant:
		g = x.withSubject(s)
	default:
		return nil, fmt.Errorf("cms: the %s grant cannot choose its subject", ts.grant.name())
	}
	return newTokenSource(ts.cfg, g, ts.clientID, ts.clientSecret, nil), nil
}

type jwtGrant struct {
	clientID, clientSecret, keyID string
	key                           *rsa.PrivateKey
	subject                       Subject
	method                        jwt.SigningMethod
	// skew is the service's clock minus ours, learnt from a Date header.
	skew atomic.Int64
}

func (g *jwtGrant) name() string { return "jwt" }

func (g *jwtGrant) withSubject(s Subject) *jwtGrant {
	n := &jwtGrant{clientID: g.clientID, clientSecret: g.clientSecret, keyID: g.keyID, key: g.key, subject: s, method: g.method}
	n.skew.Store(g.skew.Load())
	return n
}

func (g *jwtGrant) fetch(ctx context.Context, cfg *authConfig, _ *oauth2.Token, _ bool) (*oauth2.Token, error) {
	tok, resp, err := g.try(ctx, cfg)
	if err == nil || !isExpRejection(err) || resp == nil {
		return tok, err
	}
	date, perr := http.ParseTime(resp.Header.Get("Date"))
	if perr != nil {
		return nil, err
	}
	skew := date.Sub(cfg.clock())
	g.skew.Store(int64(skew))
	cfg.debug(ctx, "JWT exp rejected; retrying with the service's clock", slog.Duration("skew", skew.Round(time.Second)))
	tok, _, err = g.try(ctx, cfg)
	return tok, err
}

// isExpRejection reports a 400 invalid_grant that names the exp claim.
func isExpRejection(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == http.StatusBadRequest &&
		ae.Code == "invalid_grant" && strings.Contains(ae.Message, "exp")
}

func (g *jwtGrant) try(ctx context.Context, cfg *authConfig) (*oauth2.Token, *http.Response, error) {
	assertion, err := g.assertion(cfg)
	if err != nil {
		return nil, nil, err
	}
	form := url.Values{
		"grant_type":    {GrantTypeJWTBearer},
		"assertion":     {assertion},
		"client_id":     {g.clientID},
		"client_secret": {g.clientSecret},
	}
	return cfg.requestToken(ctx, form)
}

func (g *jwtGrant) assertion(cfg *authConfig) (string, error) {
	var jti [24]byte
	if _, err := rand.Read(jti[:]); err != nil {
		return "", errors.New("cms: no randomness for the JWT id")
	}
	now := cfg.clock().Add(time.Duration(g.skew.Load()))
	claims := jwt.MapClaims{
		"iss":          g.clientID,
		"sub":          g.subject.ID,
		"box_sub_type": string(g.subject.Type),
		"aud":          cfg.tokenURL,
		"jti":          hex.EncodeToString(jti[:]),
		"iat":          now.Unix(),
		"exp":          now.Add(cfg.jwtLifetime).Unix(),
	}
	t := jwt.NewWithClaims(g.method, claims)
	t.Header["kid"] = g.keyID
	s, err := t.SignedString(g.key)
	if err != nil {
		return "", errors.New("cms: signing the JWT assertion failed")
	}
	return s, nil
}
