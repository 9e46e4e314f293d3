package refserver

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Access through a shared link: the boxapi header
// (shared_link=<URL>[&shared_link_password=<password>], the shared-link guide) lets a
// caller read an item "that has not been explicitly shared with" them
// (spec, get_shared_items, get_web_links_id). GET /shared_items answers the
// item a link names; GET of a file, a folder, a folder's items, a web link
// and a file's download take the header too, for the item the link names
// and, for a folder's link, everything below the folder.
//
// Rules:
//   - a header that is not shared_link=<URL>[&shared_link_password=<pw>] is
//     400 bad_request (the service documents no code);
//   - the link must be an item's current shared link (its url or
//     vanity_url), the item not in the trash, the link not past
//     unshared_at, else 404 not_found, as for an item the caller cannot see
//     (no code documented; 404 reveals nothing);
//   - a link with a password needs that password: a wrong or missing one is
//     403 incorrect_shared_item_password (the common errors guide: "a
//     password is required for the shared item, but it was either
//     incorrect or not supplied");
//   - access open lets any caller through, company any user of the
//     enterprise (not one rolled out of it), collaborators nobody beyond
//     those who see the item anyway (owner, collaborators); a caller the
//     access leaves out gets 404 not_found;
//   - through a link, the caller reads and previews; downloads need the
//     link's permissions.can_download (true by default for open and company
//     links): 403 access_denied_insufficient_permissions otherwise, unless
//     the caller may download anyway.
//
// The header is checked even when the caller could read the item without
// it, so that a client sending a wrong link or password fails a test (what
// the service does then is not documented).

// codeIncorrectSharedItemPassword is the common errors guide's code for a
// shared link password that is wrong or missing (403).
const codeIncorrectSharedItemPassword = "incorrect_shared_item_password"

// boxapiLink is the shared link a boxapi header names.
type boxapiLink struct {
	url, password string
	// The values percent-decoded: the classic box-node-sdk encodes them
	// (buildSharedItemAuthHeader), the newer SDKs send them raw; either
	// form is taken.
	urlDecoded, passwordDecoded string
}

const (
	boxapiLinkPrefix  = "shared_link="
	boxapiPasswordSep = "&shared_link_password="
)

// parseBoxAPI reads a boxapi header: the link runs up to
// &shared_link_password=, the password is the rest, unescaped (the
// service's format is the raw values, and a password may hold "&").
func parseBoxAPI(v string) (boxapiLink, *wire.Error) {
	rest, ok := strings.CutPrefix(v, boxapiLinkPrefix)
	if !ok || rest == "" {
		return boxapiLink{}, wire.BadRequest("Invalid boxapi header: use shared_link=<URL> or shared_link=<URL>&shared_link_password=<password>")
	}
	link, pw, _ := strings.Cut(rest, boxapiPasswordSep)
	b := boxapiLink{url: link, password: pw, urlDecoded: link, passwordDecoded: pw}
	if u, err := url.QueryUnescape(link); err == nil {
		b.urlDecoded = u
	}
	if p, err := url.QueryUnescape(pw); err == nil {
		b.passwordDecoded = p
	}
	return b, nil
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

// sharedLinkItem returns the item whose shared link b names, for p (rules
// above). Callers hold s.mu.
func (s *state) sharedLinkItem(p *principal, b boxapiLink) (*item, *wire.Error) {
	var it *item
	for _, x := range s.items {
		l := x.link
		if l == nil || s.inTrash(x) || !l.unsharedAt.IsZero() && !s.now().Before(l.unsharedAt) {
			continue
		}
		for _, u := range sharedLinkURLs(l) {
			if u == b.url || u == b.urlDecoded {
				it = x
			}
		}
	}
	if it == nil {
		return nil, wire.NotFound("shared item")
	}
	l := it.link
	if l.password != "" && subtle.ConstantTimeCompare([]byte(l.password), []byte(b.password)) != 1 &&
		subtle.ConstantTimeCompare([]byte(l.password), []byte(b.passwordDecoded)) != 1 {
		return nil, wire.Errorf(http.StatusForbidden, codeIncorrectSharedItemPassword, "The shared link needs a password, and the one given is wrong or missing")
	}
	inEnterprise := p.user != nil && s.enterpriseUser(p.user.id) != nil
	if s.visible(p, it) || l.access == "open" || l.access == "company" && inEnterprise {
		return it, nil
	}
	return nil, wire.NotFound("shared item")
}

// sharedLinkHeader reads the boxapi header of r: nil when there is none.
func sharedLinkHeader(r *http.Request) (*boxapiLink, *wire.Error) {
	v, ok := r.Header["Boxapi"]
	if !ok {
		return nil, nil
	}
	b, aerr := parseBoxAPI(strings.Join(v, ","))
	if aerr != nil {
		return nil, aerr
	}
	return &b, nil
}

// lookupVia returns the item of a type p may act on: through the shared
// link of r's boxapi header when it has one (rules above), else as
// lookupFor. Callers hold s.mu.
func (s *Server) lookupVia(r *http.Request, p *principal, typ, id string, act action) (*item, *wire.Error) {
	b, aerr := sharedLinkHeader(r)
	if aerr != nil {
		return nil, aerr
	}
	if b == nil {
		return s.lookupFor(p, typ, id, act)
	}
	shared, aerr := s.sharedLinkItem(p, *b)
	if aerr != nil {
		return nil, aerr
	}
	it, ok := s.items[id]
	if !ok || it.typ != typ || s.inTrash(it) || it != shared && !(shared.typ == "folder" && s.isWithin(it.parentID, shared.id)) {
		return nil, wire.NotFound(typ)
	}
	switch {
	case act == actSee || act == actPreview, s.can(p, it, act):
		return it, nil
	case act == actDownload && shared.link.downloads():
		return it, nil
	}
	return nil, errDenied(typ)
}

// getSharedItem serves GET /shared_items: the item the boxapi header's
// link names (File, Folder or WebLink), 304 on a matching if-none-match.
func (s *Server) getSharedItem(w http.ResponseWriter, r *http.Request, p *principal) error {
	b, aerr := sharedLinkHeader(r)
	if aerr != nil {
		return aerr
	}
	if b == nil {
		return wire.BadRequest("GET /shared_items needs the boxapi header: shared_link=<URL>[&shared_link_password=<password>]")
	}
	fields := parseFields(r)
	s.mu.Lock()
	it, aerr := s.sharedLinkItem(p, *b)
	var out map[string]any
	notModified := false
	if aerr == nil {
		if h := r.Header.Get("If-None-Match"); h != "" && etagMatches(h, it.etag()) {
			notModified = true
		} else {
			out = s.render(it, fields, p)
		}
	}
	s.mu.Unlock()
	switch {
	case aerr != nil:
		return aerr
	case notModified:
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// redactBoxAPI hides the password of a boxapi header value (the request
// log keeps the link, which tests assert on, but no secret).
func redactBoxAPI(v string) string {
	if i := strings.Index(v, boxapiPasswordSep); i >= 0 {
		return v[:i+len(boxapiPasswordSep)] + "[redacted]"
	}
	return v
}
