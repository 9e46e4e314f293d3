package cms

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Shared links live on the item services: a link is a property of a file,
// folder or web link, set with the item's own PUT (PUT /files/{file_id},
// PUT /folders/{folder_id}, PUT /web_links/{web_link_id}), so
// client.Files.SetSharedLink(ctx, fileID, ...) reads as what it does and
// needs no second service to find. The one call that starts from a link
// instead of an item, GET /shared_items, is SharedItemsService.

// SharedItemsService finds the item behind a shared link (GET /shared_items
// with the boxapi header): a file, a folder or a web link.
type SharedItemsService service

// SharedLinkPermissionsRequest sets what a shared link allows
// (shared_link.permissions). Nil fields are left out and keep their value;
// false is a change (cms.Ptr(false)).
type SharedLinkPermissionsRequest struct {
	// CanDownload lets the link download the item; only with access open
	// or company.
	CanDownload *bool `json:"can_download,omitempty"`
	// CanPreview lets the link preview the item (the service keeps it true).
	CanPreview *bool `json:"can_preview,omitempty"`
	// CanEdit lets the link edit a file: files only, with CanDownload true,
	// and only with access open or company.
	CanEdit *bool `json:"can_edit,omitempty"`
}

// check applies the service's rules for the permissions of a link with
// access: can_download and can_edit only with open or company (or the
// enterprise default, when access is left out); can_edit true only with
// can_download true.
func (p *SharedLinkPermissionsRequest) check(access SharedLinkAccess) error {
	if p == nil {
		return nil
	}
	on := func(b *bool) bool { return b != nil && *b }
	if access == SharedLinkAccessCollaborators && (on(p.CanDownload) || on(p.CanEdit)) {
		return invalidArg("shared link permissions", "can_download and can_edit need access open or company")
	}
	if on(p.CanEdit) && (p.CanDownload == nil || !*p.CanDownload) {
		return invalidArg("shared link permissions", "can_edit needs can_download true")
	}
	return nil
}

// checkFolderLink applies the rule of folder links besides validate: a
// folder link cannot be editable.
func checkFolderLink(l *SharedLinkRequest) error {
	if l.Permissions != nil && l.Permissions.CanEdit != nil && *l.Permissions.CanEdit {
		return invalidArg("shared link permissions", "can_edit is for files only")
	}
	return nil
}

// String describes the request with its password redacted, so that a
// logged or printed request never shows the secret.
func (l SharedLinkRequest) String() string {
	pw := "left out"
	switch {
	case l.Password.IsNull():
		pw = "null"
	case !l.Password.IsZero():
		pw = "REDACTED"
	}
	return fmt.Sprintf("SharedLinkRequest{Access:%q Password:%s VanityName:%q UnsharedAt:%v Permissions:%s}",
		l.Access, pw, l.VanityName, l.UnsharedAt, l.Permissions)
}

