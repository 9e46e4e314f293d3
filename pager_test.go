package cms

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPageFuncs: the page-function builder starts at the options'
// position, lists private copies with the position set, and never reads or
// changes the caller's struct (slices included) after it returns.
func TestPageFuncs(t *testing.T) {
	t.Parallel()
	opts := &ListUsersByMarkerOptions{Marker: "m0", Fields: []string{"name"}, Limit: 2}
	var seen []ListUsersByMarkerOptions
	list := func(_ context.Context, o *ListUsersByMarkerOptions) (*MarkerPage[*User], *Response, error) {
		seen = append(seen, *o)
		o.Fields[0] = "changed by the callee" // a copy's slice is not the caller's
		return &MarkerPage[*User]{}, nil, nil
	}
	start, fetch := pageFuncs(opts, func(o *ListUsersByMarkerOptions) *string { return &o.Marker }, list)
	assert.Equal(t, "m0", start)
	opts.Fields[0] = "changed by the caller"
	opts.Limit = 9
	_, _, err := fetch(context.Background(), "m1")
	require.NoError(t, err)
	require.Len(t, seen, 1)
	assert.Equal(t, "m1", seen[0].Marker)
	assert.Equal(t, 2, seen[0].Limit)
	assert.Equal(t, "changed by the callee", seen[0].Fields[0])
	assert.Equal(t, "changed by the caller", opts.Fields[0])
	assert.Equal(t, "m0", opts.Marker)

	start2, fetch2 := pageFuncs((*ListGroupsOptions)(nil), func(o *ListGroupsOptions) *int { return &o.Offset },
		func(_ context.Context, o *ListGroupsOptions) (*OffsetPage[*Group], *Response, error) {
			return &OffsetPage[*Group]{Offset: o.Offset}, nil, nil
		})
	assert.Equal(t, 0, start2, "nil options start at the beginning")
	p, _, _ := fetch2(context.Background(), 40)
	assert.Equal(t, 40, p.Offset)
}
