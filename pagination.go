package cms

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"strconv"
)

// Order is one sort key of a list response.
type Order struct {
	By        string `json:"by"`
	Direction string `json:"direction"`
}

// MarkerPage is one page of a marker-paged list.
type MarkerPage[T any] struct {
	Entries []T `json:"entries"`
	Limit   int `json:"limit,omitzero"`
	// NextMarker fetches the next page; "" on the last page.
	NextMarker string  `json:"next_marker,omitzero"`
	PrevMarker string  `json:"prev_marker,omitzero"`
	Order      []Order `json:"order,omitzero"`
}

// UnmarshalJSON decodes markers leniently: the service sends them as
// strings, numbers or null depending on the endpoint.
func (p *MarkerPage[T]) UnmarshalJSON(b []byte) error {
	var w struct {
		Entries    []T        `json:"entries"`
		Limit      flexInt    `json:"limit"`
		NextMarker flexString `json:"next_marker"`
		PrevMarker flexString `json:"prev_marker"`
		Order      orderList  `json:"order"`
	}
	if err := decodeJSON(b, &w); err != nil {
		return err
	}
	*p = MarkerPage[T]{Entries: w.Entries, Limit: int(w.Limit), NextMarker: string(w.NextMarker), PrevMarker: string(w.PrevMarker), Order: w.Order}
	return nil
}

// orderList decodes the order of a list: a list of sort keys, or the one
// sort key GET /recent_items sends as an object ({"by":"interacted_at",
// "direction":"DESC"}, as Box UI Elements reads it).
type orderList []Order

func (o *orderList) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var one Order
		if err := json.Unmarshal(t, &one); err != nil {
			return err
		}
		*o = orderList{one}
		return nil
	}
	return json.Unmarshal(b, (*[]Order)(o))
}

// OffsetPage is one page of an offset-paged list.
type OffsetPage[T any] struct {
	Entries    []T     `json:"entries"`
	Limit      int     `json:"limit"`
	Offset     int     `json:"offset"`
	TotalCount int     `json:"total_count"`
	Order      []Order `json:"order,omitzero"`
}

// flexString decodes a JSON string, number or null.
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s = ""
		return nil
	}
	var str string
	if err := json.Unmarshal(b, &str); err == nil {
		*s = flexString(str)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*s = flexString(n.String())
	return nil
}

// flexInt decodes a JSON number, numeric string or null.
type flexInt int

func (i *flexInt) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*i = 0
		return nil
	}
	var s flexString
	if err := s.UnmarshalJSON(b); err != nil {
		return err
	}
	n, err := strconv.Atoi(string(s))
	if err != nil {
		return err
	}
	*i = flexInt(n)
	return nil
}

// markerPageFunc fetches the page that starts at marker ("" = first).
type markerPageFunc[T any] func(ctx context.Context, marker string) (*MarkerPage[T], *Response, error)

// offsetPageFunc fetches the page that starts at offset.
type offsetPageFunc[T any] func(ctx context.Context, offset int) (*OffsetPage[T], *Response, error)

// markerSeq lazily yields every entry from marker on. It stops on an empty
// or repeated next marker; an empty page that still has a next marker does
// not end the list.
func markerSeq[T any](ctx context.Context, marker string, fetch markerPageFunc[T]) iter.Seq2[T, error] {
	return pagesSeq[T, *MarkerPage[T]](ctx, func() *MarkerPaginator[T] { return newMarkerPaginator(marker, fetch) }, false)
}

// offsetSeq lazily yields every entry from offset on, following the
// service's documented rule: the next offset is the previous offset plus the
// previous limit, a short or empty page does not end the list (items the
// caller may not see are counted but not returned), and the list ends when
// the next offset reaches total_count.
func offsetSeq[T any](ctx context.Context, offset int, fetch offsetPageFunc[T]) iter.Seq2[T, error] {
	return pagesSeq[T, *OffsetPage[T]](ctx, func() *OffsetPaginator[T] { return newOffsetPaginator(offset, fetch) }, false)
}

// paginator is what pagesSeq walks: a MarkerPaginator or an
// OffsetPaginator.
type paginator[P any] interface {
	HasMorePages() bool
	NextPage(ctx context.Context) (P, *Response, error)
}

// pagesSeq yields the entries of page after page of a new paginator (made
// for each range over the sequence), reading one page ahead when ahead is
// set (drainAhead) or lazily (drain).
func pagesSeq[T any, P interface{ entries() []T }, G paginator[P]](ctx context.Context, newPaginator func() G, ahead bool) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		p := newPaginator()
		next := func(ctx context.Context) ([]T, error) {
			page, _, err := p.NextPage(ctx)
			if err != nil {
				return nil, err
			}
			return page.entries(), nil
		}
		if ahead {
			drainAhead(ctx, p.HasMorePages, next, yield)
		} else {
			drain(ctx, p.HasMorePages, next, yield)
		}
	}
}

