package cms

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRecentItemsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	kinds := []string{"item_preview", "item_upload", "item_comment", "item_open", "item_modify"}
	w.serve("GET /recent_items", markerPages(5, func(i int) string {
		return fmt.Sprintf(`{"type":"recent_item","item":{"id":"%d","type":"file","name":"f%d"},"interaction_type":"%s",
"interacted_at":"2026-01-02T03:04:0%dZ","interaction_shared_link":"https://example.com/s/%d"}`, i, i, kinds[i], i, i)
	}))
	ctx := context.Background()
	rs := w.e.client.RecentItems

	page, resp, err := rs.List(ctx, &ListRecentItemsOptions{Limit: 2, Fields: []string{"name", "size"}})
	require.NoError(t, err)
	assert.Equal(t, "fields=name%2Csize&limit=2", w.last(t).Query)
	assert.Equal(t, "m2", resp.NextMarker)
	require.Len(t, page.Entries, 2)
	f := page.Entries[1].Item
	assert.Equal(t, &RecentItem{Type: "recent_item", Item: f, InteractionType: InteractionTypeUpload,
		InteractedAt: time.Date(2026, 1, 2, 3, 4, 1, 0, time.UTC), InteractionSharedLink: "https://example.com/s/1"}, page.Entries[1])
	assert.Equal(t, &File{ID: "1", Type: "file", Name: "f1"}, f.File)

	n := w.count()
	var got []InteractionType
	for ri, err := range rs.ListIter(ctx, &ListRecentItemsOptions{Limit: 2}) {
		require.NoError(t, err)
		got = append(got, ri.InteractionType)
	}
	assert.Equal(t, []InteractionType{InteractionTypePreview, InteractionTypeUpload, InteractionTypeComment, InteractionTypeOpen, InteractionTypeModify}, got)
	calls := w.all()[n:]
	require.Len(t, calls, 3)
	assert.Equal(t, []string{"limit=2", "limit=2&marker=m2", "limit=2&marker=m4"}, []string{calls[0].Query, calls[1].Query, calls[2].Query})

	n = w.count()
	_, _, err = rs.List(ctx, &ListRecentItemsOptions{Limit: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("GET /recent_items", http.StatusUnauthorized, `{"type":"error","status":401,"code":"unauthorized","message":"Unauthorized"}`)
	_, _, err = w2.e.client.RecentItems.List(ctx, nil)
	assert.ErrorIs(t, err, ErrUnauthorized)
}
