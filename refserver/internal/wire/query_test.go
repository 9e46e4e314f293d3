package wire

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPositionEntries pins the marker pages by position (governance lists,
// metadata templates): next_marker is the start of the next page,
// prev_marker the start of the page before, each null where there is none;
// a marker past the end gives an empty page.
func TestPositionEntries(t *testing.T) {
	t.Parallel()
	list := []int{10, 11, 12, 13, 14}
	render := func(v int) int { return v }
	page := func(marker int64, has bool) map[string]any {
		return PositionEntries(list, Page{Limit: 2, UseMarker: true, Marker: marker, HasMarker: has}, render)
	}
	first := page(0, false)
	assert.Equal(t, []any{10, 11}, first["entries"])
	assert.Equal(t, EncodeMarker(2), first["next_marker"])
	assert.Nil(t, first["prev_marker"])
	assert.EqualValues(t, 2, first["limit"])
	mid := page(3, true)
	assert.Equal(t, []any{13, 14}, mid["entries"])
	assert.Nil(t, mid["next_marker"])
	assert.Equal(t, EncodeMarker(1), mid["prev_marker"])
	past := page(9, true)
	assert.Equal(t, []any{}, past["entries"])
	assert.Nil(t, past["next_marker"])
	assert.Equal(t, EncodeMarker(3), past["prev_marker"])
}

// TestParseMarkerPage: limit (default 100, lowered to 1000, 0 refused)
// and an opaque marker; offset is not read by marker-only lists.
func TestParseMarkerPage(t *testing.T) {
	t.Parallel()
	parse := func(query string) (Page, *Error) {
		v, err := url.ParseQuery(query)
		require.NoError(t, err)
		return ParseMarkerPage(v)
	}
	q, aerr := parse("")
	require.Nil(t, aerr)
	assert.Equal(t, Page{Limit: 100, UseMarker: true}, q)
	q, aerr = parse("limit=5000&offset=99999&marker=" + EncodeMarker(7))
	require.Nil(t, aerr)
	assert.Equal(t, Page{Limit: 1000, UseMarker: true, HasMarker: true, Marker: 7}, q)
	for _, bad := range []string{"limit=0", "limit=x", "marker=nope"} {
		_, aerr = parse(bad)
		require.NotNil(t, aerr, bad)
		assert.Equal(t, CodeBadRequest, aerr.Code, bad)
	}
}

// TestRemoveKeyed: the value leaves its key's list; the key goes with the
// list's last value.
func TestRemoveKeyed(t *testing.T) {
	t.Parallel()
	m := map[string][]int{"a": {1, 2}, "b": {3}}
	RemoveKeyed(m, "a", 1)
	RemoveKeyed(m, "b", 3)
	RemoveKeyed(m, "c", 4)
	assert.Equal(t, map[string][]int{"a": {2}}, m)
}
