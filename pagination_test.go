package cms

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cannedMarker serves pages of ints keyed by marker.
func cannedMarker(pages map[string]*MarkerPage[int], calls *[]string) markerPageFunc[int] {
	return func(_ context.Context, marker string) (*MarkerPage[int], *Response, error) {
		*calls = append(*calls, marker)
		p, ok := pages[marker]
		if !ok {
			return nil, nil, fmt.Errorf("no page %q", marker)
		}
		return p, &Response{}, nil
	}
}

func collect[T any](t *testing.T, seq func(func(T, error) bool)) ([]T, error) {
	t.Helper()
	var got []T
	for v, err := range seq {
		if err != nil {
			return got, err
		}
		got = append(got, v)
	}
	return got, nil
}

func TestMarkerSeq(t *testing.T) {
	t.Parallel()
	t.Run("follows markers to the end", func(t *testing.T) {
		var calls []string
		f := cannedMarker(map[string]*MarkerPage[int]{
			"":   {Entries: []int{1, 2}, NextMarker: "m1"},
			"m1": {Entries: []int{3}, NextMarker: "m2"},
			"m2": {Entries: []int{4}},
		}, &calls)
		got, err := collect(t, markerSeq(context.Background(), "", f))
		require.NoError(t, err)
		assert.Equal(t, []int{1, 2, 3, 4}, got)
		assert.Equal(t, []string{"", "m1", "m2"}, calls)
	})
	t.Run("stops on a repeated marker", func(t *testing.T) {
		var calls []string
		f := cannedMarker(map[string]*MarkerPage[int]{
			"":  {Entries: []int{1}, NextMarker: "a"},
			"a": {Entries: []int{2}, NextMarker: "a"},
		}, &calls)
		got, err := collect(t, markerSeq(context.Background(), "", f))
		require.NoError(t, err)
		assert.Equal(t, []int{1, 2}, got)
		assert.Len(t, calls, 2)
	})
	t.Run("an empty page with a next marker does not end the list", func(t *testing.T) {
		var calls []string
		f := cannedMarker(map[string]*MarkerPage[int]{
			"":   {Entries: []int{1}, NextMarker: "m1"},
			"m1": {Entries: nil, NextMarker: "m2"},
			"m2": {Entries: []int{2}},
		}, &calls)
		got, err := collect(t, markerSeq(context.Background(), "", f))
		require.NoError(t, err)
		assert.Equal(t, []int{1, 2}, got)
		assert.Equal(t, []string{"", "m1", "m2"}, calls)
	})
	t.Run("error mid-stream is yielded once", func(t *testing.T) {
		var calls []string
		f := cannedMarker(map[string]*MarkerPage[int]{"": {Entries: []int{1}, NextMarker: "gone"}}, &calls)
		var errs int
		var vals []int
		for v, err := range markerSeq(context.Background(), "", f) {
			if err != nil {
				errs++
				continue
			}
			vals = append(vals, v)
		}
		assert.Equal(t, 1, errs)
		assert.Equal(t, []int{1}, vals)
	})
	t.Run("early break fetches no more pages", func(t *testing.T) {
		var calls []string
		f := cannedMarker(map[string]*MarkerPage[int]{"": {Entries: []int{1, 2}, NextMarker: "m"}, "m": {Entries: []int{3}}}, &calls)
		for range markerSeq(context.Background(), "", f) {
			break
		}
		assert.Equal(t, []string{""}, calls)
	})
	t.Run("lazy: nothing sent until ranged", func(t *testing.T) {
		var calls []string
		_ = markerSeq(context.Background(), "", cannedMarker(nil, &calls))
		assert.Empty(t, calls)
	})
	t.Run("cancelled ctx stops before the next page", func(t *testing.T) {
		var calls []string
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		f := cannedMarker(map[string]*MarkerPage[int]{"": {Entries: []int{1}, NextMarker: "m"}, "m": {Entries: []int{2}}}, &calls)
		var err error
		for _, e := range markerSeq(ctx, "", f) {
			cancel()
			err = e
		}
		assert.ErrorIs(t, err, context.Canceled)
		assert.Len(t, calls, 1)
	})
	t.Run("paginator exposes the marker to resume", func(t *testing.T) {
		var calls []string
		f := cannedMarker(map[string]*MarkerPage[int]{"": {Entries: []int{1}, NextMarker: "m"}, "m": {Entries: []int{2}}}, &calls)
		p := newMarkerPaginator("", f)
		page, resp, err := p.NextPage(context.Background())
		require.NoError(t, err)
		assert.Equal(t, []int{1}, page.Entries)
		assert.Equal(t, "m", resp.NextMarker)
		assert.Equal(t, "m", p.NextMarker())
		resumed, err := collect(t, markerSeq(context.Background(), p.NextMarker(), f))
		require.NoError(t, err)
		assert.Equal(t, []int{2}, resumed)
	})
}

