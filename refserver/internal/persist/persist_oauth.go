package persist

import (
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"time"

	"github.com/contentapi/cms/refserver/internal/oauth/oauthrec"
	"github.com/contentapi/cms/refserver/internal/state"
)

// Records of the authorization service: apps, issued access and refresh
// tokens, authorization codes and used JWT ids, keyed by client id, token,
// code and "<client id>\x00<jti>". The oauth room's lock guards them
// (Config.Outer); the persistence takes it before the state's lock.

// OAuthRoom is the server's oauth room, whose records these are. Records
// is read at each use: a restore makes a new room.
type OAuthRoom interface {
	Records() oauthrec.Records[*state.Principal]
}

// oauthRecords returns the records of the oauth room of the moment.
type oauthRecords func() oauthrec.Records[*state.Principal]

// OAuthKinds are the kinds of the oauth room's records, in the order of
// state.KApps to state.KJWTIDs.
func OAuthKinds(room OAuthRoom) (apps, access, refresh, codes, jtis Kind) {
	recs := oauthRecords(room.Records)
	apps = KindOf("oauth_apps", recs.appKeys, recs.appRec, recs.loadApp, nil)
	access = KindOf("oauth_access_tokens", recs.accessKeys, recs.accessRec, recs.loadAccess, nil)
	refresh = KindOf("oauth_refresh_tokens", recs.refreshKeys, recs.refreshRec, recs.loadRefresh, nil)
	codes = KindOf("oauth_codes", recs.codeKeys, recs.codeRec, recs.loadCode, nil)
	jtis = KindOf("oauth_jwt_ids", recs.jtiKeys, recs.jtiRec, recs.loadJTI, nil)
	return apps, access, refresh, codes, jtis
}

// recApp is a registered app; its public keys are PKIX DER by key id.
type recApp struct {
	ClientSecret  string
	RedirectURIs  []string
	PublicKeys    map[string][]byte
	NotAuthorized bool
}

func (recs oauthRecords) appKeys(*state.ReadTx) []string { return state.SortedKeys(recs().Apps) }

func (recs oauthRecords) appRec(_ *state.ReadTx, id string) (recApp, bool) {
	a, ok := recs().Apps[id]
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

func (recs oauthRecords) loadApp(_ *state.Tx, id string, r recApp) error {
	a := &oauthrec.App{ClientID: id, ClientSecret: r.ClientSecret, RedirectURIs: r.RedirectURIs,
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
	recs().Apps[id] = a
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

func (recs oauthRecords) accessKeys(*state.ReadTx) []string { return state.SortedKeys(recs().Access) }

func (recs oauthRecords) accessRec(_ *state.ReadTx, tok string) (recAccess, bool) {
	it, ok := recs().Access[tok]
	if !ok {
		return recAccess{}, false
	}
	r := recAccess{Kind: it.Subject.Kind, User: userID(it.Subject.User), ClientID: it.ClientID,
		Expires: utcTime(it.Expires), Scopes: it.Scopes, Refresh: it.Refresh}
	if it.Resource != nil {
		r.Resource = &[2]string{it.Resource.Kind, it.Resource.ID}
	}
	return r, true
}

func (recs oauthRecords) loadAccess(tx *state.Tx, tok string, r recAccess) error {
	u, err := userByRef(&tx.Users, r.User)
	if err != nil {
		return err
	}
	kind := r.Kind
	if kind == "admin" && u == tx.App {
		kind = state.KindService // a token saved before the service account had a kind of its own
	}
	it := &oauthrec.AccessToken[*state.Principal]{Subject: &state.Principal{Kind: kind, User: u}, ClientID: r.ClientID, Expires: r.Expires,
		Scopes: r.Scopes, Refresh: r.Refresh}
	if r.Resource != nil {
		it.Resource = &oauthrec.Resource{Kind: r.Resource[0], ID: r.Resource[1]}
	}
	recs().Access[tok] = it
	return nil
}

// recRefresh is an issued refresh token.
type recRefresh struct {
	ClientID, User, Access string
	Expires                time.Time
}

func (recs oauthRecords) refreshKeys(*state.ReadTx) []string { return state.SortedKeys(recs().Refresh) }

func (recs oauthRecords) refreshRec(_ *state.ReadTx, tok string) (recRefresh, bool) {
	e, ok := recs().Refresh[tok]
	if !ok {
		return recRefresh{}, false
	}
	return recRefresh{ClientID: e.ClientID, User: userID(e.Subject.User), Access: e.Access, Expires: utcTime(e.Expires)}, true
}

func (recs oauthRecords) loadRefresh(tx *state.Tx, tok string, r recRefresh) error {
	u, err := userByRef(&tx.Users, r.User)
	if err != nil {
		return err
	}
	recs().Refresh[tok] = &oauthrec.RefreshToken[*state.Principal]{ClientID: r.ClientID, Subject: tx.PrincipalForUser(u), Expires: r.Expires, Access: r.Access}
	return nil
}

// recCode is an authorization code.
type recCode struct {
	ClientID, RedirectURI, User string
	Expires                     time.Time
}

func (recs oauthRecords) codeKeys(*state.ReadTx) []string { return state.SortedKeys(recs().Codes) }

func (recs oauthRecords) codeRec(_ *state.ReadTx, code string) (recCode, bool) {
	c, ok := recs().Codes[code]
	if !ok {
		return recCode{}, false
	}
	return recCode{ClientID: c.ClientID, RedirectURI: c.RedirectURI, User: userID(c.Subject.User), Expires: utcTime(c.Expires)}, true
}

func (recs oauthRecords) loadCode(tx *state.Tx, code string, r recCode) error {
	u, err := userByRef(&tx.Users, r.User)
	if err != nil {
		return err
	}
	recs().Codes[code] = &oauthrec.Code[*state.Principal]{ClientID: r.ClientID, RedirectURI: r.RedirectURI, Subject: tx.PrincipalForUser(u), Expires: r.Expires}
	return nil
}

// A used JWT id is stored as its expiry.

func (recs oauthRecords) jtiKeys(*state.ReadTx) []string { return state.SortedKeys(recs().JTIs) }

func (recs oauthRecords) jtiRec(_ *state.ReadTx, key string) (time.Time, bool) {
	t, ok := recs().JTIs[key]
	return utcTime(t), ok
}

func (recs oauthRecords) loadJTI(_ *state.Tx, key string, t time.Time) error {
	recs().JTIs[key] = t
	return nil
}
