package cms

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// SearchService finds content (GET /search).
type SearchService service

// SearchScope is where a search looks (query scope).
type SearchScope string

// Search scopes.
const (
	SearchScopeUserContent       SearchScope = "user_content"
	SearchScopeEnterpriseContent SearchScope = "enterprise_content"
)

// SearchContentType is a part of an item a query matches (query
// content_types).
type SearchContentType string

// The parts of an item a query can match.
const (
	SearchContentTypeName        SearchContentType = "name"
	SearchContentTypeDescription SearchContentType = "description"
	SearchContentTypeFileContent SearchContentType = "file_content"
	SearchContentTypeComments    SearchContentType = "comments"
	SearchContentTypeTags        SearchContentType = "tags"
)

// SearchTrashContent says whether a search covers the trash (query
// trash_content).
type SearchTrashContent string

// Trash coverage of a search.
const (
	SearchTrashContentNonTrashedOnly SearchTrashContent = "non_trashed_only"
	SearchTrashContentTrashedOnly    SearchTrashContent = "trashed_only"
	SearchTrashContentAllItems       SearchTrashContent = "all_items"
)

// SearchSort orders search results (query sort).
type SearchSort string

// Sort orders of a search.
const (
	SearchSortRelevance  SearchSort = "relevance"
	SearchSortModifiedAt SearchSort = "modified_at"
)

// TimeRange bounds a search by a date; a zero bound is open.
type TimeRange struct{ From, To time.Time }

// SizeRange bounds a search by a size in bytes; a zero bound is open.
type SizeRange struct{ From, To int64 }

// MetadataFilter restricts a search to items holding a template instance
// whose fields match (query mdfilters): Filters maps a field key to a
// value (equality), or to a MetadataRange for a float or date field.
type MetadataFilter struct {
	Scope       MetadataScope  `json:"scope"`
	TemplateKey string         `json:"templateKey"`
	Filters     map[string]any `json:"filters"`
}

// MetadataRange is a range of a float or date field in a MetadataFilter
// ({"gt": ..., "lt": ...}); a nil bound is open.
type MetadataRange struct {
	GreaterThan any `json:"gt,omitempty"`
	LessThan    any `json:"lt,omitempty"`
}

// SearchOptions are the parameters of SearchService.Query. Query or
// MetadataFilters must be set.
type SearchOptions struct {
	// Query is the text to find: words, "quoted phrases", AND, OR, NOT.
	Query string
	// Scope is user_content (the default) or enterprise_content (admins).
	Scope SearchScope
	// Type keeps one kind of item: ItemTypeFile, ItemTypeFolder or
	// ItemTypeWebLink.
	Type ItemType
	// AncestorFolderIDs keeps items below these folders.
	AncestorFolderIDs []string
	// ContentTypes are the parts of an item the query matches.
	ContentTypes []SearchContentType
	// FileExtensions keeps files with these extensions ("pdf", "docx").
	FileExtensions []string
	// CreatedAt, UpdatedAt and Size bound the results.
	CreatedAt, UpdatedAt *TimeRange
	Size                 *SizeRange
	// OwnerUserIDs keeps items owned by these users.
	OwnerUserIDs []string
	// TrashContent covers the trash too, or only it.
	TrashContent SearchTrashContent
	// MetadataFilters keeps items with matching metadata (one filter, as
	// the service allows).
	MetadataFilters []MetadataFilter
	// Sort and Direction order the results (relevance by default).
	Sort      SearchSort
	Direction SortDirection
	// Fields selects the fields of each item.
	Fields []string
	// Offset and Limit page the results (Limit at most 200).
	Offset, Limit int
}

// SearchResults is one page of a search: an offset page of items.
type SearchResults = OffsetPage[*Item]

