package cms

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// NewCCGTokenSource returns a token source for client-credentials server
// authentication: each token comes from POST /oauth2/token with grant
// client_credentials, the app's client id and secret, box_subject_type and
// box_subject_id from subject (EnterpriseSubject for the service account,
// UserSubject for a managed or app user; see also ForUser). Nothing is sent
// until the first token is needed.
func NewCCGTokenSource(clientID, clientSecret string, subject Subject, opts ...AuthOption) (*TokenSource, error) {
	cfg := defaultAuthConfig()
	if err := cfg.apply(opts); err != nil {
		return nil, err
	}
	if clientID == "" || clientSecret == "" {
		return nil, errors.New("cms: client id and client secret are required")
	}
	if err := subject.validate(); err != nil {
		return nil, err
	}
	g := &ccgGrant{clientID: clientID, clientSecret: clientSecret, subject: subject}
	return newTokenSource(cfg, g, clientID, clientSecret, nil), nil
}

// NewCCGTokenSourceFromConfig is NewCCGTokenSource with the client id and
// secret of an app config and its enterprise as the subject (WithSubject
// chooses another).
func NewCCGTokenSourceFromConfig(app *AppConfig, opts ...AuthOption) (*TokenSource, error) {
	if app == nil {
		return nil, errors.New("cms: app config is nil")
	}
	cfg := defaultAuthConfig()
	if err := cfg.apply(opts); err != nil {
		return nil, err
	}
	subject := EnterpriseSubject(app.EnterpriseID)
	if cfg.subject != nil {
		subject = *cfg.subject
	}
	return NewCCGTokenSource(app.BoxAppSettings.ClientID, app.BoxAppSettings.ClientSecret, subject, opts...)
}

type ccgGrant struct {
	clientID, clientSecret string
	subject                Subject
}

func (g *ccgGrant) name() string { return "client_credentials" }

func (g *ccgGrant) withSubject(s Subject) *ccgGrant {
	return &ccgGrant{clientID: g.clientID, clientSecret: g.clientSecret, subject: s}
}

func (g *ccgGrant) fetch(ctx context.Context, cfg *authConfig, _ *oauth2.Token, _ bool) (*oauth2.Token, error) {
	cc := clientcredentials.Config{
		ClientID:     g.clientID,
		ClientSecret: g.clientSecret,
		TokenURL:     cfg.tokenURL,
		AuthStyle:    oauth2.AuthStyleInParams,
		EndpointParams: url.Values{
			"box_subject_type": {string(g.subject.Type)},
			"box_subject_id":   {g.subject.ID},
		},
	}
	tok, err := cc.Token(cfg.withHTTPClient(ctx))
	if err != nil {
		return nil, fromOAuth2Error(err, cfg.tokenURL)
	}
	return withClockExpiry(cfg, tok), nil
}

// withClockExpiry recomputes Expiry from expires_in with the configured
// clock (x/oauth2 uses the wall clock).
func withClockExpiry(cfg *authConfig, tok *oauth2.Token) *oauth2.Token {
	in := tok.ExpiresIn
	if in == 0 {
		// clientcredentials does not fill ExpiresIn; the raw field has it.
		switch v := tok.Extra("expires_in").(type) {
		case float64:
			in = int64(v)
		case json.Number:
			in, _ = v.Int64()
		}
	}
	if in <= 0 {
		return tok
	}
	t := *tok // copying keeps the raw fields behind Extra
	t.ExpiresIn = in
	t.Expiry = cfg.clock().Add(secondsDur(in))
	return &t
}
