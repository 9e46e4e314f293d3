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

// maxListOffset is the largest offset of the offset-paged lists: the spec
// says of users, groups, memberships and the trash (get_folders_trash_items)
// that "queries with offset parameter value exceeding 10000 will be
// rejected with a 400 response".
const maxListOffset = 10000

// queryOffset reads offset (default 0) for a list that caps it: above
// maxListOffset is 400 bad_request. The spec gives the status without a
// code; bad_request is the code of the other malformed query parameters.
func queryOffset(r *http.Request) (int64, *apiError) {
	offset, aerr := queryInt(r, "offset", 0)
	if aerr != nil {
		return 0, aerr
	}
	if offset > maxListOffset {
		return 0, errBadRequest("Invalid value for \"offset\": at most %d", maxListOffset)
	}
	return offset, nil
}

// parseListPage reads offset (queryOffset), limit (default 100, at most
// 1000) and, when marker is true, usemarker and marker (an opaque marker
// from an earlier page; sending one implies usemarker).
func parseListPage(r *http.Request, marker bool) (listPage, *apiError) {
	var q listPage
	var aerr *apiError
	if q.offset, aerr = queryOffset(r); aerr != nil {
		return q, aerr
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
