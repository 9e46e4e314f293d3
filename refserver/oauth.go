package refserver

// The authorization service on the API host, outside /2.0, as on the real
// service (whose authorize page is on account.box.com): POST /oauth2/token,
// POST /oauth2/revoke, and an authorization page a test can drive without a
// browser. Its rules and state are the oauth room (internal/oauth); this
// file wires it to the server: the subjects a token acts for (principals),
// the persistence marks, and the HTTP answers.

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/contentapi/cms/refserver/internal/oauth"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// AuthorizePath is where the server's authorization page is served on the
// API host (the real one is https://account.box.com/api/oauth2/authorize).
const AuthorizePath = "/api/oauth2/authorize"

// App is an application registered with the server for OAuth 2.0 (code
// flow), client credentials and JWT.
type App = oauth.App

// oauthKinds are the persisted record kinds of the oauth room's kinds.
var oauthKinds = [...]state.KindID{
	oauth.KindApp: state.KApps, oauth.KindAccess: state.KAccessTokens, oauth.KindRefresh: state.KRefreshTokens,
	oauth.KindCode: state.KAuthCodes, oauth.KindJTI: state.KJWTIDs,
}

func (s *Server) initOAuth() {
	s.oauth = oauth.New(oauth.Config[*state.Principal]{
		Now:      s.st.Now,
		Lifetime: s.opts.TokenLifetime,
		Mark:     func(k oauth.Kind, key string) { s.st.MarkOAuth(oauthKinds[k], key) },
		EnterpriseSubject: func(id string) (*state.Principal, bool) {
			return s.st.PrincipalForUser(s.st.App), id == s.st.EnterpriseID
		},
		UserSubject: func(id string) (*state.Principal, bool) {
			if u := s.st.ManagedUser(id); u != nil {
				return s.st.PrincipalForUser(u), true
			}
			return nil, false
		},
		TokenURL:      s.TokenURL,
		ParseResource: s.parseResource,
	})
}

// onlyMethod answers other methods with 405 and the standard error body.
func onlyMethod(method string, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			drain(r.Body)
			w.Header().Set("Allow", method)
			writeError(w, wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: %s", r.Method))
			return
		}
		h(w, r)
	})
}

// RegisterApp registers an app and returns it with its client id and secret
// filled in. Apps are authorized in the server's enterprise unless
// NotAuthorized is set.
func (s *Server) RegisterApp(a App) (App, error) {
	a, err := s.oauth.Register(a)
	if err != nil {
		return App{}, err
	}
	return a, s.flushState()
}

// TokenURL is the token endpoint, e.g. http://127.0.0.1:PORT/oauth2/token.
func (s *Server) TokenURL() string { return s.st.APIOrigin() + "/oauth2/token" }

// AuthorizeURL is the authorization page of the code flow on the API host,
// e.g. http://127.0.0.1:PORT/api/oauth2/authorize. GET it with
// response_type=code, client_id, redirect_uri (registered with the app) and
// state; it answers 302 to redirect_uri with code and state, as if the user
// had granted access. The reference-server extension user_id chooses the
// user who grants (the admin's or the managed user's id; default the
// managed user).
func (s *Server) AuthorizeURL() string { return s.st.APIOrigin() + AuthorizePath }

// writeOAuthError answers e as the OAuth 2.0 error body.
func writeOAuthError(w http.ResponseWriter, e *oauth.Error) {
	if e.Code == "invalid_client" && e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="Service"`)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, e.Status, map[string]string{"error": e.Code, "error_description": e.Desc})
}

// serveToken serves POST /oauth2/token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	// The Date header comes from the server's clock: clients correct a
	// JWT's exp with it.
	w.Header().Set("Date", s.st.Now().UTC().Format(http.TimeFormat))
	form, oerr := oauth.ParseForm(r)
	if oerr != nil {
		drain(r.Body)
		writeOAuthError(w, oerr)
		return
	}
	resp, oerr := s.oauth.Token(form)
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, resp)
}

// serveRevoke serves POST /oauth2/revoke.
func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	form, oerr := oauth.ParseForm(r)
	if oerr == nil {
		oerr = s.oauth.Revoke(form)
	} else {
		drain(r.Body)
	}
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

// serveAuthorize grants at once what a user would grant in a browser.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, oerr := s.oauth.RedirectFor(q.Get("client_id"), q.Get("redirect_uri"))
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	ru, err := url.Parse(redirect)
	if err != nil {
		writeOAuthError(w, &oauth.Error{Status: http.StatusBadRequest, Code: "invalid_request", Desc: "The redirect_uri is not a URL"})
		return
	}
	back := ru.Query()
	back.Set("state", q.Get("state"))
	answer := func() {
		ru.RawQuery = back.Encode()
		http.Redirect(w, r, ru.String(), http.StatusFound)
	}
	if q.Get("response_type") != "code" {
		back.Set("error", "unsupported_response_type")
		answer()
		return
	}
	u := s.st.User
	if id := q.Get("user_id"); id != "" {
		if u = s.st.ManagedUser(id); u == nil {
			back.Set("error", "access_denied")
			answer()
			return
		}
	}
	back.Set("code", s.oauth.NewCode(q.Get("client_id"), redirect, s.st.PrincipalForUser(u)))
	answer()
}

// lookupIssued finds a token issued by POST /oauth2/token: its principal
// (a downscoped token carries its restriction), ok=false when unknown or
// expired, expired=true when it is known but past its expiry.
func (s *Server) lookupIssued(tok string) (p *state.Principal, ok, expired bool) {
	it, ok, expired := s.oauth.Lookup(tok)
	if !ok {
		return nil, false, expired
	}
	c := *it.Subject
	if it.Scopes != nil {
		c.Restrict = &state.Restriction{Scopes: it.Scopes}
		if it.Resource != nil {
			c.Restrict.Kind, c.Restrict.ID = it.Resource.Kind, it.Resource.ID
		}
	}
	return &c, true, false
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
