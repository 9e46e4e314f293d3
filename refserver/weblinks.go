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

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Web links are bookmarks stored in folders: items of type "web_link" in
// s.items beside files and folders, so that listings, name clashes (one
// name per folder across files, folders and web links) and the trash treat
// them alike.

// sharedLink is the shared link of an item (web links only, for now).
type sharedLink struct {
	token, access, password, vanityName string
	unsharedAt                          time.Time
	// permissions.can_download and can_edit as set (nil: the default —
	// downloads allowed with access open or company, no editing).
	canDownload, canEdit *bool
}

// downloads reports whether the link lets its users download.
func (l *sharedLink) downloads() bool {
	if l.canDownload != nil {
		return *l.canDownload
	}
	return l.access != "collaborators"
}

// addWebLinkFields completes the standard record of a web link (WebLink).
func (s *state) addWebLinkFields(m map[string]any, it *item) {
	m["created_by"] = it.createdBy.mini()
	m["modified_by"] = it.modBy.mini()
	m["owned_by"] = it.owner.mini()
	m["parent"] = s.parentMini(it)
	m["shared_link"] = nil
	if it.link != nil && !it.trashed() {
		m["shared_link"] = s.sharedLinkRecord(it.link)
	}
}

// sharedLinkRecord is the shared_link object of a record.
func (s *state) sharedLinkRecord(l *sharedLink) map[string]any {
	rec := map[string]any{
		"url": sharedLinkBase + "/s/" + l.token, "download_url": nil,
		"vanity_url": nil, "vanity_name": nil,
		"access": l.access, "effective_access": l.access, "effective_permission": "can_preview",
		"unshared_at": fmtTime(l.unsharedAt), "is_password_enabled": l.password != "",
		"permissions":    map[string]any{"can_download": l.downloads(), "can_preview": true, "can_edit": l.canEdit != nil && *l.canEdit},
		"download_count": 0, "preview_count": 0,
	}
	if l.vanityName != "" {
		rec["vanity_name"] = l.vanityName
		rec["vanity_url"] = sharedLinkBase + "/v/" + l.vanityName
	}
	return rec
}

// webLinkID reads {web_link_id}; a malformed id is 404.
func webLinkID(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("web_link_id")
	if !validID(id) || id == rootID {
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
	return checkName(strings.NewReplacer("/", "_", `\`, "_").Replace(name))
}

// createWebLinkBody is the body of POST /web_links.
type createWebLinkBody struct {
	URL    *string `json:"url"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// createWebLink serves POST /web_links: 200 (not 201, per the spec) WebLink.
func (s *Server) createWebLink(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body createWebLinkBody
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
	if aerr := checkDescription(desc); aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.createWebLinkTx(p, body, name, desc, fields)
	})
}

// createWebLinkTx is the transaction of POST /web_links (createWebLink): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) createWebLinkTx(p *principal, body createWebLinkBody, name string, desc string, fields []string) (reply, *wire.Error) {
	parent, aerr := s.parentFolder(p, *body.Parent.ID)
	if aerr != nil {
		return reply{}, aerr
	}
	if c := s.conflict(*body.Parent.ID, ownerIn(p, parent), name, nil); c != nil {
		return reply{}, s.errNameInUse(c)
	}
	now := s.nowSec()
	wl := &item{
		typ: "web_link", id: s.newID(), name: name, parentID: *body.Parent.ID, url: *body.URL,
		description: desc, owner: ownerIn(p, parent), createdBy: p.user, modBy: p.user,
		createdAt: now, modifiedAt: now,
	}
	s.addItem(wl)
	if parent != nil {
		parent.touch(now, nil)
	}
	s.dirtyItem(wl, parent)
	return reply{http.StatusOK, s.render(wl, fields, p)}, nil
}

// checkDescription applies the 256-character limit of item descriptions.
func checkDescription(d string) *wire.Error {
	if utf8.RuneCountInString(d) > 256 {
		return wire.BadRequest("Invalid value for description: at most 256 characters")
	}
	return nil
}

// getWebLink serves GET /web_links/{web_link_id}: 200 WebLink. With a
// boxapi header the link is read through its shared link
// (sharedlink_access.go).
func (s *Server) getWebLink(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := webLinkID(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		wl, aerr := s.lookupVia(r, p, "web_link", id, actSee) // boxapi: sharedlink_access.go
		if aerr != nil {
			return reply{}, aerr
		}
		return reply{http.StatusOK, s.render(wl, fields, p)}, nil
	})
}

