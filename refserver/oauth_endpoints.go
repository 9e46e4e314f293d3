package refserver

import (
	"net/http"
	"net/url"
	"slices"
)

func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	form, oerr := parseOAuthForm(r)
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	app, oerr := s.oauth.clientApp(form)
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	tok := form.Get("token")
	if tok == "" {
		writeOAuthError(w, oauthErr(http.StatusBadRequest, "invalid_request", "The token parameter is missing"))
		return
	}
	// Revoking either token of a pair ends both; unknown tokens are ignored
	// (RFC 7009).
	if it := s.oauth.access[tok]; it != nil && it.clientID == app.ClientID {
		delete(s.oauth.access, tok)
		delete(s.oauth.refresh, it.refresh)
		s.dirty(kAccessTokens, tok)
		s.dirty(kRefreshTokens, it.refresh)
	}
	if e := s.oauth.refresh[tok]; e != nil && e.clientID == app.ClientID {
		delete(s.oauth.refresh, tok)
		delete(s.oauth.access, e.access)
		s.dirty(kRefreshTokens, tok)
		s.dirty(kAccessTokens, e.access)
	}
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

// serveAuthorize grants at once what a user would grant in a browser.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.oauth.mu.Lock()
	app := s.oauth.apps[q.Get("client_id")]
	s.oauth.mu.Unlock()
	if app == nil {
		writeOAuthError(w, oauthErr(http.StatusBadRequest, "invalid_client", "The client_id is not registered"))
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(app.RedirectURIs) == 1 {
		redirect = app.RedirectURIs[0]
	}
	if !slices.Contains(app.RedirectURIs, redirect) {
		writeOAuthError(w, oauthErr(http.StatusBadRequest, "invalid_request", "The redirect_uri is not registered with the app"))
		return
	}
	ru, err := url.Parse(redirect)
	if err != nil {
		writeOAuthError(w, oauthErr(http.StatusBadRequest, "invalid_request", "The redirect_uri is not a URL"))
		return
	}
	back := ru.Query()
	back.Set("state", q.Get("state"))
	if q.Get("response_type") != "code" {
		back.Set("error", "unsupported_response_type")
		ru.RawQuery = back.Encode()
		http.Redirect(w, r, ru.String(), http.StatusFound)
		return
	}
	u := s.user
	if id := q.Get("user_id"); id != "" {
		if u = s.managedUser(id); u == nil {
			back.Set("error", "access_denied")
			ru.RawQuery = back.Encode()
			http.Redirect(w, r, ru.String(), http.StatusFound)
			return
		}
	}
	code := randomHex(16)
	s.oauth.mu.Lock()
	s.oauth.codes[code] = &authCode{clientID: app.ClientID, redirectURI: redirect, user: u, expires: s.now().Add(authCodeLifetime)}
	s.dirty(kAuthCodes, code)
	s.oauth.mu.Unlock()
	back.Set("code", code)
	ru.RawQuery = back.Encode()
	http.Redirect(w, r, ru.String(), http.StatusFound)
}

// lookupIssued finds an issued access token: ok=false when unknown,
// expired=true when it is known but past its expiry.
func (s *Server) lookupIssued(tok string) (it *issued, expired bool) {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	it = s.oauth.access[tok]
	if it == nil {
		return nil, false
	}
	if !s.now().Before(it.expires) {
		return nil, true
	}
	return it, false
}

// principalFor is the principal of an issued token; a downscoped token
// carries its restriction.
func (it *issued) principalFor() *principal {
	p := *it.principal
	if it.scopes != nil {
		p.restrict = &restriction{scopes: it.scopes, resource: it.resource}
	}
	return &p
}
