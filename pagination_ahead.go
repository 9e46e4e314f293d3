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
