package cms

import (
	"context"
	"iter"
	"net/http"
)

// TrashService handles the trash: trashed files, folders and web links (/folders/trash/items, /files/{id}/trash, ...).
//
// Deleting a file, folder or web link (FilesService.Delete,
// FoldersService.Delete, WebLinksService.Delete) moves it to the trash: it
// answers 404 through the normal endpoints and is gone from listings, but
// keeps its id and content. A folder takes its content along and brings it
// back when restored; only the folder is listed in the trash.
type TrashService service

// TrashSort is the sort key of a trash listing.
type TrashSort string

// Sort keys of the trash (query sort).
const (
	TrashSortName TrashSort = "name"
	TrashSortDate TrashSort = "date"
	TrashSortSize TrashSort = "size"
)

// ListTrashOptions are the options of the offset-paged TrashService.ListItems.
type ListTrashOptions struct {
	// Fields selects the fields of each item (query fields); without it the
	// entries are mini records.
	Fields []string `url:"fields,comma,omitempty"`
	// Offset is the position of the first item (query offset).
	Offset int `url:"offset,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
	// Sort is the sort key (query sort); items stay grouped by type.
	Sort TrashSort `url:"sort,omitempty"`
	// Direction is ASC or DESC (query direction).
	Direction SortDirection `url:"direction,omitempty"`
	// ReadAhead makes ListItemsIter fetch the next page while the loop
	// ranges over the current one, by marker or by offset: at most one page
	// ahead, and a break or an error cancels the fetch in flight. Page
	// methods and paginators ignore it.
	ReadAhead bool `url:"-"`
}

// ListItems returns one page of the trash, offset-paged
// (GET /folders/trash/items).
func (s *TrashService) ListItems(ctx context.Context, opts *ListTrashOptions) (*OffsetPage[*Item], *Response, error) {
	if opts == nil {
		opts = &ListTrashOptions{}
	}
	if err := firstErr(
		checkOffsetLimit(opts.Offset, opts.Limit),
		checkEnum("sort", opts.Sort, TrashSortName, TrashSortDate, TrashSortSize),
		checkEnum("direction", opts.Direction, SortDirectionAscending, SortDirectionDescending),
	); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*Item]](ctx, s.client, opts, "folders", "trash", "items")
}

// listPages pages ListItems by offset with a private copy of opts.
func (s *TrashService) listPages(opts *ListTrashOptions) (int, offsetPageFunc[*Item]) {
	return pageFuncs(opts, func(o *ListTrashOptions) *int { return &o.Offset }, s.ListItems)
}

// ListItemsIter yields every item in the trash, fetching pages
// (GET /folders/trash/items) lazily as the loop advances. Like every list
// that offers both, it pages by marker (usemarker=true), which the service
// recommends for long lists: the same items as ListItemsByMarkerIter with
// opts' Fields and Limit. It pages by offset instead, from opts.Offset, when
// opts.Offset, Sort or Direction is set (marker pages take no sort). It
// never changes opts.
func (s *TrashService) ListItemsIter(ctx context.Context, opts *ListTrashOptions) iter.Seq2[*Item, error] {
	if opts != nil && (opts.Offset > 0 || opts.Sort != "" || opts.Direction != "") {
		start, fetch := s.listPages(opts)
		return offsetSeqMaybeAhead(ctx, start, fetch, opts.ReadAhead)
	}
	var m *ListTrashByMarkerOptions
	if opts != nil {
		m = &ListTrashByMarkerOptions{Fields: opts.Fields, Limit: opts.Limit}
		if opts.ReadAhead {
			start, fetch := s.markerPages(m)
			return markerSeqMaybeAhead(ctx, start, fetch, true)
		}
	}
	return s.ListItemsByMarkerIter(ctx, m)
}

// NewListItemsPaginator walks the trash one offset page at a time
// (GET /folders/trash/items). It never changes opts.
func (s *TrashService) NewListItemsPaginator(opts *ListTrashOptions) *OffsetPaginator[*Item] {
	return newOffsetPaginator(s.listPages(opts))
}

// ListTrashByMarkerOptions are the options of the marker-paged
// TrashService.ListItemsByMarker. Marker paging takes no sort, direction or
// offset (the service answers 400 invalid_parameter).
type ListTrashByMarkerOptions struct {
	// Fields selects the fields of each item (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is the position to start at: a NextMarker of an earlier page
	// (query marker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
}

// markerTrashQuery adds usemarker=true to the marker options.
type markerTrashQuery struct {
	*ListTrashByMarkerOptions
	UseMarker bool `url:"usemarker"`
}

// ListItemsByMarker returns one page of the trash, marker-paged
// (GET /folders/trash/items?usemarker=true). Response.NextMarker (and the
// page's NextMarker) fetches the next page.
func (s *TrashService) ListItemsByMarker(ctx context.Context, opts *ListTrashByMarkerOptions) (*MarkerPage[*Item], *Response, error) {
	if opts == nil {
		opts = &ListTrashByMarkerOptions{}
	}
	return getMarkerPage[*Item](ctx, s.client, opts.Limit, markerTrashQuery{opts, true}, "folders", "trash", "items")
}

// markerPages pages ListItemsByMarker with a private copy of opts.
func (s *TrashService) markerPages(opts *ListTrashByMarkerOptions) (string, markerPageFunc[*Item]) {
	return pageFuncs(opts, func(o *ListTrashByMarkerOptions) *string { return &o.Marker }, s.ListItemsByMarker)
}

// ListItemsByMarkerIter yields every item in the trash, fetching marker
// pages (GET /folders/trash/items?usemarker=true) lazily as the loop
// advances. It starts at opts.Marker and never changes opts.
func (s *TrashService) ListItemsByMarkerIter(ctx context.Context, opts *ListTrashByMarkerOptions) iter.Seq2[*Item, error] {
	marker, fetch := s.markerPages(opts)
	return markerSeq(ctx, marker, fetch)
}

// NewListItemsByMarkerPaginator walks the trash one marker page at a time
// (GET /folders/trash/items?usemarker=true), from opts.Marker; keep
// NextMarker to resume later. It never changes opts.
func (s *TrashService) NewListItemsByMarkerPaginator(opts *ListTrashByMarkerOptions) *MarkerPaginator[*Item] {
	return newMarkerPaginator(s.markerPages(opts))
}

// itemKind names the path segment and id argument of an item type.
type itemKind struct{ segment, arg string }

var (
	fileKind    = itemKind{"files", "file"}
	folderKind  = itemKind{"folders", "folder"}
	webLinkKind = itemKind{"web_links", "web link"}
)

// getTrashed fetches a trashed item of kind k into a new T.
func getTrashed[T any](ctx context.Context, c *Client, k itemKind, id string, opts *FieldsOptions) (*T, *Response, error) {
	if err := checkID(k.arg, id); err != nil {
		return nil, nil, err
	}
	return getAPI[T](ctx, c, opts, k.segment, id, "trash")
}

// RestoreRequest is the optional body of a restore. Without it the item
// goes back to the folder it was trashed from, under its name.
type RestoreRequest struct {
	// Name restores the item under a new name, e.g. when its name is taken
	// in the folder by now.
	Name string `json:"name,omitzero"`
	// Parent is the folder to restore the item to when the folder it was
	// trashed from is gone (in the trash or deleted); the service ignores it
	// otherwise.
	Parent *FolderRef `json:"parent,omitzero"`
}

// restoreTrashed restores a trashed item of kind k (POST /{kind}/{id}).
func restoreTrashed[T any](ctx context.Context, c *Client, k itemKind, id string, body *RestoreRequest, opts *FieldsOptions) (*T, *Response, error) {
	if err := checkID(k.arg, id); err != nil {
		return nil, nil, err
	}
	if body == nil {
		body = &RestoreRequest{}
	}
	if body.Parent != nil {
		if err := checkID("parent folder", body.Parent.ID); err != nil {
			return nil, nil, err
		}
	}
	return callAPI[T](ctx, c, http.MethodPost, body, opts, k.segment, id)
}

// purgeTrashed deletes a trashed item of kind k for good (DELETE /{kind}/{id}/trash).
func purgeTrashed(ctx context.Context, c *Client, k itemKind, id string) (*Response, error) {
	if err := checkID(k.arg, id); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, c, nil, k.segment, id, "trash")
}

// GetFile fetches a file in the trash (GET /files/{file_id}/trash). A file
// trashed with its folder is not found: get the folder.
func (s *TrashService) GetFile(ctx context.Context, fileID string, opts *FieldsOptions) (*File, *Response, error) {
	return getTrashed[File](ctx, s.client, fileKind, fileID, opts)
}

// GetFolder fetches a folder in the trash (GET /folders/{folder_id}/trash).
func (s *TrashService) GetFolder(ctx context.Context, folderID string, opts *FieldsOptions) (*Folder, *Response, error) {
	return getTrashed[Folder](ctx, s.client, folderKind, folderID, opts)
}

// GetWebLink fetches a web link in the trash (GET /web_links/{web_link_id}/trash).
func (s *TrashService) GetWebLink(ctx context.Context, webLinkID string, opts *FieldsOptions) (*WebLink, *Response, error) {
	return getTrashed[WebLink](ctx, s.client, webLinkKind, webLinkID, opts)
}

// RestoreFile takes a file out of the trash (POST /files/{file_id}); body
// may be nil. A name taken in the folder fails with an *APIError matching
// ErrConflict and ErrItemNameInUse; so does a folder that is gone when
// body names no other parent (ErrParentFolderUnavailable).
func (s *TrashService) RestoreFile(ctx context.Context, fileID string, body *RestoreRequest, opts *FieldsOptions) (*File, *Response, error) {
	return restoreTrashed[File](ctx, s.client, fileKind, fileID, body, opts)
}

// RestoreFolder takes a folder out of the trash with the content trashed
// with it (POST /folders/{folder_id}); body may be nil. Conflicts as for
// RestoreFile.
func (s *TrashService) RestoreFolder(ctx context.Context, folderID string, body *RestoreRequest, opts *FieldsOptions) (*Folder, *Response, error) {
	return restoreTrashed[Folder](ctx, s.client, folderKind, folderID, body, opts)
}

// RestoreWebLink takes a web link out of the trash (POST /web_links/{web_link_id});
// body may be nil. Conflicts as for RestoreFile. WebLinksService.Restore
// is the same call (it calls this method).
func (s *TrashService) RestoreWebLink(ctx context.Context, webLinkID string, body *RestoreRequest, opts *FieldsOptions) (*WebLink, *Response, error) {
	return restoreTrashed[WebLink](ctx, s.client, webLinkKind, webLinkID, body, opts)
}

// PurgeFile deletes a trashed file for good, with all its versions
// (DELETE /files/{file_id}/trash).
func (s *TrashService) PurgeFile(ctx context.Context, fileID string) (*Response, error) {
	return purgeTrashed(ctx, s.client, fileKind, fileID)
}

// PurgeFolder deletes a trashed folder for good, with its content
// (DELETE /folders/{folder_id}/trash).
func (s *TrashService) PurgeFolder(ctx context.Context, folderID string) (*Response, error) {
	return purgeTrashed(ctx, s.client, folderKind, folderID)
}

// PurgeWebLink deletes a trashed web link for good
// (DELETE /web_links/{web_link_id}/trash).
func (s *TrashService) PurgeWebLink(ctx context.Context, webLinkID string) (*Response, error) {
	return purgeTrashed(ctx, s.client, webLinkKind, webLinkID)
}
