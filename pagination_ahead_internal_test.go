package cms

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cannedRaw serves marker pages of two entries ("p<page>-<i>"); page fail
// fails, and markers may repeat.
func cannedRaw(pages int, fail int, fetched *atomic.Int32) rawPageFunc {
	return func(ctx context.Context, marker string) ([]byte, error) {
		fetched.Add(1)
		n := 0
		if marker != "" {
			fmt.Sscanf(marker, "m%d", &n)
		}
		if n == fail {
			return nil, errors.New("page failed")
		}
		next := "null"
		if n+1 < pages {
			next = fmt.Sprintf(`"m%d"`, n+1)
		}
		return fmt.Appendf(nil, `{"entries":["p%d-0","p%d-1"],"limit":2,"next_marker":%s}`, n, n, next), nil
	}
}

func TestMarkerSeqAhead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	collect := func(seq func(func(string, error) bool)) ([]string, []error) {
		var got []string
		var errs []error
		for v, err := range seq {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			got = append(got, v)
		}
		return got, errs
	}
	var fetched atomic.Int32
	got, errs := collect(markerSeqAhead[string](ctx, "", cannedRaw(3, -1, &fetched)))
	assert.Empty(t, errs)
	assert.Equal(t, []string{"p0-0", "p0-1", "p1-0", "p1-1", "p2-0", "p2-1"}, got)
	assert.EqualValues(t, 3, fetched.Load())

	got, errs = collect(markerSeqAhead[string](ctx, "", cannedRaw(5, 2, &fetched)))
	assert.Equal(t, []string{"p0-0", "p0-1", "p1-0", "p1-1"}, got, "the pages before the error")
	require.Len(t, errs, 1, "the error once, then the end")

	got, _ = collect(markerSeqAhead[string](ctx, "m3", cannedRaw(5, -1, &fetched)))
	assert.Equal(t, []string{"p3-0", "p3-1", "p4-0", "p4-1"}, got, "from a marker")

	fetched.Store(0)
	for range markerSeqAhead[string](ctx, "", cannedRaw(100, -1, &fetched)) {
		break
	}
	assert.LessOrEqual(t, fetched.Load(), int32(3), "a break stops the reader within the pages it may hold")

	repeat := func(ctx context.Context, marker string) ([]byte, error) {
		return []byte(`{"entries":["x"],"next_marker":"same"}`), nil
	}
	got, errs = collect(markerSeqAhead[string](ctx, "", repeat))
	assert.Empty(t, errs)
	assert.Equal(t, []string{"x", "x"}, got, "a repeated marker ends the list")

	numeric := func(ctx context.Context, marker string) ([]byte, error) {
		if marker == "" {
			return []byte(`{"entries":["a"],"next_marker":7}`), nil
		}
		return []byte(`{"entries":["b"],"next_marker":null}`), nil
	}
	got, _ = collect(markerSeqAhead[string](ctx, "", numeric))
	assert.Equal(t, []string{"a", "b"}, got, "numeric markers")
}

func TestTopLevelString(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`{"type":"file"}`, "file", true},
		{` { "id" : "1", "nested": {"type":"folder", "a":[1,"]",{"type":"x"}]}, "type" : "web_link" } `, "web_link", true},
		{`{"name":"a\"type\":\"x","type":"file"}`, "file", true},
		{`{"type":"fi\u006ce"}`, "", false},
		{`{"type":null}`, "", false},
		{`{"id":"1"}`, "", false},
		{`[{"type":"file"}]`, "", false},
		{`{"type":`, "", false},
		{`{"a":tru`, "", false},
		{``, "", false},
	} {
		got, ok := topLevelString([]byte(c.in), "type")
		assert.Equal(t, c.ok, ok, c.in)
		assert.Equal(t, c.want, got, c.in)
	}
}

func TestItemUnmarshalJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Item{
		`{"type":"file","id":"1","name":"a","etag":"2"}`:        {Type: "file", ID: "1", Name: "a", ETag: "2", File: &File{Type: "file", ID: "1", Name: "a", ETag: "2"}},
		`{"id":"1","type":"fi\u006ce","name":"a"}`:              {Type: "file", ID: "1", Name: "a", File: &File{Type: "file", ID: "1", Name: "a"}},
		`{"type":"folder","id":"3","name":"f"}`:                 {Type: "folder", ID: "3", Name: "f", Folder: &Folder{Type: "folder", ID: "3", Name: "f"}},
		`{"type":"web_link","id":"4","url":"https://x.test/"}`:  {Type: "web_link", ID: "4", WebLink: &WebLink{Type: "web_link", ID: "4", URL: "https://x.test/"}},
		`{"type":"collection","id":"5","name":"c","etag":null}`: {Type: "collection", ID: "5", Name: "c"},
	} {
		var got Item
		require.NoError(t, got.UnmarshalJSON([]byte(in)), in)
		assert.Equal(t, want, got, in)
	}
	var it Item
	assert.Error(t, it.UnmarshalJSON([]byte(`{"type":"file","size":"big"}`)))
	assert.Error(t, it.UnmarshalJSON([]byte(`{"type":"file"`)))
}

