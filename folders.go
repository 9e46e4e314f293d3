package cms

import (
	"context"
	"iter"
	"net/http"
)

// FoldersService handles folders: /folders and /folders/{id}/items.
type FoldersService service

// CreateFolderRequest is the body of FoldersService.Create.
type CreateFolderRequest struct {
	// Name is the new folder's name (1 to 255 characters; no "/", "\",
	// trailing spaces, "." or "..").
	Name string `json:"name"`
	// Parent is the folder to create it in ("0" is the root).
	Parent FolderRef `json:"parent"`
	// FolderUploadEmail turns on upload by e-mail.
	FolderUploadEmail *FolderUploadEmailAccess `json:"folder_upload_email,omitzero"`
	// SyncState is synced, not_synced or partially_synced.
	SyncState FolderSyncState `json:"sync_state,omitzero"`
}

// FolderRef names a folder by id in a request body.
type FolderRef struct {
	ID string `json:"id"`
}

// FolderUploadEmailAccess says who may upload to a folder by e-mail: open or
// collaborators.
type FolderUploadEmailAccess struct {
	Access UploadEmailAccess `json:"access"`
}

// UploadEmailAccess is who may upload to a folder by e-mail
// (folder_upload_email.access).
type UploadEmailAccess string

// Who may upload by e-mail.
const (
	UploadEmailAccessOpen          UploadEmailAccess = "open"
	UploadEmailAccessCollaborators UploadEmailAccess = "collaborators"
)

// FolderItemsSort is the sort key of a folder listing (query sort); items
// stay grouped by type.
type FolderItemsSort string

// Sort keys of a folder listing.
const (
	FolderItemsSortID   FolderItemsSort = "id"
	FolderItemsSortName FolderItemsSort = "name"
	FolderItemsSortDate FolderItemsSort = "date"
	FolderItemsSortSize FolderItemsSort = "size"
)

// Create creates a folder (POST /folders). A name already taken in the
// parent fails with an *APIError matching ErrConflict.
func (s *FoldersService) Create(ctx context.Context, body *CreateFolderRequest, opts *FieldsOptions) (*Folder, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if body.Name == "" {
		return nil, nil, invalidArg("name", "empty")
	}
	if err := checkID("parent folder", body.Parent.ID); err != nil {
		return nil, nil, err
	}
	if err := checkEnum("sync state", body.SyncState, FolderSyncStateSynced, FolderSyncStateNotSynced, FolderSyncStatePartiallySynced); err != nil {
		return nil, nil, err
	}
	if e := body.FolderUploadEmail; e != nil {
		if err := checkEnum("folder upload email access", e.Access, UploadEmailAccessOpen, UploadEmailAccessCollaborators); err != nil {
			return nil, nil, err
		}
	}
	return callAPI[Folder](ctx, s.client, http.MethodPost, body, opts, "folders")
}

// GetFolderOptions are the options of FoldersService.Get.
type GetFolderOptions struct {
	// Fields selects the fields returned (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Sort, Direction, Offset and Limit shape the item_collection returned
	// with the folder (queries sort, direction, offset, limit).
	Sort      FolderItemsSort `url:"sort,omitempty"`
	Direction SortDirection   `url:"direction,omitempty"`
	Offset    int             `url:"offset,omitempty"`
	Limit     int             `url:"limit,omitempty"`
	// IfNoneMatch is the last etag seen (header if-none-match): when the
	// folder is unchanged the call fails with an *APIError matching
	// ErrNotModified.
	IfNoneMatch string `url:"-"`
	// SharedLink and SharedLinkPassword access the folder through a shared
	// link (header boxapi). Never logged.
	SharedLink         string `url:"-"`
	SharedLinkPassword string `url:"-"`
}

// Get fetches a folder, with its first items (GET /folders/{folder_id}).
func (s *FoldersService) Get(ctx context.Context, folderID string, opts *GetFolderOptions) (*Folder, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &GetFolderOptions{}
	}
	return getAPI[Folder](ctx, s.client, opts, "folders", folderID)
}

// DeleteFolderOptions are the options of FoldersService.Delete.
type DeleteFolderOptions struct {
	// Recursive deletes a folder that is not empty (query recursive);
	// without it such a folder fails with 400 folder_not_empty.
	Recursive bool `url:"recursive,omitempty"`
	// IfMatch is the etag the folder must still have (header if-match).
	IfMatch string `url:"-"`
}

