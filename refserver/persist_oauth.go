package refserver

import (
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"time"

	"github.com/contentapi/cms/refserver/internal/oauth"
	"github.com/contentapi/cms/refserver/internal/state"
)

// Records of the authorization service: apps, issued access and refresh
// tokens, authorization codes and used JWT ids, keyed by client id, token,
// code and "<client id>\x00<jti>". The oauth room's lock (s.oauth.Lock)
// guards them; the persistence takes it before the state's lock.

// recApp is a registered app; its public keys are PKIX DER by key id.
type recApp struct {
	ClientSecret  string
	RedirectURIs  []string
	PublicKeys    map[string][]byte
	NotAuthorized bool
}

func (s *Server) appKeys(*state.ReadTx) []string { return state.SortedKeys(s.oauth.Records().Apps) }

func (s *Server) appRec(_ *state.ReadTx, id string) (recApp, bool) {
	a, ok := s.oauth.Records().Apps[id]
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

func (s *Server) loadApp(tx *state.Tx, id string, r recApp) error {
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
	s.oauth.Records().Apps[id] = a
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

func (s *Server) accessKeys(*state.ReadTx) []string {
	return state.SortedKeys(s.oauth.Records().Access)
}

func (s *Server) accessRec(_ *state.ReadTx, tok string) (recAccess, bool) {
	it, ok := s.oauth.Records().Access[tok]
	if !ok {
		return recAccess{}, false
	}
	r := recAccess{Kind: it.Subject.Kind, User: state.Uid(it.Subject.User), ClientID: it.ClientID,
		Expires: state.Utc(it.Expires), Scopes: it.Scopes, Refresh: it.Refresh}
	if it.Resource != nil {
		r.Resource = &[2]string{it.Resource.Kind, it.Resource.ID}
	}
	return r, true
}

func (s *Server) loadAccess(tx *state.Tx, tok string, r recAccess) error {
	u, err := tx.UserByRef(r.User)
	if err != nil {
		return err
	}
	kind := r.Kind
	if kind == "admin" && u == s.st.App {
		kind = state.KindService // a token saved before the service account had a kind of its own
	}
	it := &oauth.AccessToken[*state.Principal]{Subject: &state.Principal{Kind: kind, User: u}, ClientID: r.ClientID, Expires: r.Expires,
		Scopes: r.Scopes, Refresh: r.Refresh}
	if r.Resource != nil {
		it.Resource = &oauth.Resource{Kind: r.Resource[0], ID: r.Resource[1]}
	}
	s.oauth.Records().Access[tok] = it
	return nil
}

// recRefresh is an issued refresh token.
type recRefresh struct {
	ClientID, User, Access string
	Expires                time.Time
}

func (s *Server) refreshKeys(*state.ReadTx) []string {
	return state.SortedKeys(s.oauth.Records().Refresh)
}

func (s *Server) refreshRec(_ *state.ReadTx, tok string) (recRefresh, bool) {
	e, ok := s.oauth.Records().Refresh[tok]
	if !ok {
		return recRefresh{}, false
	}
	return recRefresh{ClientID: e.ClientID, User: state.Uid(e.Subject.User), Access: e.Access, Expires: state.Utc(e.Expires)}, true
}

func (s *Server) loadRefresh(tx *state.Tx, tok string, r recRefresh) error {
	u, err := tx.UserByRef(r.User)
	if err != nil {
		return err
	}
	s.oauth.Records().Refresh[tok] = &oauth.RefreshToken[*state.Principal]{ClientID: r.ClientID, Subject: s.st.PrincipalForUser(u), Expires: r.Expires, Access: r.Access}
	return nil
}

// recCode is an authorization code.
type recCode struct {
	ClientID, RedirectURI, User string
	Expires                     time.Time
}

func (s *Server) codeKeys(*state.ReadTx) []string { return state.SortedKeys(s.oauth.Records().Codes) }

func (s *Server) codeRec(_ *state.ReadTx, code string) (recCode, bool) {
	c, ok := s.oauth.Records().Codes[code]
	if !ok {
		return recCode{}, false
	}
	return recCode{ClientID: c.ClientID, RedirectURI: c.RedirectURI, User: state.Uid(c.Subject.User), Expires: state.Utc(c.Expires)}, true
}

func (s *Server) loadCode(tx *state.Tx, code string, r recCode) error {
	u, err := tx.UserByRef(r.User)
	if err != nil {
		return err
	}
	s.oauth.Records().Codes[code] = &oauth.Code[*state.Principal]{ClientID: r.ClientID, RedirectURI: r.RedirectURI, Subject: s.st.PrincipalForUser(u), Expires: r.Expires}
	return nil
}

// A used JWT id is stored as its expiry.

func (s *Server) jtiKeys(*state.ReadTx) []string { return state.SortedKeys(s.oauth.Records().JTIs) }

func (s *Server) jtiRec(_ *state.ReadTx, key string) (time.Time, bool) {
	t, ok := s.oauth.Records().JTIs[key]
	return state.Utc(t), ok
}

func (s *Server) loadJTI(tx *state.Tx, key string, t time.Time) error {
	s.oauth.Records().JTIs[key] = t
	return nil
}
