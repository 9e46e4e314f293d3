package oauth

import (
	"net/http"
	"net/url"
	"slices"
)

// Revoke answers POST /oauth2/revoke's form: revoking either token of a
// pair ends both; unknown tokens are ignored (RFC 7009).
func (o *Service[S]) Revoke(form url.Values) *Error {
	o.mu.Lock()
	defer o.mu.Unlock()
	app, oerr := o.clientApp(form)
	if oerr != nil {
		return oerr
	}
	tok := form.Get("token")
	if tok == "" {
		return errf(http.StatusBadRequest, "invalid_request", "The token parameter is missing")
	}
	if it := o.access.m[tok]; it != nil && it.ClientID == app.ClientID {
		o.access.delete(tok)
		o.refresh.delete(it.Refresh)
	}
	if e := o.refresh.m[tok]; e != nil && e.ClientID == app.ClientID {
		o.refresh.delete(tok)
		o.access.delete(e.Access)
	}
	return nil
}

// RedirectFor checks an authorization request of the code flow: the app of
// clientID and the redirect URI (the app's only one when redirect is "").
// It returns the redirect URI to answer to.
func (o *Service[S]) RedirectFor(clientID, redirect string) (string, *Error) {
	o.mu.Lock()
	app := o.apps.m[clientID]
	o.mu.Unlock()
	if app == nil {
		return "", errf(http.StatusBadRequest, "invalid_client", "The client_id is not registered")
	}
	if redirect == "" && len(app.RedirectURIs) == 1 {
		redirect = app.RedirectURIs[0]
	}
	if !slices.Contains(app.RedirectURIs, redirect) {
		return "", errf(http.StatusBadRequest, "invalid_request", "The redirect_uri is not registered with the app")
	}
	return redirect, nil
}

// NewCode issues an authorization code of clientID for subj, redeemable
// with redirect.
func (o *Service[S]) NewCode(clientID, redirect string, subj S) string {
	code := RandomHex(16)
	o.mu.Lock()
	o.codes.put(code, &Code[S]{ClientID: clientID, RedirectURI: redirect, Subject: subj, Expires: o.cfg.Now().Add(authCodeLifetime)})
	o.mu.Unlock()
	return code
}

// Lookup finds an issued access token: ok is false when it is unknown or
// expired, and expired is true when it is known but past its expiry.
func (o *Service[S]) Lookup(tok string) (it AccessToken[S], ok, expired bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.access.m[tok]
	if p == nil {
		return it, false, false
	}
	if !o.cfg.Now().Before(p.Expires) {
		return it, false, true
	}
	return *p, true, false
}

// Lock and Unlock take the service's lock, for the server's persistence:
// it reads the Records (and fills them while a state is loaded) with the
// lock held. The lock order is this lock, then the server's state lock.
func (o *Service[S]) Lock() { o.mu.Lock() }

// Unlock releases the lock of Lock.
func (o *Service[S]) Unlock() { o.mu.Unlock() }

// Records are the service's maps; read or change them only with Lock held.
func (o *Service[S]) Records() Records[S] {
	return Records[S]{Apps: o.apps.m, Access: o.access.m, Refresh: o.refresh.m, Codes: o.codes.m, JTIs: o.jtis.m}
}