// String prints the permissions set, for example
// "{can_download:true can_edit:false}" ("<nil>" for none).
func (p *SharedLinkPermissionsRequest) String() string {
	if p == nil {
		return "<nil>"
	}
	var parts []string
	for _, f := range []struct {
		name string
		v    *bool
	}{{"can_download", p.CanDownload}, {"can_preview", p.CanPreview}, {"can_edit", p.CanEdit}} {
		if f.v != nil {
			parts = append(parts, fmt.Sprintf("%s:%t", f.name, *f.v))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// GoString is String, for %#v.
func (l SharedLinkRequest) GoString() string { return l.String() }

// sharedLinkFields asks an item's PUT or GET for its shared link only
// (?fields=shared_link), as the official SDKs' add/get/remove shared link
// calls do.
var sharedLinkFields = &FieldsOptions{Fields: []string{"shared_link"}}

// sharedLinkHolder is the part of the answer those calls read.
type sharedLinkHolder struct {
	SharedLink *SharedLink `json:"shared_link"`
}

// sharedLinkBody is the body of a link change: the link, or null (nil).
type sharedLinkBody struct {
	SharedLink *SharedLinkRequest `json:"shared_link"`
}

// getSharedLink reads the link of the item at path (nil when it has none).
func getSharedLink(ctx context.Context, c *Client, segments ...string) (*SharedLink, *Response, error) {
	h, resp, err := getAPI[sharedLinkHolder](ctx, c, sharedLinkFields, segments...)
	if err != nil {
		return nil, resp, err
	}
	return h.SharedLink, resp, nil
}

// putSharedLink sets the link of the item at path, or removes it (nil).
func putSharedLink(ctx context.Context, c *Client, link *SharedLinkRequest, segments ...string) (*SharedLink, *Response, error) {
	h, resp, err := callAPI[sharedLinkHolder](ctx, c, http.MethodPut, sharedLinkBody{link}, sharedLinkFields, segments...)
	if err != nil {
		return nil, resp, err
	}
	return h.SharedLink, resp, nil
}

// linkToSet checks a link to set; nil is the service's defaults ({}).
func linkToSet(link *SharedLinkRequest, folder bool) (*SharedLinkRequest, error) {
	if link == nil {
		return &SharedLinkRequest{}, nil
	}
	if err := link.validate(); err != nil {
		return nil, err
	}
	if folder {
		if err := checkFolderLink(link); err != nil {
			return nil, err
		}
	}
	return link, nil
}

// GetSharedLink returns the file's shared link, nil when it has none
// (GET /files/{file_id}?fields=shared_link).
func (s *FilesService) GetSharedLink(ctx context.Context, fileID string) (*SharedLink, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	return getSharedLink(ctx, s.client, "files", fileID)
}

// SetSharedLink creates or changes the file's shared link
// (PUT /files/{file_id}?fields=shared_link with {"shared_link": {...}});
// a nil link creates one with the enterprise's defaults. The password is
// never part of an error.
func (s *FilesService) SetSharedLink(ctx context.Context, fileID string, link *SharedLinkRequest) (*SharedLink, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	l, err := linkToSet(link, false)
	if err != nil {
		return nil, nil, err
	}
	return putSharedLink(ctx, s.client, l, "files", fileID)
}

// RemoveSharedLink removes the file's shared link
// (PUT /files/{file_id}?fields=shared_link with {"shared_link": null}).
func (s *FilesService) RemoveSharedLink(ctx context.Context, fileID string) (*Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, err
	}
	_, resp, err := putSharedLink(ctx, s.client, nil, "files", fileID)
	return resp, err
}

// GetSharedLink returns the folder's shared link, nil when it has none
// (GET /folders/{folder_id}?fields=shared_link).
func (s *FoldersService) GetSharedLink(ctx context.Context, folderID string) (*SharedLink, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	return getSharedLink(ctx, s.client, "folders", folderID)
}

// SetSharedLink creates or changes the folder's shared link
// (PUT /folders/{folder_id}?fields=shared_link); a nil link creates one
// with the enterprise's defaults. A folder link cannot be editable
// (CanEdit true is an *ArgError).
func (s *FoldersService) SetSharedLink(ctx context.Context, folderID string, link *SharedLinkRequest) (*SharedLink, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	l, err := linkToSet(link, true)
	if err != nil {
		return nil, nil, err
	}
	return putSharedLink(ctx, s.client, l, "folders", folderID)
}

// RemoveSharedLink removes the folder's shared link
// (PUT /folders/{folder_id}?fields=shared_link with {"shared_link": null}).
func (s *FoldersService) RemoveSharedLink(ctx context.Context, folderID string) (*Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, err
	}
	_, resp, err := putSharedLink(ctx, s.client, nil, "folders", folderID)
	return resp, err
}

// GetSharedLink returns the web link's shared link, nil when it has none
// (GET /web_links/{web_link_id}?fields=shared_link).
func (s *WebLinksService) GetSharedLink(ctx context.Context, webLinkID string) (*SharedLink, *Response, error) {
	if err := checkID("web link", webLinkID); err != nil {
		return nil, nil, err
	}
	return getSharedLink(ctx, s.client, "web_links", webLinkID)
}

// SetSharedLink creates or changes the web link's shared link
// (PUT /web_links/{web_link_id}?fields=shared_link); nil uses the
// enterprise's defaults. A web link's link cannot be editable.
func (s *WebLinksService) SetSharedLink(ctx context.Context, webLinkID string, link *SharedLinkRequest) (*SharedLink, *Response, error) {
	if err := checkID("web link", webLinkID); err != nil {
		return nil, nil, err
	}
	l, err := linkToSet(link, true)
	if err != nil {
		return nil, nil, err
	}
	return putSharedLink(ctx, s.client, l, "web_links", webLinkID)
}

// RemoveSharedLink removes the web link's shared link
// (PUT /web_links/{web_link_id}?fields=shared_link with {"shared_link": null}).
func (s *WebLinksService) RemoveSharedLink(ctx context.Context, webLinkID string) (*Response, error) {
	if err := checkID("web link", webLinkID); err != nil {
		return nil, err
	}
	_, resp, err := putSharedLink(ctx, s.client, nil, "web_links", webLinkID)
	return resp, err
}

// GetSharedItemOptions are the options of SharedItemsService.Get.
type GetSharedItemOptions struct {
	// Fields selects the fields returned (query fields), for example
	// shared_link_permission_options.
	Fields []string `url:"fields,comma,omitempty"`
	// Password is the link's password, when it has one (in the boxapi
	// header, shared_link_password). Never logged nor part of an error.
	Password string `url:"-"`
	// IfNoneMatch is the last etag seen (header if-none-match): when the
	// item is unchanged the call fails with an *APIError matching
	// ErrNotModified.
	IfNoneMatch string `url:"-"`
}

// sharedItemQuery is the query and headers of GET /shared_items.
type sharedItemQuery struct {
	*GetSharedItemOptions
	link string
}

// setHeaders sends the link in the boxapi header, and if-none-match.
func (q sharedItemQuery) setHeaders(h http.Header) error {
	return firstErr(setSharedLink(h, q.link, q.Password), setHeader(h, "If-None-Match", "if-none-match", q.IfNoneMatch))
}

// Get returns the file, folder or web link a shared link points to
// (GET /shared_items with the header
// boxapi: shared_link=<link>[&shared_link_password=<password>]); the
// answer's Type tells which, and Item.File, Item.Folder or Item.WebLink
// holds its record. A wrong or missing password fails with an *APIError
// matching ErrIncorrectSharedItemPassword (403), a removed or unknown link
// with ErrNotFound. Neither the link nor the password is part of an error.
func (s *SharedItemsService) Get(ctx context.Context, sharedLink string, opts *GetSharedItemOptions) (*Item, *Response, error) {
	if sharedLink == "" {
		return nil, nil, invalidArg("shared link", "empty")
	}
	if opts == nil {
		opts = &GetSharedItemOptions{}
	}
	return getAPI[Item](ctx, s.client, sharedItemQuery{opts, sharedLink}, "shared_items")
}