// entries gives pagesSeq a page's entries.
func (p *MarkerPage[T]) entries() []T { return p.Entries }

// entries gives pagesSeq a page's entries.
func (p *OffsetPage[T]) entries() []T { return p.Entries }

// drain yields the entries of page after page while more reports there are
// some. It yields (zero, err) once on error, and stops when yield says so;
// the paginators check ctx before each page.
func drain[T any](ctx context.Context, more func() bool, next func(context.Context) ([]T, error), yield func(T, error) bool) {
	for more() {
		entries, err := next(ctx)
		if err != nil {
			var zero T
			yield(zero, err)
			return
		}
		for _, e := range entries {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// MarkerPaginator walks a marker-paged list one page at a time. Get one from
// a service's NewXPaginator method (for example
// FoldersService.NewListItemsByMarkerPaginator); the zero value is not
// usable. It stops on an empty or repeated next marker.
type MarkerPaginator[T any] struct {
	fetch  markerPageFunc[T]
	marker string
	first  bool
	done   bool
	seen   map[string]bool
}

// HasMorePages reports whether NextPage has a page to fetch.
func (p *MarkerPaginator[T]) HasMorePages() bool { return !p.done && (p.first || p.marker != "") }

// NextMarker returns the marker NextPage will send; keep it to resume later.
func (p *MarkerPaginator[T]) NextMarker() string { return p.marker }

// NextPage fetches the next page. After an error the paginator can be asked
// again: it retries the same page. A nil ctx is an *ArgError.
func (p *MarkerPaginator[T]) NextPage(ctx context.Context) (*MarkerPage[T], *Response, error) {
	if !p.HasMorePages() {
		return &MarkerPage[T]{}, nil, nil
	}
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	page, resp, err := p.fetch(ctx, p.marker)
	if err != nil {
		return nil, resp, err
	}
	p.first = false
	if p.marker != "" {
		p.seen[p.marker] = true
	}
	next := page.NextMarker
	if resp != nil {
		resp.NextMarker = next
	}
	if next == "" || p.seen[next] {
		p.done = true
	}
	p.marker = next
	return page, resp, nil
}

// OffsetPaginator walks an offset-paged list one page at a time. Get one
// from a service's NewXPaginator method (for example
// FoldersService.NewListItemsPaginator); the zero value is not usable. The
// next offset is the page's offset plus its limit; a short or empty page
// does not end the list, only reaching total_count does.
type OffsetPaginator[T any] struct {
	fetch  offsetPageFunc[T]
	offset int
	more   bool
}

// HasMorePages reports whether NextPage has a page to fetch.
func (p *OffsetPaginator[T]) HasMorePages() bool { return p.more }

// NextOffset returns the offset NextPage will send.
func (p *OffsetPaginator[T]) NextOffset() int { return p.offset }

// NextPage fetches the next page. After an error the paginator can be asked
// again: it retries the same page. A nil ctx is an *ArgError.
func (p *OffsetPaginator[T]) NextPage(ctx context.Context) (*OffsetPage[T], *Response, error) {
	if !p.more {
		return &OffsetPage[T]{}, nil, nil
	}
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	page, resp, err := p.fetch(ctx, p.offset)
	if err != nil {
		return nil, resp, err
	}
	start := page.Offset
	if start == 0 && p.offset > 0 {
		start = p.offset // a server that does not echo offset
	}
	step := page.Limit
	if step <= 0 {
		// No limit echoed: the page's length is the best guess, and an
		// empty page then cannot advance.
		step = len(page.Entries)
	}
	next := start + step
	if step <= 0 || next >= page.TotalCount {
		p.more = false
	}
	p.offset = next
	return page, resp, nil
}

// newMarkerPaginator and newOffsetPaginator build paginators for the
// services' NewXPaginator methods.
func newMarkerPaginator[T any](marker string, fetch markerPageFunc[T]) *MarkerPaginator[T] {
	return &MarkerPaginator[T]{fetch: fetch, marker: marker, first: true, seen: map[string]bool{}}
}

func newOffsetPaginator[T any](offset int, fetch offsetPageFunc[T]) *OffsetPaginator[T] {
	return &OffsetPaginator[T]{fetch: fetch, offset: offset, more: true}
}

// Collection is an unpaged list the service returns whole, such as the tasks
// of a file or the assignments of a task ({"total_count", "entries"}).
type Collection[T any] struct {
	TotalCount int `json:"total_count"`
	Entries    []T `json:"entries"`
}
