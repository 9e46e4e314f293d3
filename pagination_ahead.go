package cms

import (
	"context"
	"iter"
)

// rawPageFunc fetches the page that starts at marker ("" = first) without
// decoding it.
type rawPageFunc func(ctx context.Context, marker string) ([]byte, error)

// markerSeqAhead yields every entry from marker on, like markerSeq, but
// reads one page ahead: a goroutine fetches each page, finds its next marker
// with a quick look at the top-level keys and fetches the next page while
// the loop decodes and ranges over the current one. So the service prepares
// page n+1 while the client decodes page n. At most two fetched pages wait
// besides the one being decoded; a break or an error stops the goroutine
// (the page it was fetching is dropped).
func markerSeqAhead[T any](ctx context.Context, marker string, fetch rawPageFunc) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		type fetched struct {
			body []byte
			err  error
		}
		pages := make(chan fetched, 1)
		go func() {
			defer close(pages)
			seen := map[string]bool{}
			for first := true; first || marker != ""; first = false {
				if err := ctx.Err(); err != nil {
					pages <- fetched{err: err}
					return
				}
				body, err := fetch(ctx, marker)
				var next string
				if err == nil {
					next, err = peekNextMarker(body)
				}
				pages <- fetched{body, err}
				if err != nil {
					return
				}
				seen[marker] = true
				if seen[next] {
					return // a repeated marker ends the list, as in markerSeq
				}
				marker = next
			}
		}()
		defer func() {
			cancel()
			for range pages { // let the goroutine end
			}
		}()
		var zero T
		for p := range pages {
			if p.err != nil {
				yield(zero, p.err)
				return
			}
			var page MarkerPage[T]
			if err := decodeJSON(p.body, &page); err != nil {
				yield(zero, err)
				return
			}
			for _, e := range page.Entries {
				if !yield(e, nil) {
					return
				}
			}
		}
	}
}

// peekNextMarker returns a marker page's next_marker ("" when it is null,
// empty or missing), looking only at the top-level keys when the marker is
// a plain string.
func peekNextMarker(body []byte) (string, error) {
	if m, ok := topLevelString(body, "next_marker"); ok {
		return m, nil
	}
	var w struct {
		NextMarker flexString `json:"next_marker"`
	}
	if err := decodeJSON(body, &w); err != nil {
		return "", err
	}
	return string(w.NextMarker), nil
}

// offsetSeqAhead is offsetSeq reading one page ahead (drainAhead): the
// next offset is known from the page before (offset + limit), so the request
// for page n+1 is on its way while the loop ranges over page n. The same
// rule ends the list (the next offset reaching total_count); short and empty
// pages do not.
func offsetSeqAhead[T any](ctx context.Context, offset int, fetch offsetPageFunc[T]) iter.Seq2[T, error] {
	return pagesSeq[T, *OffsetPage[T]](ctx, func() *OffsetPaginator[T] { return newOffsetPaginator(offset, fetch) }, true)
}

// offsetSeqMaybeAhead is offsetSeqAhead when ahead is set, else offsetSeq.
func offsetSeqMaybeAhead[T any](ctx context.Context, offset int, fetch offsetPageFunc[T], ahead bool) iter.Seq2[T, error] {
	if ahead {
		return offsetSeqAhead(ctx, offset, fetch)
	}
	return offsetSeq(ctx, offset, fetch)
}

// markerSeqMaybeAhead is markerSeq reading one page ahead (drainAhead)
// when ahead is set: the typed counterpart of markerSeqAhead, for lists
// whose pages are decoded as they arrive.
func markerSeqMaybeAhead[T any](ctx context.Context, marker string, fetch markerPageFunc[T], ahead bool) iter.Seq2[T, error] {
	return pagesSeq[T, *MarkerPage[T]](ctx, func() *MarkerPaginator[T] { return newMarkerPaginator(marker, fetch) }, ahead)
}

// drainAhead is drain reading one page ahead: a goroutine fetches page
// after page (next) while the loop yields the entries of the page before,
// so the service prepares and the client decodes page n+1 while the caller
// works through page n. At most one fetched page waits besides the one
// being yielded. A break or an error cancels the fetch in flight and waits
// for the goroutine to end, so no request outlives the loop; more and next
// are only ever called from that goroutine.
func drainAhead[T any](ctx context.Context, more func() bool, next func(context.Context) ([]T, error), yield func(T, error) bool) {
	if err := checkCtx(ctx); err != nil {
		var zero T
		yield(zero, err)
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	type fetched struct {
		entries []T
		err     error
	}
	pages := make(chan fetched, 1)
	go func() {
		defer close(pages)
		for more() {
			entries, err := next(ctx)
			// The loop reads every page it is sent, and after a break its
			// deferred drain does: this send never blocks for good.
			pages <- fetched{entries, err}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		cancel()
		for range pages { // let the goroutine end
		}
	}()
	for p := range pages {
		if p.err != nil {
			var zero T
			yield(zero, p.err)
			return
		}
		for _, e := range p.entries {
			if !yield(e, nil) {
				return
			}
		}
	}
}
