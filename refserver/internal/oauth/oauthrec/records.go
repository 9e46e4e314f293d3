// Package oauthrec holds the records of the authorization service
// (internal/oauth): apps, issued tokens and codes. It imports no net/http,
// so that the persistence, which encodes them, stays free of it.
package oauthrec

import (
	"crypto/rsa"
	"time"
)

// App is an application registered for OAuth 2.0 (code flow), client
// credentials and JWT.
type App struct {
	// ClientID and ClientSecret identify the app; Register makes random
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

// Resource is the file or folder a downscoped token is restricted to.
type Resource struct{ Kind, ID string }

// AccessToken is an access token the service handed out, acting for
// Subject.
type AccessToken[S any] struct {
	Subject  S
	ClientID string
	Expires  time.Time
	Scopes   []string  // nil = full access (not downscoped)
	Resource *Resource // a downscoped token's item, if any
	Refresh  string    // the refresh token issued with it, if any
}

// RefreshToken is an issued refresh token and the access token issued with
// it.
type RefreshToken[S any] struct {
	ClientID string
	Subject  S
	Expires  time.Time
	Access   string
}

// Code is an authorization code of the code flow.
type Code[S any] struct {
	ClientID, RedirectURI string
	Subject               S
	Expires               time.Time
}

// Records are the maps of a Service, by key (see Kind).
type Records[S any] struct {
	Apps    map[string]*App
	Access  map[string]*AccessToken[S]
	Refresh map[string]*RefreshToken[S]
	Codes   map[string]*Code[S]
	JTIs    map[string]time.Time
}
