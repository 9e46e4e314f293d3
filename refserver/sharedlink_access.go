package refserver

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

const (
	boxapiLinkPrefix  = "shared_link="
	boxapiPasswordSep = "&shared_link_password="
)

// parseBoxAPI reads a boxapi header: the link runs up to
// &shared_link_password=, the password is the rest, unescaped (the
// service's format is the raw values, and a password may hold "&").
func parseBoxAPI(v string) (state.BoxapiLink, *wire.Error) {
	rest, ok := strings.CutPrefix(v, boxapiLinkPrefix)
	if !ok || rest == "" {
		return state.BoxapiLink{}, wire.BadRequest("Invalid boxapi header: use shared_link=<URL> or shared_link=<URL>&shared_link_password=<password>")
	}
	link, pw, _ := strings.Cut(rest, boxapiPasswordSep)
	b := state.BoxapiLink{URL: link, Password: pw, URLDecoded: link, PasswordDecoded: pw}
	if u, err := url.QueryUnescape(link); err == nil {
		b.URLDecoded = u
	}
	if p, err := url.QueryUnescape(pw); err == nil {
		b.PasswordDecoded = p
	}
	return b, nil
}

// sharedLinkHeader reads the boxapi header of r: nil when there is none.
func sharedLinkHeader(r *http.Request) (*state.BoxapiLink, *wire.Error) {
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

// itemRead is what a read of one item asks (state.ItemRead): its type and
// id, the shared link of r's boxapi header, r's if-none-match and fields.
func itemRead(r *http.Request, typ, id string) (state.ItemRead, *wire.Error) {
	link, aerr := sharedLinkHeader(r)
	if aerr != nil {
		return state.ItemRead{}, aerr
	}
	return state.ItemRead{Type: typ, ID: id, Link: link, IfNoneMatch: r.Header.Get("If-None-Match"), Fields: parseFields(r)}, nil
}

// getSharedItem serves GET /shared_items: the item the boxapi header's
// link names (File, Folder or WebLink), 304 on a matching if-none-match.
func (s *Server) getSharedItem(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	b, aerr := sharedLinkHeader(r)
	if aerr != nil {
		return aerr
	}
	if b == nil {
		return wire.BadRequest("GET /shared_items needs the boxapi header: shared_link=<URL>[&shared_link_password=<password>]")
	}
	rd := state.ItemRead{Link: b, IfNoneMatch: r.Header.Get("If-None-Match"), Fields: parseFields(r)}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.GetSharedItem(p, rd) })
}

// redactBoxAPI hides the password of a boxapi header value (the request
// log keeps the link, which tests assert on, but no secret).
func redactBoxAPI(v string) string {
	if i := strings.Index(v, boxapiPasswordSep); i >= 0 {
		return v[:i+len(boxapiPasswordSep)] + "[redacted]"
	}
	return v
}
