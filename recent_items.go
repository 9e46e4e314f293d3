package cms

import (
	"context"
	"iter"
	"time"
)

// RecentItemsService lists the items the caller used lately
// (/recent_items): those of the last 90 days, at most 1000, newest first,
// each with how it was last used.
type RecentItemsService service

// InteractionType is how an item was last used (interaction_type).
type InteractionType string

// Kinds of interaction with a recent item.
const (
	InteractionTypePreview InteractionType = "item_preview"
	InteractionTypeUpload  InteractionType = "item_upload"
	InteractionTypeComment InteractionType = "item_comment"
	InteractionTypeOpen    InteractionType = "item_open"
	InteractionTypeModify  InteractionType = "item_modify"
)

// RecentItem is an item the caller used lately (RecentItem).
type RecentItem struct {
	Type string `json:"type,omitzero"`
	// Item is the file, folder or web link.
	Item            *Item           `json:"item,omitzero"`
	InteractionType InteractionType `json:"interaction_type,omitzero"`
	InteractedAt    time.Time       `json:"interacted_at,omitzero"`
	// InteractionSharedLink is the shared link the item was used through,
	// if any.
	InteractionSharedLink string `json:"interaction_shared_link,omitzero"`
}

// ListRecentItemsOptions are the options of RecentItemsService.List.
type ListRecentItemsOptions struct {
	// Fields selects the fields of each item (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
	// Marker resumes the list where an earlier page ended.
	Marker string `url:"marker,omitempty"`
}

// List returns one marker page of the caller's recent items
// (GET /recent_items).
func (s *RecentItemsService) List(ctx context.Context, opts *ListRecentItemsOptions) (*MarkerPage[*RecentItem], *Response, error) {
	if opts == nil {
		opts = &ListRecentItemsOptions{}
	}
	return getMarkerPage[*RecentItem](ctx, s.client, opts.Limit, opts, "recent_items")
}

// listPages pages List with a private copy of opts.
func (s *RecentItemsService) listPages(opts *ListRecentItemsOptions) (string, markerPageFunc[*RecentItem]) {
	return pageFuncs(opts, func(o *ListRecentItemsOptions) *string { return &o.Marker }, s.List)
}

// ListIter yields every recent item, fetching marker pages
// (GET /recent_items) lazily. It never changes opts.
func (s *RecentItemsService) ListIter(ctx context.Context, opts *ListRecentItemsOptions) iter.Seq2[*RecentItem, error] {
	start, fetch := s.listPages(opts)
	return markerSeq(ctx, start, fetch)
}

// NewListPaginator walks the recent items one marker page at a time
// (GET /recent_items). It never changes opts.
func (s *RecentItemsService) NewListPaginator(opts *ListRecentItemsOptions) *MarkerPaginator[*RecentItem] {
	return newMarkerPaginator(s.listPages(opts))
}
