package refserver

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
)

// listPage is how a list is paged: offset and limit, or (marker lists)
// limit and the marker of an earlier page.
type listPage struct {
	offset, limit int64
	useMarker     bool
	hasMarker     bool
	marker        int64 // decoded: the key after which the page starts (markerEntries) or its position (positionEntries)
}

// The page size of the paged lists: limit defaults to 100, and a larger
// value than 1000 is lowered to 1000.
const (
	defaultPageLimit = 100
	maxPageLimit     = 1000
)

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

// readMarker reads marker, an opaque marker of an earlier page
// (encodeMarker): 400 bad_request for one this server did not make.
func (q *listPage) readMarker(r *http.Request) *apiError {
	m := r.URL.Query().Get("marker")
	if m == "" {
		return nil
	}
	pos, ok := decodeMarker(m)
	if !ok {
		return errBadRequest("Invalid value for \"marker\"")
	}
	q.useMarker, q.marker, q.hasMarker = true, pos, true
	return nil
}

// parseListPage reads offset (queryOffset), limit and, when marker is
// true, usemarker and marker (sending one implies usemarker).
func parseListPage(r *http.Request, marker bool) (listPage, *apiError) {
	var q listPage
	var aerr *apiError
	if q.offset, aerr = queryOffset(r); aerr != nil {
		return q, aerr
	}
	if q.limit, aerr = pageLimit(r, defaultPageLimit, maxPageLimit); aerr != nil {
		return q, aerr
	}
	if !marker {
		return q, nil
	}
	if q.useMarker, aerr = queryBool(r, "usemarker"); aerr != nil {
		return q, aerr
	}
	return q, q.readMarker(r)
}

// parseMarkerPage reads limit and marker of a list paged by marker only
// (offset is not read).
func parseMarkerPage(r *http.Request) (listPage, *apiError) {
	q := listPage{useMarker: true}
	var aerr *apiError
	if q.limit, aerr = pageLimit(r, defaultPageLimit, maxPageLimit); aerr != nil {
		return q, aerr
	}
	return q, q.readMarker(r)
}

// renderEach renders every entry of list.
func renderEach[T, R any](list []T, render func(T) R) []any {
	out := make([]any, 0, len(list))
	for _, e := range list {
		out = append(out, render(e))
	}
	return out
}

// removeFrom returns list without x, keeping the order (in place; the
// slots freed at the end are cleared).
func removeFrom[T comparable](list []T, x T) []T {
	return slices.DeleteFunc(list, func(v T) bool { return v == x })
}

// offsetEntries is an offset page of list: {entries, limit, offset,
// total_count}. Entries for which hidden is true keep their place (they
// count in total_count and in the offset/limit window) but are left out, as
// the service does with records the caller may not see (HideFromPages).
func offsetEntries[T any](list []T, q listPage, hidden func(T) bool, render func(T) any) map[string]any {
	total := int64(len(list))
	start := min(q.offset, total)
	end := min(start+q.limit, total)
	entries := make([]any, 0, end-start)
	for _, e := range list[start:end] {
		if !hidden(e) {
			entries = append(entries, render(e))
		}
	}
	return map[string]any{"entries": entries, "limit": q.limit, "offset": q.offset, "total_count": total}
}

// markerEntries is a marker page of list (sorted by key): {entries, limit,
// next_marker}; next_marker is null on the last page. Markers name the
// last key returned, so a page stays right when entries come or go.
func markerEntries[T any](list []T, q listPage, key func(T) int64, render func(T) any) map[string]any {
	start := 0
	if q.hasMarker {
		start = sort.Search(len(list), func(i int) bool { return key(list[i]) > q.marker })
	}
	end := min(start+int(q.limit), len(list))
	out := map[string]any{"entries": renderEach(list[start:end], render), "limit": q.limit, "next_marker": nil}
	if end < len(list) {
		out["next_marker"] = encodeMarker(key(list[end-1]))
	}
	return out
}

// positionEntries is a marker page of list by position: {entries, limit,
// next_marker, prev_marker}, markers being positions in the list (the
// start of the next page; the start of the page before); next_marker is
// null on the last page, prev_marker on the first.
func positionEntries[T, R any](list []T, q listPage, render func(T) R) map[string]any {
	total := int64(len(list))
	start := min(q.marker, total)
	end := min(start+q.limit, total)
	out := map[string]any{"entries": renderEach(list[start:end], render), "limit": q.limit, "next_marker": nil, "prev_marker": nil}
	if end < total {
		out["next_marker"] = encodeMarker(end)
	}
	if start > 0 {
		out["prev_marker"] = encodeMarker(max(start-q.limit, 0))
	}
	return out
}

// HideFromPages makes the users, groups and group memberships with these
// ids invisible in the offset pages of their lists, as the service does
// with records the caller may not see: they still count in total_count and
// take their place in the offset/limit window, so the lists show short or
// empty pages while more entries follow (the next page is still at offset
// + limit). Reading a record by its id is unchanged. Files and folders have
// HideFromUsers. Like faults, this is a test setting and is not persisted.
// It fails, changing nothing, when an id is none of those records.
func (s *Server) HideFromPages(ids ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		_, isUser := s.users.byID[id]
		_, isGroup := s.groups.byID[id]
		_, isMembership := s.groups.memberships[id]
		if !isUser && !isGroup && !isMembership {
			return fmt.Errorf("refserver: no user, group or group membership %q", id)
		}
	}
	if s.pageHidden == nil {
		s.pageHidden = make(map[string]bool)
	}
	for _, id := range ids {
		s.pageHidden[id] = true
	}
	return nil
}

// userHidden, groupHidden and membershipHidden tell offsetEntries what
// HideFromPages hid. Callers hold s.mu.
func (s *Server) userHidden(u *user) bool             { return s.pageHidden[u.id] }
func (s *Server) groupHidden(g *group) bool           { return s.pageHidden[g.id] }
func (s *Server) membershipHidden(m *membership) bool { return s.pageHidden[m.id] }
