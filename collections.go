package cms

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"slices"
)

// CollectionsService reads a user's collections (/collections) — today the
// one collection every user has, Favorites — and the items in them
// (/collections/{collection_id}/items). An item joins or leaves a
// collection through the collections field of its update
// (PUT /files/{file_id}, /folders/{folder_id}, /web_links/{web_link_id}):
// AddItem and RemoveItem send it.
type CollectionsService service

// CollectionType is the kind of a collection (collection_type).
type CollectionType string

// Kinds of collections.
const (
	// CollectionTypeFavorites is the user's Favorites collection.
	CollectionTypeFavorites CollectionType = "favorites"
)

// UserCollection is one of a user's collections (Collection in the OpenAPI
// document; the SDK's Collection is its generic unpaged list).
type UserCollection struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
	// Name is the collection's name, "Favorites".
	Name           string         `json:"name,omitzero"`
	CollectionType CollectionType `json:"collection_type,omitzero"`
}

// ErrNoFavorites is matched by the error of CollectionsService.Favorites
// when the user's collections include no favorites collection.
var ErrNoFavorites = errors.New("cms: no favorites collection")

// ListCollectionsOptions are the options of CollectionsService.List and
// ListItems.
type ListCollectionsOptions struct {
	// Fields selects the fields of each entry (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Offset (at most 10000) and Limit (at most 1000) page the list.
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"`
}

// List returns one offset page of the caller's collections
// (GET /collections).
func (s *CollectionsService) List(ctx context.Context, opts *ListCollectionsOptions) (*OffsetPage[*UserCollection], *Response, error) {
	if opts == nil {
		opts = &ListCollectionsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*UserCollection]](ctx, s.client, opts, "collections")
}

// listPages pages List with a private copy of opts.
func (s *CollectionsService) listPages(opts *ListCollectionsOptions) (int, offsetPageFunc[*UserCollection]) {
	return pageFuncs(opts, func(o *ListCollectionsOptions) *int { return &o.Offset }, s.List)
}

