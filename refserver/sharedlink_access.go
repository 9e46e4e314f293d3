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

// lookupVia returns the item of a type p may act on: through the shared
// link of r's boxapi header when it has one (rules above), else as
// lookupFor. Callers hold s.mu.
func (s *Server) lookupVia(r *http.Request, p *state.Principal, typ, id string, act state.Action) (*state.Item, *wire.Error) {
	b, aerr := sharedLinkHeader(r)
	if aerr != nil {
		return nil, aerr
	}
	if b == nil {
		return s.st.LookupFor(p, typ, id, act)
	}
	shared, aerr := s.st.SharedLinkItem(p, *b)
	if aerr != nil {
		return nil, aerr
	}
	it, ok := s.st.Items[id]
	if !ok || it.Typ != typ || s.st.InTrash(it) || it != shared && !(shared.Typ == "folder" && s.st.IsWithin(it.ParentID, shared.ID)) {
		return nil, wire.NotFound(typ)
	}
	switch {
	case act == state.ActSee || act == state.ActPreview, s.st.Can(p, it, act):
		return it, nil
	case act == state.ActDownload && shared.Link.Downloads():
		return it, nil
	}
	return nil, state.ErrDenied(typ)
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
	fields := parseFields(r)
	s.st.Mu.Lock()
	it, aerr := s.st.SharedLinkItem(p, *b)
	var out map[string]any
	notModified := false
	if aerr == nil {
		if h := r.Header.Get("If-None-Match"); h != "" && state.EtagMatches(h, it.Etag()) {
			notModified = true
		} else {
			out = s.st.Render(it, fields, p)
		}
	}
	s.st.Mu.Unlock()
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
