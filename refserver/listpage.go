package refserver

import (
	"net/http"
	"sort"
)

// listPage is how a list of users, groups, memberships or device pins is
// paged: offset and limit, or (marker lists) the key after which the page
// starts.
type listPage struct {
	offset, limit int64
	useMarker     bool
	after         int64 // marker: entries with a key above this one
	hasAfter      bool
}

// parseListPage reads offset (at most 10000, as the spec says for these
// lists), limit (default 100, at most 1000) and, when marker is true,
// usemarker and marker (an opaque marker from an earlier page; sending one
// implies usemarker).
func parseListPage(r *http.Request, marker bool) (listPage, *apiError) {
	var q listPage
	var aerr *apiError
	if q.offset, aerr = queryInt(r, "offset", 0); aerr != nil {
		return q, aerr
	}
	if q.offset > maxListOffset {
		return q, errBadRequest("Invalid value for \"offset\": at most %d", maxListOffset)
	}
	if q.limit, aerr = pageLimit(r, 100, 1000); aerr != nil {
		return q, aerr
	}
	if !marker {
		return q, nil
	}
	if q.useMarker, aerr = queryBool(r, "usemarker"); aerr != nil {
		return q, aerr
	}
	if m := r.URL.Query().Get("marker"); m != "" {
		pos, ok := decodeMarker(m)
		if !ok {
			return q, errBadRequest("Invalid value for \"marker\"")
		}
		q.useMarker, q.after, q.hasAfter = true, pos, true
	}
	return q, nil
}

// offsetEntries is an offset page of list: {entries, limit, offset,
// total_count}.
func offsetEntries[T any](list []T, q listPage, render func(T) any) map[string]any {
	total := int64(len(list))
	start := min(q.offset, total)
	end := min(start+q.limit, total)
	entries := make([]any, 0, end-start)
	for _, e := range list[start:end] {
		entries = append(entries, render(e))
	}
	return map[string]any{"entries": entries, "limit": q.limit, "offset": q.offset, "total_count": total}
}

// markerEntries is a marker page of list (sorted by key): {entries, limit,
// next_marker}; next_marker is null on the last page. Markers name the
// last key returned, so a page stays right when entries come or go.
func markerEntries[T any](list []T, q listPage, key func(T) int64, render func(T) any) map[string]any {
	start := 0
	if q.hasAfter {
		start = sort.Search(len(list), func(i int) bool { return key(list[i]) > q.after })
	}
	end := min(start+int(q.limit), len(list))
	entries := make([]any, 0, end-start)
	for _, e := range list[start:end] {
		entries = append(entries, render(e))
	}
	out := map[string]any{"entries": entries, "limit": q.limit, "next_marker": nil}
	if end < len(list) {
		out["next_marker"] = encodeMarker(key(list[end-1]))
	}
	return out
}
