package cms

import (
	"context"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// WebLinksService handles web links (/web_links): bookmarks to a URL kept in
// a folder beside files and folders. They are listed with the folder's items
// (Item.WebLink), share one name space per folder with files and folders,
// and go to the trash when deleted.
type WebLinksService service

// SharedLinkAccess is who may use a shared link.
type SharedLinkAccess string

// Shared link access levels.
const (
	SharedLinkAccessOpen          SharedLinkAccess = "open"
	SharedLinkAccessCompany       SharedLinkAccess = "company"
	SharedLinkAccessCollaborators SharedLinkAccess = "collaborators"
)

// CreateWebLinkRequest is the body of WebLinksService.Create.
type CreateWebLinkRequest struct {
	// URL is the address the link points to; it must start with http://
	// or https://.
	URL string `json:"url"`
	// Parent is the folder to create the link in ("0" is the root).
	Parent FolderRef `json:"parent"`
	// Name is the link's name; the service uses the URL when it is empty.
	Name string `json:"name,omitzero"`
	// Description describes the link.
	Description string `json:"description,omitzero"`
}

// checkWebLinkURL applies the service's rule before sending: the URL starts
// with http:// or https://.
func checkWebLinkURL(u string) error {
	l := strings.ToLower(u)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return invalidArg("url", "must start with http:// or https://")
	}
	return nil
}

// Create creates a web link (POST /web_links; the service answers 200). A
// name already taken in the folder by a file, folder or web link fails with
// an *APIError matching ErrConflict whose Conflicts names that item.
func (s *WebLinksService) Create(ctx context.Context, body *CreateWebLinkRequest, opts *FieldsOptions) (*WebLink, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkWebLinkURL(body.URL); err != nil {
		return nil, nil, err
	}
	if err := checkID("parent folder", body.Parent.ID); err != nil {
		return nil, nil, err
	}
	return callAPI[WebLink](ctx, s.client, http.MethodPost, body, opts, "web_links")
}

// GetWebLinkOptions are the options of WebLinksService.Get.
type GetWebLinkOptions struct {
	// Fields selects the fields returned (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// SharedLink and SharedLinkPassword access the link through a shared
	// link (header boxapi). Never logged.
	SharedLink         string `url:"-"`
	SharedLinkPassword string `url:"-"`
}

// setHeaders sends the shared link in the boxapi header.
func (o *GetWebLinkOptions) setHeaders(h http.Header) error {
	return setSharedLink(h, o.SharedLink, o.SharedLinkPassword)
}

// Get fetches a web link (GET /web_links/{web_link_id}). A web link in the
// trash is not found: see TrashService.GetWebLink.
func (s *WebLinksService) Get(ctx context.Context, webLinkID string, opts *GetWebLinkOptions) (*WebLink, *Response, error) {
	if err := checkID("web link", webLinkID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &GetWebLinkOptions{}
	}
	return getAPI[WebLink](ctx, s.client, opts, "web_links", webLinkID)
}

// SharedLinkRequest sets an item's shared link. Zero fields keep what the
// link has (or the service's defaults for a new link).
type SharedLinkRequest struct {
	// Access is who may use the link.
	Access SharedLinkAccess `json:"access,omitzero"`
	// Password protects the link (at least 8 characters with a digit, an
	// upper-case letter or a symbol; needs Access open); Null removes it.
	Password Nullable[string] `json:"password,omitzero"`
	// VanityName gives the link a custom URL (at least 12 characters).
	VanityName string `json:"vanity_name,omitzero"`
	// UnsharedAt is when the link stops working (a future time).
	UnsharedAt time.Time `json:"unshared_at,omitzero"`
	// Permissions sets what the link allows (shared_links.go).
	Permissions *SharedLinkPermissionsRequest `json:"permissions,omitzero"`
}

// Shared link rules of the service.
const (
	minSharedLinkPassword = 8
	minVanityName         = 12
)

// validate applies the service's rules for a shared link: a known access
// level; a password of at least 8 characters with a digit, an upper-case
// letter or a symbol, only with access open; a vanity name of at least 12
// characters.
func (l *SharedLinkRequest) validate() error {
	if err := checkEnum("shared link access", l.Access, SharedLinkAccessOpen, SharedLinkAccessCompany, SharedLinkAccessCollaborators); err != nil {
		return err
	}
	if pw, ok := l.Password.Get(); ok {
		notLower := func(r rune) bool { return !unicode.IsLower(r) }
		if utf8.RuneCountInString(pw) < minSharedLinkPassword || !strings.ContainsFunc(pw, notLower) {
			return invalidArg("shared link password", "at least 8 characters with a digit, an upper-case letter or a symbol")
		}
		if l.Access != "" && l.Access != SharedLinkAccessOpen {
			return invalidArg("shared link password", "only a link with access open takes a password")
		}
	}
	if l.VanityName != "" && utf8.RuneCountInString(l.VanityName) < minVanityName {
		return invalidArg("shared link vanity_name", "shorter than 12 characters")
	}
	return l.Permissions.check(l.Access)
}

// UpdateWebLinkRequest is the body of WebLinksService.Update. Zero (nil)
// fields are left out and keep their value; SharedLink is the one field
// where an explicit null means something (remove the link).
type UpdateWebLinkRequest struct {
	// URL changes the address (http:// or https://).
	URL string `json:"url,omitzero"`
	// Name renames the link.
	Name string `json:"name,omitzero"`
	// Description changes the description; a pointer to "" (cms.Ptr(""))
	// clears it.
	Description *string `json:"description,omitempty"`
	// Parent moves the link to another folder.
	Parent *FolderRef `json:"parent,omitzero"`
	// SharedLink sets the shared link (Set) or removes it (Null).
	SharedLink Nullable[SharedLinkRequest] `json:"shared_link,omitzero"`
}

// Update changes a web link (PUT /web_links/{web_link_id}): its URL, name,
// description, folder (a move) and shared link. A name taken in the
// destination fails with an *APIError matching ErrConflict.
func (s *WebLinksService) Update(ctx context.Context, webLinkID string, body *UpdateWebLinkRequest, opts *FieldsOptions) (*WebLink, *Response, error) {
	if err := checkID("web link", webLinkID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if body.URL != "" {
		if err := checkWebLinkURL(body.URL); err != nil {
			return nil, nil, err
		}
	}
	if body.Parent != nil {
		if err := checkID("parent folder", body.Parent.ID); err != nil {
			return nil, nil, err
		}
	}
	if l, ok := body.SharedLink.Get(); ok {
		if err := l.validate(); err != nil {
			return nil, nil, err
		}
	}
	return callAPI[WebLink](ctx, s.client, http.MethodPut, body, opts, "web_links", webLinkID)
}

// Delete moves a web link to the trash (DELETE /web_links/{web_link_id}).
// Restore brings it back; TrashService.PurgeWebLink deletes it for good.
func (s *WebLinksService) Delete(ctx context.Context, webLinkID string) (*Response, error) {
	if err := checkID("web link", webLinkID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "web_links", webLinkID)
}

// Restore takes a web link out of the trash (POST /web_links/{web_link_id});
// body may be nil. It calls TrashService.RestoreWebLink, the one
// implementation of the endpoint, and is here beside Delete to be found.
func (s *WebLinksService) Restore(ctx context.Context, webLinkID string, body *RestoreRequest, opts *FieldsOptions) (*WebLink, *Response, error) {
	return s.client.Trash.RestoreWebLink(ctx, webLinkID, body, opts)
}
