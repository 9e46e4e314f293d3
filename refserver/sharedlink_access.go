package refserver

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// Access through a shared link: the boxapi header
// (shared_link=<URL>[&shared_link_password=<password>], the shared-link guide) lets a
// caller read an item "that has not been explicitly shared with" them
// (spec, get_web_links_id). Of the items of this server only web links have
// shared links, so GET /web_links/{id} is the one endpoint that reads the
// header; the file and folder endpoints accept it and, there being no link
// to follow, ignore it.
//
// Rules (GET /web_links/{id} with boxapi):
//   - a header that is not shared_link=<URL>[&shared_link_password=<pw>] is
//     400 bad_request (the service documents no code);
//   - the link must be the web link's current shared link (its url or
//     vanity_url) and not past unshared_at, else 404 not_found, as for an
//     item the caller cannot see (no code documented; 404 reveals nothing);
//   - a link with a password needs that password: a wrong or missing one is
//     403 incorrect_shared_item_password (the common errors guide: "a
//     password is required for the shared item, but it was either
//     incorrect or not supplied");
//   - access open lets any caller read the link, company any user of the
//     enterprise (not one rolled out of it), collaborators nobody beyond
//     those who see it anyway (the server has no collaborations); a caller
//     the access leaves out gets 404 not_found.
//
// The header is checked even when the caller could read the link without
// it, so that a client sending a wrong link or password fails a test (what
// the service does then is not documented).

// codeIncorrectSharedItemPassword is the common errors guide's code for a
// shared link password that is wrong or missing (403).
const codeIncorrectSharedItemPassword = "incorrect_shared_item_password"

// boxapiLink is the shared link a boxapi header names.
type boxapiLink struct {
	url, password string
}

const (
	boxapiLinkPrefix  = "shared_link="
	boxapiPasswordSep = "&shared_link_password="
)

// parseBoxAPI reads a boxapi header: the link runs up to
// &shared_link_password=, the password is the rest, unescaped (the
// service's format is the raw values, and a password may hold "&").
func parseBoxAPI(v string) (boxapiLink, *apiError) {
	rest, ok := strings.CutPrefix(v, boxapiLinkPrefix)
	if !ok || rest == "" {
		return boxapiLink{}, errBadRequest("Invalid boxapi header: use shared_link=<URL> or shared_link=<URL>&shared_link_password=<password>")
	}
	link, pw, _ := strings.Cut(rest, boxapiPasswordSep)
	return boxapiLink{url: link, password: pw}, nil
}

// sharedLinkURLs are the URLs that name l: its url and its vanity_url.
func sharedLinkURLs(l *sharedLink) []string {
	urls := []string{sharedLinkBase + "/s/" + l.token}
	if l.vanityName != "" {
		urls = append(urls, sharedLinkBase+"/v/"+l.vanityName)
	}
	return urls
}

// sharedLinkBase is the host of the shared link URLs this server hands out.
const sharedLinkBase = "https://app.cms.test"

// lookupShared returns web link id as p reads it through the shared link
// of the boxapi header b (rules above). Callers hold s.mu.
func (s *Server) lookupShared(p *principal, id string, b boxapiLink) (*item, *apiError) {
	it, ok := s.items[id]
	if !ok || it.typ != "web_link" || s.inTrash(it) {
		return nil, errNotFound("web_link")
	}
	l := it.link
	if l == nil || !l.unsharedAt.IsZero() && !s.now().Before(l.unsharedAt) {
		return nil, errNotFound("web_link")
	}
	named := false
	for _, u := range sharedLinkURLs(l) {
		named = named || u == b.url
	}
	if !named {
		return nil, errNotFound("web_link")
	}
	if l.password != "" && subtle.ConstantTimeCompare([]byte(l.password), []byte(b.password)) != 1 {
		return nil, errf(http.StatusForbidden, codeIncorrectSharedItemPassword, "The shared link needs a password, and the one given is wrong or missing")
	}
	inEnterprise := s.enterpriseUser(p.user.id) != nil
	if s.visible(p, it) || l.access == "open" || l.access == "company" && inEnterprise {
		return it, nil
	}
	return nil, errNotFound("web_link")
}

// redactBoxAPI hides the password of a boxapi header value (the request
// log keeps the link, which tests assert on, but no secret).
func redactBoxAPI(v string) string {
	if i := strings.Index(v, boxapiPasswordSep); i >= 0 {
		return v[:i+len(boxapiPasswordSep)] + "[redacted]"
	}
	return v
}
