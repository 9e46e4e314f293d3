package state

import (
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Web links are bookmarks stored in folders: items of type "web_link" in
// s.Items beside files and folders, so that listings, name clashes (one
// name per folder across files, folders and web links) and the trash treat
// them alike.

// SharedLink is the shared link of an item: a file, a folder or a web link
// (items_update.go, and UpdateWebLink here).
type SharedLink struct {
	Token, Access, Password, VanityName string
	UnsharedAt                          time.Time
	// permissions.can_download and can_edit as set (nil: the default —
	// downloads allowed unless access is collaborators, no editing).
	CanDownload, CanEdit *bool
}

// Downloads reports whether the link lets its users download.
func (l *SharedLink) Downloads() bool {
	if l.CanDownload != nil {
		return *l.CanDownload
	}
	return l.Access != "collaborators"
}

// addWebLinkFields completes the standard record of a web link (WebLink).
func (s *Tx) addWebLinkFields(m map[string]any, it *Item) {
	m["created_by"] = it.CreatedBy.Mini()
	m["modified_by"] = it.ModBy.Mini()
	m["owned_by"] = it.Owner.Mini()
	m["parent"] = s.parentMini(it)
	m["shared_link"] = nil
	if it.Link() != nil && !it.Trashed() {
		m["shared_link"] = s.sharedLinkRecord(it)
	}
}

// sharedLinkRecord is the shared_link object of it's record: its
// effective_permission is the more restrictive of the link's permissions
// and the item's (a file that only the enterprise downloads, a lock that
// prevents downloads), and a file whose link lets its holders download has
// a download_url (sharedStaticURL); a folder's and a web link's is null.
func (s *Tx) sharedLinkRecord(it *Item) map[string]any {
	l := it.Link()
	perm := s.linkPermission(it)
	rec := map[string]any{
		"url": sharedLinkBase + "/s/" + l.Token, "download_url": nil,
		"vanity_url": nil, "vanity_name": nil,
		"access": l.Access, "effective_access": l.Access, "effective_permission": perm,
		"unshared_at": FmtTime(l.UnsharedAt), "is_password_enabled": l.Password != "",
		"permissions":    map[string]any{"can_download": l.Downloads(), "can_preview": true, "can_edit": l.CanEdit != nil && *l.CanEdit},
		"download_count": 0, "preview_count": 0,
	}
	if it.Typ == "file" && perm != "can_preview" {
		rec["download_url"] = s.sharedStaticURL(it)
	}
	if l.VanityName != "" {
		rec["vanity_name"] = l.VanityName
		rec["vanity_url"] = sharedLinkBase + "/v/" + l.VanityName
	}
	return rec
}

// linkPermission is the effective_permission of it's shared link:
// can_edit (a file's link with can_edit), can_download or can_preview.
func (s *ReadTx) linkPermission(it *Item) string {
	l := it.Link()
	if it.Typ == "web_link" || !l.Downloads() || it.CompanyDownloads && l.Access == "open" {
		return "can_preview"
	}
	if it.Typ == "file" {
		if lk := s.activeLock(it); lk != nil && lk.DownloadPrevented {
			return "can_preview"
		}
		if l.CanEdit != nil && *l.CanEdit {
			return "can_edit"
		}
	}
	return "can_download"
}

// CreateWebLinkBody is the body of POST /web_links.
type CreateWebLinkBody struct {
	URL    *string `json:"url"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// CreateWebLink serves POST /web_links (refserver's createWebLink): a
// new web link named name (desc: its description) in the parent p may
// upload into, 409 for a name taken; 200 (as the service answers) with its
// record.
func (s *Tx) CreateWebLink(p *Principal, body CreateWebLinkBody, name string, desc string, fields []string) (Reply, *wire.Error) {
	parent, aerr := s.ParentFolder(p, *body.Parent.ID)
	if aerr != nil {
		return Reply{}, aerr
	}
	if c := s.Conflict(*body.Parent.ID, OwnerIn(p, parent), name, nil); c != nil {
		return Reply{}, s.ErrNameInUse(c)
	}
	now := s.NowSec()
	wl := &Item{
		Typ: "web_link", ID: s.NewID(), Name: name, ParentID: *body.Parent.ID,
		Owner: OwnerIn(p, parent), CreatedBy: p.User, ModBy: p.User,
		CreatedAt: now, ModifiedAt: now,
	}
	wl.SetURL(*body.URL)
	wl.SetDescription(desc)
	s.AddItem(wl)
	if parent != nil {
		s.touchItem(parent, now, nil)
	}
	return Reply{wire.StatusOK, s.Render(wl, fields, p)}, nil
}

// CheckDescription applies the 256-character limit of item descriptions.
func CheckDescription(d string) *wire.Error {
	if utf8.RuneCountInString(d) > 256 {
		return wire.BadRequest("Invalid value for description: at most 256 characters")
	}
	return nil
}

// UpdateWebLinkBody is the body of PUT /web_links/{web_link_id}. Only
// shared_link takes null (remove the link, spec remove_shared_link); null
// elsewhere is 400 bad_request (wire.DecodeJSONObject). SharedLink stays raw
// until parseSharedLink checks its members.
type UpdateWebLinkBody struct {
	URL    *string `json:"url"`
	Parent *struct {
		ID     *string `json:"id"`
		UserID *string `json:"user_id"`
	} `json:"parent"`
	Name        *string                        `json:"name"`
	Description *string                        `json:"description"`
	SharedLink  wire.Nullable[json.RawMessage] `json:"shared_link"`
	Collections *[]json.RawMessage             `json:"collections"`
}

// UpdateWebLink serves PUT /web_links/{web_link_id} (updateWebLink): the
// web link's parent (a move), name, url, description and shared link
// (removeLink removes it, link merges into it), for who may edit it; 409
// for a name taken.
func (s *Tx) UpdateWebLink(p *Principal, id string, body UpdateWebLinkBody, now time.Time, removeLink bool, link *SharedLinkUpdate, fields []string) (Reply, *wire.Error) {
	wl, aerr := s.Lookup(p, "web_link", id)
	if aerr != nil {
		return Reply{}, aerr
	}
	moves := body.Parent != nil && MovesTo(p, wl, *body.Parent.ID)
	// Favorites alone (collections) need only to see the link (collections.go).
	edits := body.URL != nil || body.Name != nil || body.Description != nil || !moves && !body.SharedLink.Present && body.Collections == nil
	if edits && !s.Can(p, wl, ActEdit) || moves && !s.Can(p, wl, actMove) {
		return Reply{}, ErrDenied("web_link")
	}
	setCollections, aerr := s.applyCollections(p, body.Collections)
	if aerr != nil {
		return Reply{}, aerr
	}
	link, readOnly, aerr := s.checkSharedLink(p, wl, removeLink, link)
	if aerr != nil {
		return Reply{}, aerr
	}
	if readOnly && !edits && !moves && body.Collections == nil {
		return Reply{wire.StatusOK, s.Render(wl, fields, p)}, nil // the current link, read
	}
	target, owner := wl.ParentID, wl.Owner
	moving := moves
	if moving {
		target = *body.Parent.ID
		parent, aerr := s.ParentFolder(p, target)
		if aerr != nil {
			return Reply{}, aerr
		}
		owner = OwnerIn(p, parent)
	}
	name := wl.Name
	if body.Name != nil {
		name = *body.Name
	}
	if moving || name != wl.Name {
		if c := s.Conflict(target, owner, name, wl); c != nil {
			return Reply{}, s.ErrNameInUse(c)
		}
	}
	if moving {
		if old, ok := s.Items.Get("folder", wl.ParentID); ok {
			s.touchItem(old, now, nil)
		}
		if parent, ok := s.Items.Get("folder", target); ok {
			s.touchItem(parent, now, nil)
		}
	}
	hadLink := wl.Link() != nil
	s.Items.Update(wl.Typ, wl.ID, func(wl *Item) {
		wl.ParentID, wl.Owner, wl.Name = target, owner, name
		if body.URL != nil {
			wl.SetURL(*body.URL)
		}
		if body.Description != nil {
			wl.SetDescription(*body.Description)
		}
		switch {
		case removeLink:
			wl.SetLink(nil)
		case link != nil:
			wl.SetLink(link.Merge(wl.Link()))
		}
		setCollections(wl)
		wl.touch(now, p.User)
	})
	s.sharedLinkEvent(wl, p.User, hadLink, removeLink, link != nil)
	return Reply{wire.StatusOK, s.Render(wl, fields, p)}, nil
}

// SharedLinkUpdate is a parsed shared_link of an update: nil fields keep
// the current value.
type SharedLinkUpdate struct {
	Access, VanityName   *string
	Password             *string // "" removes it
	UnsharedAt           *time.Time
	CanDownload, CanEdit *bool
}

// Merge applies the update to the current link (nil = none yet).
func (u *SharedLinkUpdate) Merge(cur *SharedLink) *SharedLink {
	l := &SharedLink{Token: RandomHex(16), Access: "open"}
	if cur != nil {
		c := *cur
		l = &c
	}
	if u.Access != nil {
		l.Access = *u.Access
	}
	if u.VanityName != nil {
		l.VanityName = *u.VanityName
	}
	if u.Password != nil {
		l.Password = *u.Password
	}
	if u.UnsharedAt != nil {
		l.UnsharedAt = *u.UnsharedAt
	}
	if u.CanDownload != nil {
		l.CanDownload = u.CanDownload
	}
	if u.CanEdit != nil {
		l.CanEdit = u.CanEdit
	}
	return l
}