// ListIter yields every collection of the caller, fetching offset pages
// (GET /collections) lazily. It never changes opts.
func (s *CollectionsService) ListIter(ctx context.Context, opts *ListCollectionsOptions) iter.Seq2[*UserCollection, error] {
	start, fetch := s.listPages(opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListPaginator walks the caller's collections one offset page at a time
// (GET /collections). It never changes opts.
func (s *CollectionsService) NewListPaginator(opts *ListCollectionsOptions) *OffsetPaginator[*UserCollection] {
	return newOffsetPaginator(s.listPages(opts))
}

// Get fetches a collection (GET /collections/{collection_id}).
func (s *CollectionsService) Get(ctx context.Context, collectionID string) (*UserCollection, *Response, error) {
	if err := checkID("collection", collectionID); err != nil {
		return nil, nil, err
	}
	return getAPI[UserCollection](ctx, s.client, nil, "collections", collectionID)
}

// Favorites returns the caller's Favorites collection, found among its
// collections (GET /collections, page after page). A user without one gets
// an error matching ErrNoFavorites.
func (s *CollectionsService) Favorites(ctx context.Context) (*UserCollection, *Response, error) {
	p := s.NewListPaginator(nil)
	var resp *Response
	for p.HasMorePages() {
		page, r, err := p.NextPage(ctx)
		if err != nil {
			return nil, r, err
		}
		resp = r
		for _, c := range page.Entries {
			if c != nil && c.CollectionType == CollectionTypeFavorites {
				return c, resp, nil
			}
		}
	}
	return nil, resp, ErrNoFavorites
}

// ListItems returns one offset page of the files, folders and web links of
// a collection (GET /collections/{collection_id}/items).
func (s *CollectionsService) ListItems(ctx context.Context, collectionID string, opts *ListCollectionsOptions) (*OffsetPage[*Item], *Response, error) {
	if err := checkID("collection", collectionID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListCollectionsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*Item]](ctx, s.client, opts, "collections", collectionID, "items")
}

// listItemsPages pages ListItems with a private copy of opts.
func (s *CollectionsService) listItemsPages(collectionID string, opts *ListCollectionsOptions) (int, offsetPageFunc[*Item]) {
	return pageFuncs(opts, func(o *ListCollectionsOptions) *int { return &o.Offset },
		func(ctx context.Context, o *ListCollectionsOptions) (*OffsetPage[*Item], *Response, error) {
			return s.ListItems(ctx, collectionID, o)
		})
}

// ListItemsIter yields every item of a collection, fetching offset pages
// (GET /collections/{collection_id}/items) lazily. It never changes opts.
func (s *CollectionsService) ListItemsIter(ctx context.Context, collectionID string, opts *ListCollectionsOptions) iter.Seq2[*Item, error] {
	start, fetch := s.listItemsPages(collectionID, opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListItemsPaginator walks the items of a collection one offset page at
// a time (GET /collections/{collection_id}/items). It never changes opts.
func (s *CollectionsService) NewListItemsPaginator(collectionID string, opts *ListCollectionsOptions) *OffsetPaginator[*Item] {
	return newOffsetPaginator(s.listItemsPages(collectionID, opts))
}

// ItemCollections is a file, folder or web link with the collections it is
// in (its collections field).
type ItemCollections struct {
	Type        ItemType          `json:"type"`
	ID          string            `json:"id"`
	ETag        string            `json:"etag,omitzero"`
	Collections []*UserCollection `json:"collections"`
}

// Has reports whether the item is in the collection.
func (ic *ItemCollections) Has(collectionID string) bool {
	return slices.ContainsFunc(ic.Collections, func(c *UserCollection) bool { return c != nil && c.ID == collectionID })
}

// collectionItemPath is the path of a file, folder or web link.
func collectionItemPath(item ItemRef) ([]string, error) {
	if err := item.check("item", ItemTypeFile, ItemTypeFolder, ItemTypeWebLink); err != nil {
		return nil, err
	}
	kind := map[ItemType]string{ItemTypeFile: "files", ItemTypeFolder: "folders", ItemTypeWebLink: "web_links"}[item.Type]
	return []string{kind, item.ID}, nil
}

// collectionsFields asks for an item's collections (and etag).
var collectionsFields = &FieldsOptions{Fields: []string{"collections", "etag"}}

// ItemCollections returns the collections a file, folder or web link is in
// (GET /files/{file_id}?fields=collections, or the folder or web link
// twin).
func (s *CollectionsService) ItemCollections(ctx context.Context, item ItemRef) (*ItemCollections, *Response, error) {
	path, err := collectionItemPath(item)
	if err != nil {
		return nil, nil, err
	}
	return getAPI[ItemCollections](ctx, s.client, collectionsFields, path...)
}

// collectionRef is one entry of the collections field of an update.
type collectionRef struct {
	ID string `json:"id"`
}

// updateCollectionsRequest is the update that sets an item's collections.
type updateCollectionsRequest struct {
	Collections []collectionRef `json:"collections"`
}

// ifMatch sends an If-Match header with an update (and the fields query).
type ifMatch struct {
	Fields []string `url:"fields,comma,omitempty"`
	etag   string
}

func (o *ifMatch) setHeaders(h http.Header) error {
	return setHeader(h, "If-Match", "if-match", o.etag)
}

// SetItemCollections replaces the collections of a file, folder or web link
// with collectionIDs, none for no collection (PUT /files/{file_id}, or the
// folder or web link twin, with {"collections": [{"id": …}]}).
func (s *CollectionsService) SetItemCollections(ctx context.Context, item ItemRef, collectionIDs ...string) (*ItemCollections, *Response, error) {
	return s.setItemCollections(ctx, item, "", collectionIDs)
}

func (s *CollectionsService) setItemCollections(ctx context.Context, item ItemRef, etag string, collectionIDs []string) (*ItemCollections, *Response, error) {
	path, err := collectionItemPath(item)
	if err != nil {
		return nil, nil, err
	}
	body := &updateCollectionsRequest{Collections: make([]collectionRef, 0, len(collectionIDs))}
	for _, id := range collectionIDs {
		if err := checkID("collection", id); err != nil {
			return nil, nil, err
		}
		body.Collections = append(body.Collections, collectionRef{ID: id})
	}
	return callAPI[ItemCollections](ctx, s.client, http.MethodPut, body, &ifMatch{Fields: collectionsFields.Fields, etag: etag}, path...)
}

// AddItem puts a file, folder or web link into a collection, keeping its
// other collections: it reads the item's collections
// (GET /files/{file_id}?fields=collections, or the twin) and, unless the
// item is there already, sends them with the new one
// (PUT /files/{file_id}, or the twin) on the condition that the item has
// not changed meanwhile (If-Match its etag; a change fails with an
// *APIError matching ErrPreconditionFailed).
func (s *CollectionsService) AddItem(ctx context.Context, collectionID string, item ItemRef) (*ItemCollections, *Response, error) {
	return s.changeItem(ctx, collectionID, item, true)
}

// RemoveItem takes a file, folder or web link out of a collection, keeping
// its other collections, as AddItem does (GET /files/{file_id}?fields=collections,
// then PUT /files/{file_id}, or the twins); an item not in the collection
// is left alone.
func (s *CollectionsService) RemoveItem(ctx context.Context, collectionID string, item ItemRef) (*ItemCollections, *Response, error) {
	return s.changeItem(ctx, collectionID, item, false)
}

func (s *CollectionsService) changeItem(ctx context.Context, collectionID string, item ItemRef, add bool) (*ItemCollections, *Response, error) {
	if err := checkID("collection", collectionID); err != nil {
		return nil, nil, err
	}
	if _, err := collectionItemPath(item); err != nil {
		return nil, nil, err
	}
	cur, resp, err := s.ItemCollections(ctx, item)
	if err != nil {
		return nil, resp, err
	}
	if cur.Has(collectionID) == add {
		return cur, resp, nil
	}
	var ids []string
	for _, c := range cur.Collections {
		if c != nil && c.ID != collectionID {
			ids = append(ids, c.ID)
		}
	}
	if add {
		ids = append(ids, collectionID)
	}
	return s.setItemCollections(ctx, item, cur.ETag, ids)
}