// TestOffsetSeqAhead: reading one page ahead yields the same entries from
// the same requests as offsetSeq (past short and empty pages, ending at
// total_count), stops within one page ahead on a break, yields an error
// once, and ends with the ctx.
func TestOffsetSeqAhead(t *testing.T) {
	t.Parallel()
	hidden := map[int]bool{1: true, 3: true, 4: true, 5: true, 7: true}
	pages := func(total, limit int, calls *[]int) offsetPageFunc[int] {
		return func(_ context.Context, offset int) (*OffsetPage[int], *Response, error) {
			*calls = append(*calls, offset)
			p := &OffsetPage[int]{Limit: limit, Offset: offset, TotalCount: total}
			for i := offset; i < min(offset+limit, total); i++ {
				if !hidden[i] {
					p.Entries = append(p.Entries, i)
				}
			}
			return p, &Response{}, nil
		}
	}
	for _, tc := range []struct{ total, limit int }{{0, 3}, {6, 3}, {7, 3}, {10, 3}, {10, 1}, {25, 4}} {
		var lazyCalls, aheadCalls []int
		lazy, err := collect(t, offsetSeq(context.Background(), 0, pages(tc.total, tc.limit, &lazyCalls)))
		require.NoError(t, err)
		ahead, err := collect(t, offsetSeqAhead(context.Background(), 0, pages(tc.total, tc.limit, &aheadCalls)))
		require.NoError(t, err)
		assert.Equal(t, lazy, ahead, "total %d limit %d", tc.total, tc.limit)
		assert.Equal(t, lazyCalls, aheadCalls, "total %d limit %d", tc.total, tc.limit)
	}

	t.Run("break stops within one page ahead", func(t *testing.T) {
		var calls []int
		for range offsetSeqAhead(context.Background(), 0, pages(100, 2, &calls)) {
			break
		}
		// The loop has returned, so the goroutine has ended: calls is stable.
		assert.LessOrEqual(t, len(calls), 3)
	})
	t.Run("error is yielded once", func(t *testing.T) {
		f := func(_ context.Context, offset int) (*OffsetPage[int], *Response, error) {
			if offset > 0 {
				return nil, nil, errors.New("boom")
			}
			return &OffsetPage[int]{Entries: []int{1, 2}, Limit: 2, TotalCount: 10}, nil, nil
		}
		got, err := collect(t, offsetSeqAhead(context.Background(), 0, f))
		assert.EqualError(t, err, "boom")
		assert.Equal(t, []int{1, 2}, got)
	})
	t.Run("cancelled while a fetch is in flight", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		f := func(ctx context.Context, offset int) (*OffsetPage[int], *Response, error) {
			if offset > 0 {
				cancel()
				<-ctx.Done()
				return nil, nil, ctx.Err()
			}
			return &OffsetPage[int]{Entries: []int{1}, Limit: 1, TotalCount: 10}, nil, nil
		}
		got, err := collect(t, offsetSeqAhead(ctx, 0, f))
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, []int{1}, got)
	})
	t.Run("nil ctx is an ArgError", func(t *testing.T) {
		var calls []int
		//lint:ignore SA1012 the nil ctx is the point
		_, err := collect(t, offsetSeqAhead(nil, 0, pages(3, 1, &calls))) //nolint:staticcheck
		var argErr *ArgError
		assert.ErrorAs(t, err, &argErr)
		assert.Empty(t, calls)
	})
}

// TestMarkerSeqMaybeAhead: the typed marker read-ahead yields what
// markerSeq yields, from the same requests, past an empty page.
func TestMarkerSeqMaybeAhead(t *testing.T) {
	t.Parallel()
	canned := map[string]*MarkerPage[int]{
		"":   {Entries: []int{1, 2}, NextMarker: "m1"},
		"m1": {Entries: nil, NextMarker: "m2"},
		"m2": {Entries: []int{3}, NextMarker: "m3"},
		"m3": {Entries: []int{4}},
	}
	var lazyCalls, aheadCalls []string
	lazy, err := collect(t, markerSeqMaybeAhead(context.Background(), "", cannedMarker(canned, &lazyCalls), false))
	require.NoError(t, err)
	ahead, err := collect(t, markerSeqMaybeAhead(context.Background(), "", cannedMarker(canned, &aheadCalls), true))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3, 4}, ahead)
	assert.Equal(t, lazy, ahead)
	assert.Equal(t, lazyCalls, aheadCalls)
}
