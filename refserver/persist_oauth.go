package refserver

import (
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"time"
)

// Records of the authorization service: apps, issued access and refresh
// tokens, authorization codes and used JWT ids, keyed by client id, token,
// code and "<client id>\x00<jti>". They are guarded by s.oauth.mu.

// recApp is a registered app; its public keys are PKIX DER by key id.
type recApp struct {
	ClientSecret  string
	RedirectURIs  []string
	PublicKeys    map[string][]byte
	NotAuthorized bool
}

func (s *Server) appKeys() []string { return sortedKeys(s.oauth.apps) }

func (s *Server) appRec(id string) (recApp, bool) {
	a, ok := s.oauth.apps[id]
	if !ok {
		return recApp{}, false
	}
	r := recApp{ClientSecret: a.ClientSecret, RedirectURIs: a.RedirectURIs, PublicKeys: map[string][]byte{}, NotAuthorized: a.NotAuthorized}
	for kid, k := range a.PublicKeys {
		der, err := x509.MarshalPKIXPublicKey(k)
		if err != nil {
			panic(fmt.Sprintf("refserver: encoding the public key %s of app %s: %v", kid, id, err)) // RegisterApp takes RSA keys only
		}
		r.PublicKeys[kid] = der
	}
	return r, true
}

func (s *Server) loadApp(id string, r recApp) error {
	a := &App{ClientID: id, ClientSecret: r.ClientSecret, RedirectURIs: r.RedirectURIs,
		PublicKeys: map[string]*rsa.PublicKey{}, NotAuthorized: r.NotAuthorized}
	for kid, der := range r.PublicKeys {
		k, err := x509.ParsePKIXPublicKey(der)
		if err != nil {
			return fmt.Errorf("public key %s: %w", kid, err)
		}
		rk, ok := k.(*rsa.PublicKey)
		if !ok {
			return fmt.Errorf("public key %s is not an RSA key", kid)
		}
		a.PublicKeys[kid] = rk
	}
	s.oauth.apps[id] = a
	return nil
}

// recAccess is an issued access token: who it acts for (kind and user),
// and a downscoped token's scopes and resource.
type recAccess struct {
	Kind, User, ClientID string
	Expires              time.Time
	Scopes               []string // nil: full access
	Resource             *[2]string
	Refresh              string
}

func (s *Server) accessKeys() []string { return sortedKeys(s.oauth.access) }

func (s *Server) accessRec(tok string) (recAccess, bool) {
	it, ok := s.oauth.access[tok]
	if !ok {
		return recAccess{}, false
	}
	r := recAccess{Kind: it.principal.kind, User: uid(it.principal.user), ClientID: it.clientID,
		Expires: utc(it.expires), Scopes: it.scopes, Refresh: it.refresh}
	if it.resource != nil {
		r.Resource = &[2]string{it.resource.kind, it.resource.id}
	}
	return r, true
}

func (s *Server) loadAccess(tok string, r recAccess) error {
	u, err := s.userByRef(r.User)
	if err != nil {
		return err
	}
	it := &issued{principal: &principal{kind: r.Kind, user: u}, clientID: r.ClientID, expires: r.Expires,
		scopes: r.Scopes, refresh: r.Refresh}
	if r.Resource != nil {
		it.resource = &resourceRef{kind: r.Resource[0], id: r.Resource[1]}
	}
	s.oauth.access[tok] = it
	return nil
}

// recRefresh is an issued refresh token.
type recRefresh struct {
	ClientID, User, Access string
	Expires                time.Time
}

func (s *Server) refreshKeys() []string { return sortedKeys(s.oauth.refresh) }

func (s *Server) refreshRec(tok string) (recRefresh, bool) {
	e, ok := s.oauth.refresh[tok]
	if !ok {
		return recRefresh{}, false
	}
	return recRefresh{ClientID: e.clientID, User: uid(e.user), Access: e.access, Expires: utc(e.expires)}, true
}

func (s *Server) loadRefresh(tok string, r recRefresh) error {
	u, err := s.userByRef(r.User)
	if err != nil {
		return err
	}
	s.oauth.refresh[tok] = &refreshEntry{clientID: r.ClientID, user: u, expires: r.Expires, access: r.Access}
	return nil
}

// recCode is an authorization code.
type recCode struct {
	ClientID, RedirectURI, User string
	Expires                     time.Time
}

func (s *Server) codeKeys() []string { return sortedKeys(s.oauth.codes) }

func (s *Server) codeRec(code string) (recCode, bool) {
	c, ok := s.oauth.codes[code]
	if !ok {
		return recCode{}, false
	}
	return recCode{ClientID: c.clientID, RedirectURI: c.redirectURI, User: uid(c.user), Expires: utc(c.expires)}, true
}

func (s *Server) loadCode(code string, r recCode) error {
	u, err := s.userByRef(r.User)
	if err != nil {
		return err
	}
	s.oauth.codes[code] = &authCode{clientID: r.ClientID, redirectURI: r.RedirectURI, user: u, expires: r.Expires}
	return nil
}

// A used JWT id is stored as its expiry.

func (s *Server) jtiKeys() []string { return sortedKeys(s.oauth.jtis) }

func (s *Server) jtiRec(key string) (time.Time, bool) {
	t, ok := s.oauth.jtis[key]
	return utc(t), ok
}

func (s *Server) loadJTI(key string, t time.Time) error {
	s.oauth.jtis[key] = t
	return nil
}
