package wire

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// QueryInt reads an optional non-negative integer query parameter.
func QueryInt(q url.Values, name string, def int64) (int64, *Error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, BadRequest("Invalid value for %q", name)
	}
	return n, nil
}

// PageLimit reads limit with a default and a maximum (a larger value is
// lowered to the maximum).
func PageLimit(q url.Values, def, max int64) (int64, *Error) {
	n, aerr := QueryInt(q, "limit", def)
	if aerr != nil {
		return 0, aerr
	}
	if n == 0 {
		return 0, BadRequest("Invalid value for \"limit\"")
	}
	return min(n, max), nil
}

// QueryBool reads an optional boolean query parameter.
func QueryBool(q url.Values, name string) (bool, *Error) {
	v := q.Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, BadRequest("Invalid value for %q", name)
	}
	return b, nil
}

// EncodeMarker and DecodeMarker make an opaque marker from a position.
func EncodeMarker(pos int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("pos:" + strconv.FormatInt(pos, 10)))
}

// DecodeMarker reads a marker EncodeMarker made; false for anything else
// (or a negative position).
func DecodeMarker(m string) (int64, bool) {
	b, err := base64.RawURLEncoding.DecodeString(m)
	if err != nil || !bytes.HasPrefix(b, []byte("pos:")) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(b[4:]), 10, 64)
	return n, err == nil && n >= 0
}

// CompareIDs orders numeric ids as numbers (shorter first, then by digits),
// for lists sorted by id.
func CompareIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// Page is how a list is paged: offset and limit, or (marker lists)
// limit and the marker of an earlier page.
type Page struct {
	Offset, Limit int64
	UseMarker     bool
	HasMarker     bool
	Marker        int64 // decoded: the key after which the page starts (MarkerEntries) or its position (PositionEntries)
}

// The page size of the paged lists: limit defaults to 100, and a larger
// value than 1000 is lowered to 1000.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
)

// MaxListOffset is the largest offset of the offset-paged lists: the spec
// says of users, groups, memberships and the trash (get_folders_trash_items)
// that "queries with offset parameter value exceeding 10000 will be
// rejected with a 400 response".
const MaxListOffset = 10000

// QueryOffset reads offset (default 0) for a list that caps it: above
// MaxListOffset is 400 bad_request. The spec gives the status without a
// code; bad_request is the code of the other malformed query parameters.
func QueryOffset(q url.Values) (int64, *Error) {
	offset, aerr := QueryInt(q, "offset", 0)
	if aerr != nil {
		return 0, aerr
	}
	if offset > MaxListOffset {
		return 0, BadRequest("Invalid value for \"offset\": at most %d", MaxListOffset)
	}
	return offset, nil
}

// readMarker reads marker, an opaque marker of an earlier page
// (EncodeMarker): 400 bad_request for one this server did not make.
func (q *Page) readMarker(v url.Values) *Error {
	m := v.Get("marker")
	if m == "" {
		return nil
	}
	pos, ok := DecodeMarker(m)
	if !ok {
		return BadRequest("Invalid value for \"marker\"")
	}
	q.UseMarker, q.Marker, q.HasMarker = true, pos, true
	return nil
}

// ParseListPage reads offset (QueryOffset), limit and, when marker is
// true, usemarker and marker (sending one implies usemarker).
func ParseListPage(v url.Values, marker bool) (Page, *Error) {
	var q Page
	var aerr *Error
	if q.Offset, aerr = QueryOffset(v); aerr != nil {
		return q, aerr
	}
	if q.Limit, aerr = PageLimit(v, DefaultPageLimit, MaxPageLimit); aerr != nil {
		return q, aerr
	}
	if !marker {
		return q, nil
	}
	if q.UseMarker, aerr = QueryBool(v, "usemarker"); aerr != nil {
		return q, aerr
	}
	return q, q.readMarker(v)
}

// ParseMarkerPage reads limit and marker of a list paged by marker only
// (offset is not read).
func ParseMarkerPage(v url.Values) (Page, *Error) {
	q := Page{UseMarker: true}
	var aerr *Error
	if q.Limit, aerr = PageLimit(v, DefaultPageLimit, MaxPageLimit); aerr != nil {
		return q, aerr
	}
	return q, q.readMarker(v)
}

// RenderEach renders every entry of list.
func RenderEach[T, R any](list []T, render func(T) R) []any {
	out := make([]any, 0, len(list))
	for _, e := range list {
		out = append(out, render(e))
	}
	return out
}

// RemoveFrom returns list without x, keeping the order (in place; the
// slots freed at the end are cleared).
func RemoveFrom[T comparable](list []T, x T) []T {
	return slices.DeleteFunc(list, func(v T) bool { return v == x })
}

// RemoveKeyed removes x from the list of m under key, and the key with the
// list once it is empty (indexes of records by their parent).
func RemoveKeyed[K, T comparable](m map[K][]T, key K, x T) {
	if rest := RemoveFrom(m[key], x); len(rest) > 0 {
		m[key] = rest
	} else {
		delete(m, key)
	}
}

// OffsetEntries is an offset page of list: {entries, limit, offset,
// total_count}. Entries for which hidden is true keep their place (they
// count in total_count and in the offset/limit window) but are left out, as
// the service does with records the caller may not see (HideFromPages).
func OffsetEntries[T any](list []T, q Page, hidden func(T) bool, render func(T) any) map[string]any {
	total := int64(len(list))
	start := min(q.Offset, total)
	end := min(start+q.Limit, total)
	entries := make([]any, 0, end-start)
	for _, e := range list[start:end] {
		if !hidden(e) {
			entries = append(entries, render(e))
		}
	}
	return map[string]any{"entries": entries, "limit": q.Limit, "offset": q.Offset, "total_count": total}
}

// MarkerEntries is a marker page of list (sorted by key): {entries, limit,
// next_marker}; next_marker is null on the last page. Markers name the
// last key returned, so a page stays right when entries come or go.
func MarkerEntries[T any](list []T, q Page, key func(T) int64, render func(T) any) map[string]any {
	start := 0
	if q.HasMarker {
		start = sort.Search(len(list), func(i int) bool { return key(list[i]) > q.Marker })
	}
	end := min(start+int(q.Limit), len(list))
	out := map[string]any{"entries": RenderEach(list[start:end], render), "limit": q.Limit, "next_marker": nil}
	if end < len(list) {
		out["next_marker"] = EncodeMarker(key(list[end-1]))
	}
	return out
}

// PositionEntries is a marker page of list by position: {entries, limit,
// next_marker, prev_marker}, markers being positions in the list (the
// start of the next page; the start of the page before); next_marker is
// null on the last page, prev_marker on the first.
func PositionEntries[T, R any](list []T, q Page, render func(T) R) map[string]any {
	total := int64(len(list))
	start := min(q.Marker, total)
	end := min(start+q.Limit, total)
	out := map[string]any{"entries": RenderEach(list[start:end], render), "limit": q.Limit, "next_marker": nil, "prev_marker": nil}
	if end < total {
		out["next_marker"] = EncodeMarker(end)
	}
	if start > 0 {
		out["prev_marker"] = EncodeMarker(max(start-q.Limit, 0))
	}
	return out
}
