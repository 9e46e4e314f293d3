package refserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// webLinkID reads {web_link_id}; a malformed id is 404.
func webLinkID(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("web_link_id")
	if !state.ValidID(id) || id == state.RootID {
		return "", wire.NotFound("web_link")
	}
	return id, nil
}

// checkWebLinkURL applies the rule of the spec: the url starts with
// http:// or https://, and names a host. 400 bad_request otherwise.
func checkWebLinkURL(u string) *wire.Error {
	l := strings.ToLower(u)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return wire.BadRequest("Invalid value for url: it must start with http:// or https://")
	}
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" || !utf8.ValidString(u) {
		return wire.BadRequest("Invalid value for url: not a URL with a host")
	}
	return nil
}

// checkWebLinkName applies the name rules to a name given for a web link.
// A web link's name defaults to its URL, so unlike file and folder names it
// may hold "/"; the other rules hold.
func checkWebLinkName(name string) *wire.Error {
	return state.CheckName(strings.NewReplacer("/", "_", `\`, "_").Replace(name))
}

// createWebLink serves POST /web_links: 200 (not 201, per the spec) WebLink.
func (s *Server) createWebLink(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CreateWebLinkBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.URL == nil {
		return wire.BadRequest("Missing required field: url")
	}
	if body.Parent == nil || body.Parent.ID == nil {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if aerr := checkWebLinkURL(*body.URL); aerr != nil {
		return aerr
	}
	name := *body.URL
	if body.Name != nil && *body.Name != "" {
		name = *body.Name
		if aerr := checkWebLinkName(name); aerr != nil {
			return aerr
		}
	}
	desc := ""
	if body.Description != nil {
		desc = *body.Description
	}
	if aerr := state.CheckDescription(desc); aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateWebLink(p, body, name, desc, fields)
	})
}

// getWebLink serves GET /web_links/{web_link_id}: 200 WebLink. With a
// boxapi header the link is read through its shared link
// (sharedlink_access.go).
func (s *Server) getWebLink(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := webLinkID(r)
	if aerr != nil {
		return aerr
	}
	rd, aerr := itemRead(r, "web_link", id)
	if aerr != nil {
		return aerr
	}
	rd.IfNoneMatch = "" // a web link is read whole, whatever the etag
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.GetItem(p, rd, state.CollectionQuery{}) })
}

// sharedLinkBody is the shared_link object of an update. Only password
// takes null (remove the password, as the spec says).
type sharedLinkBody struct {
	Access      *string               `json:"access"`
	Password    wire.Nullable[string] `json:"password"`
	VanityName  *string               `json:"vanity_name"`
	UnsharedAt  *string               `json:"unshared_at"`
	Permissions *struct {
		CanDownload *bool `json:"can_download"`
		CanPreview  *bool `json:"can_preview"`
		CanEdit     *bool `json:"can_edit"`
	} `json:"permissions"`
}

// updateWebLink serves PUT /web_links/{web_link_id}: 200 WebLink. It changes
// url, name, description, moves the link (parent.id) and sets or removes
// (shared_link: null) its shared link. Every check runs before any change.
func (s *Server) updateWebLink(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := webLinkID(r)
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.UpdateWebLinkBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest, "shared_link"); aerr != nil {
		return aerr
	}
	if body.URL != nil {
		if aerr := checkWebLinkURL(*body.URL); aerr != nil {
			return aerr
		}
	}
	if body.Name != nil {
		if aerr := checkWebLinkName(*body.Name); aerr != nil {
			return aerr
		}
	}
	if body.Description != nil {
		if aerr := state.CheckDescription(*body.Description); aerr != nil {
			return aerr
		}
	}
	if body.Parent != nil && (body.Parent.ID == nil || *body.Parent.ID == "") {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if body.Parent != nil && body.Parent.UserID != nil && *body.Parent.ID != state.RootID {
		return wire.BadRequest("parent.user_id needs parent.id \"0\"")
	}
	now := s.st.NowSec()
	link, removeLink, aerr := parseSharedLink(body.SharedLink, now)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateWebLink(p, id, body, now, removeLink, link, fields)
	})
}

// parseSharedLink checks the shared_link of an update: null removes the
// link; an object sets it. access is open, company or collaborators; a
// password (at least 8 characters with a digit, an upper-case letter or a
// symbol) needs access open; vanity_name has at least 12 characters;
// unshared_at is a future date-time. 400 bad_request otherwise.
func parseSharedLink(raw wire.Nullable[json.RawMessage], now time.Time) (*state.SharedLinkUpdate, bool, *wire.Error) {
	if !raw.Present {
		return nil, false, nil
	}
	if raw.Null {
		return nil, true, nil
	}
	var b sharedLinkBody
	if aerr := wire.DecodeJSONObject(bytes.NewReader(raw.V), &b, wire.CodeBadRequest, "password"); aerr != nil {
		return nil, false, aerr
	}
	u := &state.SharedLinkUpdate{Access: b.Access, VanityName: b.VanityName}
	if b.Access != nil {
		switch *b.Access {
		case "open", "company", "collaborators":
		default:
			return nil, false, wire.BadRequest("Invalid value for shared_link.access")
		}
	}
	if b.Password.Present {
		pw := ""
		if v, ok := b.Password.Value(); ok {
			pw = v
			if !strongPassword(pw) {
				return nil, false, wire.BadRequest("Invalid value for shared_link.password: at least 8 characters with a number, an upper-case letter or a symbol")
			}
			if b.Access == nil || *b.Access != "open" {
				return nil, false, wire.BadRequest("A shared link password needs access \"open\"")
			}
		}
		u.Password = &pw
	}
	if perm := b.Permissions; perm != nil {
		on := func(v *bool) bool { return v != nil && *v }
		if (on(perm.CanDownload) || on(perm.CanEdit)) && b.Access != nil && *b.Access == "collaborators" {
			return nil, false, wire.BadRequest("shared_link.permissions can_download and can_edit need access open or company")
		}
		if on(perm.CanEdit) && !on(perm.CanDownload) {
			return nil, false, wire.BadRequest("shared_link.permissions.can_edit needs can_download true")
		}
		if perm.CanPreview != nil && !*perm.CanPreview {
			return nil, false, wire.BadRequest("shared_link.permissions.can_preview cannot be false")
		}
		u.CanDownload, u.CanEdit = perm.CanDownload, perm.CanEdit
	}
	if b.VanityName != nil && utf8.RuneCountInString(*b.VanityName) < 12 {
		return nil, false, wire.BadRequest("Invalid value for shared_link.vanity_name: at least 12 characters")
	}
	if b.UnsharedAt != nil {
		t, err := time.Parse(time.RFC3339, *b.UnsharedAt)
		if err != nil || !t.After(now) {
			return nil, false, wire.BadRequest("Invalid value for shared_link.unshared_at: a future date-time")
		}
		t = t.UTC()
		u.UnsharedAt = &t
	}
	return u, false, nil
}

// strongPassword is the service's shared-link password rule.
func strongPassword(pw string) bool {
	if utf8.RuneCountInString(pw) < 8 {
		return false
	}
	return strings.ContainsFunc(pw, func(r rune) bool {
		return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || !(r >= 'a' && r <= 'z')
	})
}

// deleteWebLink serves DELETE /web_links/{web_link_id}: 204, the web link
// goes to the trash.
func (s *Server) deleteWebLink(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	find := func(tx *state.Tx, id string) (*state.Item, *wire.Error) {
		return tx.LookupFor(p, "web_link", id, state.ActDelete)
	}
	return deleteRecord(s, w, r, "web_link_id", http.StatusNoContent, find, func(tx *state.Tx, wl *state.Item) *wire.Error {
		tx.TrashItem(wl, p.User)
		return nil
	})
}

// decodeOptionalJSON decodes a JSON body that may be absent (no bytes at
// all); a body that is present is decoded strictly (wire.DecodeJSON).
func decodeOptionalJSON(r *http.Request, v any) *wire.Error {
	br := bufio.NewReader(r.Body)
	if _, err := br.Peek(1); err == io.EOF {
		return nil
	}
	return wire.DecodeJSON(br, v)
}
