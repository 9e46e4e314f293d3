package refserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// CORS (cross-origin resource sharing) lets a web page on another origin
// call the server from a browser, as Box UI Elements do: every listener (the
// API root, the upload root, the content host) answers the browser's
// preflight (OPTIONS with Origin and Access-Control-Request-Method) itself,
// before routes, tokens and faults, and marks every other answer to an
// allowed origin as readable by the page. A plain OPTIONS (no
// Access-Control-Request-Method), such as the upload pre-check
// OPTIONS /files/content, goes to its route as before.

// corsAllowMethods are the methods a preflight allows: every method the
// API uses (OPTIONS for the upload pre-check and OPTIONS /events).
const corsAllowMethods = "GET, HEAD, POST, PUT, DELETE, OPTIONS"

// corsAllowHeaders are the request headers a preflight allows. A wildcard
// does not cover Authorization (the Fetch standard), so every header is
// named: those of the API (As-User, BoxApi, If-Match, If-None-Match,
// Range, X-Rep-Hints, the upload parts' Digest and Content-Range, the
// pre-check's Content-MD5) and those Box UI Elements add to their calls
// (X-Box-Client-Name, X-Box-Client-Version, X-Box-Client-Event-Info,
// X-File-Name, X-File-Size).
const corsAllowHeaders = "Authorization, Accept, Accept-Language, Content-Type, As-User, BoxApi, " +
	"Content-MD5, Content-Range, Digest, If-Match, If-None-Match, Range, X-Rep-Hints, " +
	"X-Box-Client-Name, X-Box-Client-Version, X-Box-Client-Event-Info, X-File-Name, X-File-Size"

// corsExposeHeaders are the answer headers a page may read besides the
// safelisted ones.
const corsExposeHeaders = "ETag, Location, Retry-After, Content-Range, Content-Length, Content-Disposition, " +
	"Accept-Ranges, Digest, Link, WWW-Authenticate, Box-Request-Id"

// corsMaxAge is how long, in seconds, a browser may cache a preflight's
// answer (Chromium caps it at two hours).
const corsMaxAge = "7200"

// corsPolicy is the set of origins allowed to call the server
// (Options.CORSOrigins): any origin when anyOrigin is set.
type corsPolicy struct {
	anyOrigin bool
	origins   map[string]bool // normalized (normalizeOrigin)
}

// newCORSPolicy checks and normalizes Options.CORSOrigins: empty, or an
// entry "*", allows any origin; any other entry must be an origin,
// scheme://host[:port] with no path, query or user.
func newCORSPolicy(origins []string) (corsPolicy, error) {
	c := corsPolicy{anyOrigin: len(origins) == 0, origins: make(map[string]bool, len(origins))}
	for _, o := range origins {
		if strings.TrimSpace(o) == "*" {
			c.anyOrigin = true
			continue
		}
		n, ok := normalizeOrigin(o)
		if !ok {
			return corsPolicy{}, fmt.Errorf("refserver: Options.CORSOrigins: %q is not an origin (scheme://host[:port], or *)", o)
		}
		c.origins[n] = true
	}
	return c, nil
}

// normalizeOrigin returns o as a browser sends it in the Origin header:
// lower-case scheme and host, no default port, no trailing slash.
func normalizeOrigin(o string) (string, bool) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimSpace(o), "/"))
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", false
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// allows reports whether a page of origin may call the server.
func (c corsPolicy) allows(origin string) bool {
	if c.anyOrigin {
		return true
	}
	n, ok := normalizeOrigin(origin)
	return ok && c.origins[n]
}

// serveCORS applies the policy to a request of any listener and reports
// whether it answered it: a preflight is answered here (204 with the
// Access-Control-Allow-* headers for an allowed origin, 403 otherwise); any
// other request from an allowed origin gets Access-Control-Allow-Origin and
// -Expose-Headers and goes on to its route. A request without Origin (not
// from a browser page, or same-origin) is left as it is.
func (c corsPolicy) serveCORS(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	h := w.Header()
	h.Add("Vary", "Origin")
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if !c.allows(origin) {
		if preflight {
			drain(r.Body)
			writeError(w, wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "Forbidden: origin %q is not allowed (the server's CORS origins)", origin))
			return true
		}
		return false // the browser withholds the answer from the page
	}
	h.Set("Access-Control-Allow-Origin", origin)
	if !preflight {
		h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		return false
	}
	h.Add("Vary", "Access-Control-Request-Method")
	h.Add("Vary", "Access-Control-Request-Headers")
	h.Set("Access-Control-Allow-Methods", corsAllowMethods)
	h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
	h.Set("Access-Control-Max-Age", corsMaxAge)
	if r.Header.Get("Access-Control-Request-Private-Network") == "true" {
		// Chromium's Private Network Access: a page may call a server on
		// this machine (the server is a local one).
		h.Set("Access-Control-Allow-Private-Network", "true")
	}
	drain(r.Body)
	w.WriteHeader(http.StatusNoContent)
	return true
}
