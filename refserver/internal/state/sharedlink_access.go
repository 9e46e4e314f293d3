package state

import (
	"crypto/subtle"
	"path"
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

// CodeIncorrectSharedItemPassword is the common errors guide's code for a
// shared link password that is wrong or missing (403).
const CodeIncorrectSharedItemPassword = "incorrect_shared_item_password"

// BoxapiLink is the shared link a boxapi header names.
type BoxapiLink struct {
	URL, Password string
	// The values percent-decoded: the classic box-node-sdk encodes them
	// (buildSharedItemAuthHeader), the newer SDKs send them raw; either
	// form is taken.
	URLDecoded, PasswordDecoded string
}

// sharedLinkURLs are the URLs that name l: its url and its vanity_url.
func sharedLinkURLs(l *SharedLink) []string {
	urls := []string{sharedLinkBase + "/s/" + l.Token}
	if l.VanityName != "" {
		urls = append(urls, sharedLinkBase+"/v/"+l.VanityName)
	}
	return urls
}

// sharedLinkBase is the host of the shared link URLs this server hands out.
const sharedLinkBase = "https://app.cms.test"

// SharedLinkItem returns the item whose shared link b names, for p (rules
// above).
func (s *Tx) SharedLinkItem(p *Principal, b BoxapiLink) (*Item, *wire.Error) {
	var it *Item
	for _, x := range s.Items.All() {
		l := x.Link()
		if l == nil || s.InTrash(x) || !l.UnsharedAt.IsZero() && !s.Now().Before(l.UnsharedAt) {
			continue
		}
		for _, u := range sharedLinkURLs(l) {
			if u == b.URL || u == b.URLDecoded {
				it = x
			}
		}
	}
	if it == nil {
		return nil, wire.NotFound("shared item")
	}
	l := it.Link()
	if l.Password != "" && subtle.ConstantTimeCompare([]byte(l.Password), []byte(b.Password)) != 1 &&
		subtle.ConstantTimeCompare([]byte(l.Password), []byte(b.PasswordDecoded)) != 1 {
		return nil, wire.Errorf(wire.StatusForbidden, CodeIncorrectSharedItemPassword, "The shared link needs a password, and the one given is wrong or missing")
	}
	inEnterprise := p.User != nil && s.EnterpriseUser(p.User.ID) != nil
	if s.visible(p, it) || l.Access == "open" || l.Access == "company" && inEnterprise {
		return it, nil
	}
	return nil, wire.NotFound("shared item")
}

// The download_url of a file's shared link (Box's
// https://app.box.com/shared/static/<token>.<extension>, "used in a browser
// to download the file") is {content host}/shared/static/<token><.ext>.
// The content host has no caller: it serves a link that lets anyone
// download (access open, no password, effective permission can_download
// or can_edit) by a redirect to a signed download URL; a link that needs a
// signed-in caller or a password (company, collaborators, a password) is
// 403 access_denied_insufficient_permissions there, and a link that is
// unknown, removed, expired or whose file is in the trash 404 not_found.

// sharedStaticPath is the path of the download_url of a file's link.
const sharedStaticPath = "/shared/static/"

// sharedStaticURL is the download_url of the shared link of file it.
func (s *Tx) sharedStaticURL(it *Item) string {
	return s.DownloadURL + sharedStaticPath + it.Link().Token + path.Ext(it.Name)
}

// SharedStaticDownload serves GET {content host}/shared/static/{name}: the
// file and current version the link of token name (an extension after
// the token is ignored) lets anyone download (rules above).
func (s *ReadTx) SharedStaticDownload(name string) (*Item, *Version, *wire.Error) {
	token, _, _ := strings.Cut(name, ".")
	for _, it := range s.Items.All() {
		l := it.Link()
		if l == nil || it.Typ != "file" || subtle.ConstantTimeCompare([]byte(l.Token), []byte(token)) != 1 {
			continue
		}
		if s.InTrash(it) || !l.UnsharedAt.IsZero() && !s.Now().Before(l.UnsharedAt) {
			break
		}
		if l.Access != "open" || l.Password != "" || s.linkPermission(it) == "can_preview" {
			return nil, nil, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "This shared link does not let anyone download the file without signing in")
		}
		return it, it.Current(), nil
	}
	return nil, nil, wire.NotFound("shared item")
}