// updateWebLinkBody is the body of PUT /web_links/{web_link_id}. Only
// shared_link takes null (remove the link, spec remove_shared_link); null
// elsewhere is 400 bad_request (wire.DecodeJSONObject). SharedLink stays raw
// until parseSharedLink checks its members.
type updateWebLinkBody struct {
	URL    *string `json:"url"`
	Parent *struct {
		ID     *string `json:"id"`
		UserID *string `json:"user_id"`
	} `json:"parent"`
	Name        *string                        `json:"name"`
	Description *string                        `json:"description"`
	SharedLink  wire.Nullable[json.RawMessage] `json:"shared_link"`
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
func (s *Server) updateWebLink(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := webLinkID(r)
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body updateWebLinkBody
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
		if aerr := checkDescription(*body.Description); aerr != nil {
			return aerr
		}
	}
	if body.Parent != nil && (body.Parent.ID == nil || *body.Parent.ID == "") {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if body.Parent != nil && body.Parent.UserID != nil && *body.Parent.ID != rootID {
		return wire.BadRequest("parent.user_id needs parent.id \"0\"")
	}
	now := s.nowSec()
	link, removeLink, aerr := parseSharedLink(body.SharedLink, now)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	return s.change(w, func() (reply, *wire.Error) {
		return s.updateWebLinkTx(p, id, body, now, removeLink, link, fields)
	})
}

// updateWebLinkTx is the transaction of PUT /web_links/{web_link_id}
// (updateWebLink): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) updateWebLinkTx(p *principal, id string, body updateWebLinkBody, now time.Time, removeLink bool, link *sharedLinkUpdate, fields []string) (reply, *wire.Error) {
	wl, aerr := s.lookupFor(p, "web_link", id, actEdit)
	if aerr != nil {
		return reply{}, aerr
	}
	target, owner := wl.parentID, wl.owner
	if body.Parent != nil && *body.Parent.ID != wl.parentID {
		target = *body.Parent.ID
		parent, aerr := s.parentFolder(p, target)
		if aerr != nil {
			return reply{}, aerr
		}
		owner = ownerIn(p, parent)
	}
	name := wl.name
	if body.Name != nil {
		name = *body.Name
	}
	if target != wl.parentID || name != wl.name {
		if c := s.conflict(target, owner, name, wl); c != nil {
			return reply{}, s.errNameInUse(c)
		}
	}
	if target != wl.parentID {
		if old, ok := s.items[wl.parentID]; ok {
			old.touch(now, nil)
			s.dirtyItem(old)
		}
		if parent, ok := s.items[target]; ok {
			parent.touch(now, nil)
			s.dirtyItem(parent)
		}
	}
	wl.parentID, wl.owner, wl.name = target, owner, name
	if body.URL != nil {
		wl.url = *body.URL
	}
	if body.Description != nil {
		wl.description = *body.Description
	}
	switch {
	case removeLink:
		wl.link = nil
	case link != nil:
		wl.link = link.merge(wl.link)
	}
	wl.touch(now, p.user)
	s.dirtyItem(wl)
	return reply{http.StatusOK, s.render(wl, fields, p)}, nil
}

// sharedLinkUpdate is a parsed shared_link of an update: nil fields keep
// the current value.
type sharedLinkUpdate struct {
	access, vanityName   *string
	password             *string // "" removes it
	unsharedAt           *time.Time
	canDownload, canEdit *bool
}

// merge applies the update to the current link (nil = none yet).
func (u *sharedLinkUpdate) merge(cur *sharedLink) *sharedLink {
	l := &sharedLink{token: randomHex(16), access: "open"}
	if cur != nil {
		c := *cur
		l = &c
	}
	if u.access != nil {
		l.access = *u.access
	}
	if u.vanityName != nil {
		l.vanityName = *u.vanityName
	}
	if u.password != nil {
		l.password = *u.password
	}
	if u.unsharedAt != nil {
		l.unsharedAt = *u.unsharedAt
	}
	if u.canDownload != nil {
		l.canDownload = u.canDownload
	}
	if u.canEdit != nil {
		l.canEdit = u.canEdit
	}
	return l
}

// parseSharedLink checks the shared_link of an update: null removes the
// link; an object sets it. access is open, company or collaborators; a
// password (at least 8 characters with a digit, an upper-case letter or a
// symbol) needs access open; vanity_name has at least 12 characters;
// unshared_at is a future date-time. 400 bad_request otherwise.
func parseSharedLink(raw wire.Nullable[json.RawMessage], now time.Time) (*sharedLinkUpdate, bool, *wire.Error) {
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
	u := &sharedLinkUpdate{access: b.Access, vanityName: b.VanityName}
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
		u.password = &pw
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
		u.canDownload, u.canEdit = perm.CanDownload, perm.CanEdit
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
		u.unsharedAt = &t
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
func (s *Server) deleteWebLink(w http.ResponseWriter, r *http.Request, p *principal) error {
	find := func(id string) (*item, *wire.Error) { return s.lookupFor(p, "web_link", id, actDelete) }
	return deleteRecord(s, w, r, "web_link_id", http.StatusNoContent, find, func(wl *item) *wire.Error {
		s.trashItem(wl, p.user)
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