// setHeaders sends the conditional and shared-link headers of a get.
func (o *GetFolderOptions) setHeaders(h http.Header) error {
	if err := setHeader(h, "If-None-Match", "if-none-match", o.IfNoneMatch); err != nil {
		return err
	}
	return setSharedLink(h, o.SharedLink, o.SharedLinkPassword)
}

// setHeaders sends the if-match header of a delete.
func (o *DeleteFolderOptions) setHeaders(h http.Header) error {
	return setHeader(h, "If-Match", "if-match", o.IfMatch)
}

// Delete moves a folder to the trash (DELETE /folders/{folder_id}).
func (s *FoldersService) Delete(ctx context.Context, folderID string, opts *DeleteFolderOptions) (*Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &DeleteFolderOptions{}
	}
	return deleteAPI(ctx, s.client, opts, "folders", folderID)
}

// ListItemsOptions are the options of the offset-paged FoldersService.ListItems.
type ListItemsOptions struct {
	// Fields selects the fields of each item (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Offset is the position of the first item (query offset).
	Offset int `url:"offset,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
	// Sort is id, name, date or size (query sort); items stay grouped by type.
	Sort FolderItemsSort `url:"sort,omitempty"`
	// Direction is ASC or DESC (query direction).
	Direction SortDirection `url:"direction,omitempty"`
	// SharedLink and SharedLinkPassword access the folder through a shared
	// link (header boxapi). Never logged.
	SharedLink         string `url:"-"`
	SharedLinkPassword string `url:"-"`
	// ReadAhead makes ListItemsIter fetch the next page while the loop
	// ranges over the current one: at most one page ahead, and a break or
	// an error cancels the fetch in flight. Page methods and paginators
	// ignore it.
	ReadAhead bool `url:"-"`
}

// ListItems returns one page of a folder's items, offset-paged
// (GET /folders/{folder_id}/items).
func (s *FoldersService) ListItems(ctx context.Context, folderID string, opts *ListItemsOptions) (*OffsetPage[*Item], *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListItemsOptions{}
	}
	if opts.Offset < 0 || opts.Limit < 0 {
		return nil, nil, invalidArg("offset/limit", "negative")
	}
	r, err := s.client.newRequest(http.MethodGet, s.client.cfg.baseURL, opts, "folders", folderID, "items")
	if err != nil {
		return nil, nil, err
	}
	if err := setSharedLink(r.header, opts.SharedLink, opts.SharedLinkPassword); err != nil {
		return nil, nil, err
	}
	page := new(OffsetPage[*Item])
	resp, err := s.client.do(ctx, r, page)
	if err != nil {
		return nil, resp, err
	}
	return page, resp, nil
}

// itemsPages pages ListItems by offset with a private copy of opts.
func (s *FoldersService) itemsPages(folderID string, opts *ListItemsOptions) (int, offsetPageFunc[*Item]) {
	return pageFuncs(opts, func(o *ListItemsOptions) *int { return &o.Offset },
		func(ctx context.Context, o *ListItemsOptions) (*OffsetPage[*Item], *Response, error) {
			return s.ListItems(ctx, folderID, o)
		})
}

// ListItemsIter yields every item of a folder, fetching offset pages (GET
// /folders/{folder_id}/items) lazily as the loop advances, from
// opts.Offset. Offset paging stops at offset 300,000 (the service answers
// 400 past it): for a larger folder use ListItemsByMarkerIter, which pages
// by marker as the service recommends (it cannot sort the root folder's
// marker pages). The method says which paging it uses; no option value
// switches it. It never changes opts.
func (s *FoldersService) ListItemsIter(ctx context.Context, folderID string, opts *ListItemsOptions) iter.Seq2[*Item, error] {
	start, fetch := s.itemsPages(folderID, opts)
	return offsetSeqMaybeAhead(ctx, start, fetch, opts != nil && opts.ReadAhead)
}

// NewListItemsPaginator walks a folder's items one offset page at a time
// (GET /folders/{folder_id}/items). It never changes opts.
func (s *FoldersService) NewListItemsPaginator(folderID string, opts *ListItemsOptions) *OffsetPaginator[*Item] {
	return newOffsetPaginator(s.itemsPages(folderID, opts))
}

// ListItemsByMarkerOptions are the options of the marker-paged
// FoldersService.ListItemsByMarker.
type ListItemsByMarkerOptions struct {
	// Fields selects the fields of each item (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is the position to start at: a NextMarker of an earlier page
	// (query marker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
	// Sort is id, name, date or size (query sort); items stay grouped by
	// type. The service does not sort marker pages of the root folder "0".
	Sort FolderItemsSort `url:"sort,omitempty"`
	// Direction is ASC or DESC (query direction).
	Direction SortDirection `url:"direction,omitempty"`
	// SharedLink and SharedLinkPassword access the folder through a shared
	// link (header boxapi). Never logged.
	SharedLink         string `url:"-"`
	SharedLinkPassword string `url:"-"`
	// ReadAhead makes ListItemsByMarkerIter fetch each next page while the
	// loop ranges over the current one, for callers who want throughput:
	// the service prepares a page while the client decodes the previous
	// one. It may send one request more than the loop needs (a break stops
	// it); without it the iterator sends a request only when the loop
	// reaches the page. Page methods ignore it.
	ReadAhead bool `url:"-"`
}

// markerItemsQuery adds usemarker=true to the marker options.
type markerItemsQuery struct {
	*ListItemsByMarkerOptions
	UseMarker bool `url:"usemarker"`
}

// ListItemsByMarker returns one page of a folder's items, marker-paged
// (GET /folders/{folder_id}/items?usemarker=true). Response.NextMarker (and
// the page's NextMarker) fetches the next page.
func (s *FoldersService) ListItemsByMarker(ctx context.Context, folderID string, opts *ListItemsByMarkerOptions) (*MarkerPage[*Item], *Response, error) {
	r, err := s.itemsByMarkerRequest(folderID, opts)
	if err != nil {
		return nil, nil, err
	}
	page := new(MarkerPage[*Item])
	resp, err := s.client.do(ctx, r, page)
	if err != nil {
		return nil, resp, err
	}
	resp.NextMarker = page.NextMarker
	return page, resp, nil
}

// itemsByMarkerRequest checks the arguments of ListItemsByMarker and builds
// its request.
func (s *FoldersService) itemsByMarkerRequest(folderID string, opts *ListItemsByMarkerOptions) (*request, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &ListItemsByMarkerOptions{}
	}
	if opts.Limit < 0 {
		return nil, invalidArg("limit", "negative")
	}
	r, err := s.client.newRequest(http.MethodGet, s.client.cfg.baseURL, markerItemsQuery{opts, true}, "folders", folderID, "items")
	if err != nil {
		return nil, err
	}
	if err := setSharedLink(r.header, opts.SharedLink, opts.SharedLinkPassword); err != nil {
		return nil, err
	}
	return r, nil
}

// ListItemsByMarkerIter yields every item of a folder, fetching marker pages
// (GET /folders/{folder_id}/items?usemarker=true) lazily as the loop
// advances. It starts at opts.Marker and never changes opts.
func (s *FoldersService) ListItemsByMarkerIter(ctx context.Context, folderID string, opts *ListItemsByMarkerOptions) iter.Seq2[*Item, error] {
	start, fetch := s.markerItemsPages(folderID, opts)
	if opts != nil && opts.ReadAhead {
		o := *opts
		o.Fields = append([]string(nil), opts.Fields...)
		return markerSeqAhead[*Item](ctx, start, func(ctx context.Context, marker string) ([]byte, error) {
			page := o
			page.Marker = marker
			r, err := s.itemsByMarkerRequest(folderID, &page)
			if err != nil {
				return nil, err
			}
			var body []byte
			_, err = s.client.do(ctx, r, &body)
			return body, err
		})
	}
	return markerSeq(ctx, start, fetch)
}

// NewListItemsByMarkerPaginator walks a folder's items one marker page at a
// time (GET /folders/{folder_id}/items?usemarker=true), from opts.Marker.
// It never changes opts.
func (s *FoldersService) NewListItemsByMarkerPaginator(folderID string, opts *ListItemsByMarkerOptions) *MarkerPaginator[*Item] {
	return newMarkerPaginator(s.markerItemsPages(folderID, opts))
}

// markerItemsPages pages ListItemsByMarker with a private copy of opts.
func (s *FoldersService) markerItemsPages(folderID string, opts *ListItemsByMarkerOptions) (string, markerPageFunc[*Item]) {
	return pageFuncs(opts, func(o *ListItemsByMarkerOptions) *string { return &o.Marker },
		func(ctx context.Context, o *ListItemsByMarkerOptions) (*MarkerPage[*Item], *Response, error) {
			return s.ListItemsByMarker(ctx, folderID, o)
		})
}