// values encodes the options as the query of GET /search (by hand:
// go-querystring cannot write mdfilters' JSON or the ranges).
func (o *SearchOptions) values() (url.Values, error) {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	list := func(k string, xs []string) {
		if len(xs) > 0 {
			v.Set(k, strings.Join(xs, ","))
		}
	}
	set("query", o.Query)
	set("scope", string(o.Scope))
	set("type", string(o.Type))
	list("ancestor_folder_ids", o.AncestorFolderIDs)
	ct := make([]string, len(o.ContentTypes))
	for i, c := range o.ContentTypes {
		ct[i] = string(c)
	}
	list("content_types", ct)
	list("file_extensions", o.FileExtensions)
	timeRange := func(k string, r *TimeRange) {
		if r == nil {
			return
		}
		f := func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.UTC().Format(time.RFC3339)
		}
		v.Set(k, f(r.From)+","+f(r.To))
	}
	timeRange("created_at_range", o.CreatedAt)
	timeRange("updated_at_range", o.UpdatedAt)
	if r := o.Size; r != nil {
		f := func(n int64) string {
			if n == 0 {
				return ""
			}
			return strconv.FormatInt(n, 10)
		}
		v.Set("size_range", f(r.From)+","+f(r.To))
	}
	list("owner_user_ids", o.OwnerUserIDs)
	set("trash_content", string(o.TrashContent))
	if len(o.MetadataFilters) > 0 {
		b, err := json.Marshal(o.MetadataFilters)
		if err != nil {
			return nil, invalidArg("metadata filters", err.Error())
		}
		v.Set("mdfilters", string(b))
	}
	set("sort", string(o.Sort))
	set("direction", string(o.Direction))
	list("fields", o.Fields)
	if o.Offset > 0 {
		v.Set("offset", strconv.Itoa(o.Offset))
	}
	if o.Limit > 0 {
		v.Set("limit", strconv.Itoa(o.Limit))
	}
	return v, nil
}

// Query returns one page of search results (GET /search): the items the
// caller may see that match opts.
func (s *SearchService) Query(ctx context.Context, opts *SearchOptions) (*SearchResults, *Response, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	if opts == nil || (strings.TrimSpace(opts.Query) == "" && len(opts.MetadataFilters) == 0) {
		return nil, nil, invalidArg("query", "set Query or MetadataFilters")
	}
	if err := firstErr(
		checkOffsetLimit(opts.Offset, opts.Limit),
		checkEnum("scope", opts.Scope, SearchScopeUserContent, SearchScopeEnterpriseContent),
		checkEnum("type", opts.Type, ItemTypeFile, ItemTypeFolder, ItemTypeWebLink),
		checkEnum("trash content", opts.TrashContent, SearchTrashContentNonTrashedOnly, SearchTrashContentTrashedOnly, SearchTrashContentAllItems),
		checkEnum("sort", opts.Sort, SearchSortRelevance, SearchSortModifiedAt),
		checkEnum("direction", opts.Direction, SortDirectionAscending, SortDirectionDescending),
	); err != nil {
		return nil, nil, err
	}
	for _, id := range append(append([]string{}, opts.AncestorFolderIDs...), opts.OwnerUserIDs...) {
		if err := checkID("search filter", id); err != nil {
			return nil, nil, err
		}
	}
	v, err := opts.values()
	if err != nil {
		return nil, nil, err
	}
	r, err := s.client.newRequest(http.MethodGet, s.client.cfg.baseURL, nil, "search")
	if err != nil {
		return nil, nil, err
	}
	r.url.RawQuery = v.Encode()
	page := new(SearchResults)
	resp, err := s.client.do(ctx, r, page)
	if err != nil {
		return nil, resp, err
	}
	return page, resp, nil
}

// QueryIter yields every result of a search, fetching offset pages (GET
// /search) lazily as the loop advances, from opts.Offset. It never
// changes opts.
func (s *SearchService) QueryIter(ctx context.Context, opts *SearchOptions) iter.Seq2[*Item, error] {
	start, fetch := s.pages(opts)
	return offsetSeq(ctx, start, fetch)
}

// NewQueryPaginator walks the results of a search one offset page at a
// time (GET /search). It never changes opts.
func (s *SearchService) NewQueryPaginator(opts *SearchOptions) *OffsetPaginator[*Item] {
	return newOffsetPaginator(s.pages(opts))
}

// pages pages Query with a private copy of opts.
func (s *SearchService) pages(opts *SearchOptions) (int, offsetPageFunc[*Item]) {
	return pageFuncs(opts, func(o *SearchOptions) *int { return &o.Offset }, s.Query)
}