func TestOffsetSeq(t *testing.T) {
	t.Parallel()
	// A list of n entries served limit at a time.
	list := func(n, limit, total int, calls *[]int) offsetPageFunc[int] {
		return func(_ context.Context, offset int) (*OffsetPage[int], *Response, error) {
			*calls = append(*calls, offset)
			p := &OffsetPage[int]{Limit: limit, Offset: offset, TotalCount: total}
			for i := offset; i < min(offset+limit, n); i++ {
				p.Entries = append(p.Entries, i)
			}
			return p, &Response{}, nil
		}
	}
	tests := []struct {
		name         string
		n, lim, tot  int
		wantN        int
		wantRequests []int
	}{
		{"exact multiple stops at total_count", 6, 3, 6, 6, []int{0, 3}},
		{"short last page", 7, 3, 7, 7, []int{0, 3, 6}},
		{"short and empty pages do not end the list", 4, 3, 10, 4, []int{0, 3, 6, 9}},
		{"empty list", 0, 3, 0, 0, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls []int
			got, err := collect(t, offsetSeq(context.Background(), 0, list(tt.n, tt.lim, tt.tot, &calls)))
			require.NoError(t, err)
			assert.Len(t, got, tt.wantN)
			assert.Equal(t, tt.wantRequests, calls)
		})
	}
	t.Run("hidden entries: short and empty pages in the middle", func(t *testing.T) {
		// 10 counted entries, of which 1, 3, 4, 5 and 7 are hidden: the
		// page at 3 is empty, yet 8 and 9 follow.
		hidden := map[int]bool{1: true, 3: true, 4: true, 5: true, 7: true}
		var calls []int
		f := func(_ context.Context, offset int) (*OffsetPage[int], *Response, error) {
			calls = append(calls, offset)
			p := &OffsetPage[int]{Limit: 3, Offset: offset, TotalCount: 10}
			for i := offset; i < min(offset+3, 10); i++ {
				if !hidden[i] {
					p.Entries = append(p.Entries, i)
				}
			}
			return p, &Response{}, nil
		}
		got, err := collect(t, offsetSeq(context.Background(), 0, f))
		require.NoError(t, err)
		assert.Equal(t, []int{0, 2, 6, 8, 9}, got)
		assert.Equal(t, []int{0, 3, 6, 9}, calls)
	})
	t.Run("a page without limit cannot advance past an empty page", func(t *testing.T) {
		var calls []int
		f := func(_ context.Context, offset int) (*OffsetPage[int], *Response, error) {
			calls = append(calls, offset)
			return &OffsetPage[int]{TotalCount: 5}, &Response{}, nil
		}
		got, err := collect(t, offsetSeq(context.Background(), 0, f))
		require.NoError(t, err)
		assert.Empty(t, got)
		assert.Equal(t, []int{0}, calls)
	})
	t.Run("error is yielded once and stops", func(t *testing.T) {
		n := 0
		f := func(_ context.Context, offset int) (*OffsetPage[int], *Response, error) {
			n++
			if offset > 0 {
				return nil, nil, errors.New("boom")
			}
			return &OffsetPage[int]{Entries: []int{1, 2}, Limit: 2, TotalCount: 10}, nil, nil
		}
		got, err := collect(t, offsetSeq(context.Background(), 0, f))
		assert.EqualError(t, err, "boom")
		assert.Equal(t, []int{1, 2}, got)
		assert.Equal(t, 2, n)
	})
}

func TestMarkerPageLenientMarkers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"entries":[],"next_marker":"abc"}`: "abc",
		`{"entries":[],"next_marker":12345}`: "12345",
		`{"entries":[],"next_marker":null}`:  "",
		`{"entries":[]}`:                     "",
	} {
		var p MarkerPage[int]
		require.NoError(t, p.UnmarshalJSON([]byte(in)), in)
		assert.Equal(t, want, p.NextMarker, in)
	}
}
