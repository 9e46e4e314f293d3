package cms

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	b := ItemRef{Type: ItemTypeFile, ID: "1"}
	sweepBodies[reflect.TypeOf(b)] = b
}

func TestCollectionsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.serve("GET /collections", offsetPages(3, func(i int) string {
		if i == 2 {
			return `{"id":"f1","type":"collection","name":"Favorites","collection_type":"favorites"}`
		}
		return fmt.Sprintf(`{"id":"c%d","type":"collection","name":"Other %d"}`, i, i)
	}))
	w.answer("GET /collections/{id}", http.StatusOK, `{"id":"f1","type":"collection","name":"Favorites","collection_type":"favorites"}`)
	w.serve("GET /collections/{id}/items", offsetPages(5, func(i int) string {
		switch i % 3 {
		case 0:
			return fmt.Sprintf(`{"id":"%d","type":"file","name":"f%d.txt","etag":"1"}`, i, i)
		case 1:
			return fmt.Sprintf(`{"id":"%d","type":"folder","name":"d%d"}`, i, i)
		}
		return fmt.Sprintf(`{"id":"%d","type":"web_link","name":"w%d","url":"https://example.com"}`, i, i)
	}))
	ctx := context.Background()
	cs := w.e.client.Collections

	fav, _, err := cs.Favorites(ctx)
	require.NoError(t, err)
	assert.Equal(t, &UserCollection{ID: "f1", Type: "collection", Name: "Favorites", CollectionType: CollectionTypeFavorites}, fav)
	var queries []string
	for _, c := range w.all() {
		queries = append(queries, c.Query)
	}
	assert.Equal(t, []string{""}, queries, "one page held every collection")

	n := w.count()
	var names []string
	for c, err := range cs.ListIter(ctx, &ListCollectionsOptions{Limit: 2}) {
		require.NoError(t, err)
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"Other 0", "Other 1", "Favorites"}, names)
	calls := w.all()[n:]
	require.Len(t, calls, 2)
	assert.Equal(t, []string{"limit=2", "limit=2&offset=2"}, []string{calls[0].Query, calls[1].Query})

	c, _, err := cs.Get(ctx, "f1")
	require.NoError(t, err)
	assert.Equal(t, "/collections/f1", w.last(t).Path)
	assert.Equal(t, CollectionTypeFavorites, c.CollectionType)

	n = w.count()
	var items []string
	for it, err := range cs.ListItemsIter(ctx, "f1", &ListCollectionsOptions{Limit: 2, Fields: []string{"name"}}) {
		require.NoError(t, err)
		items = append(items, it.Type+":"+it.Name)
	}
	assert.Equal(t, []string{"file:f0.txt", "folder:d1", "web_link:w2", "file:f3.txt", "folder:d4"}, items)
	calls = w.all()[n:]
	require.Len(t, calls, 3)
	assert.Equal(t, "/collections/f1/items", calls[0].Path)
	assert.Equal(t, []string{"fields=name&limit=2", "fields=name&limit=2&offset=2", "fields=name&limit=2&offset=4"},
		[]string{calls[0].Query, calls[1].Query, calls[2].Query})
	page, _, err := cs.ListItems(ctx, "f1", &ListCollectionsOptions{Offset: 2, Limit: 1})
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	assert.Equal(t, "https://example.com", page.Entries[0].WebLink.URL)

	n = w.count()
	_, _, err = cs.Get(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = cs.ListItems(ctx, "f1", &ListCollectionsOptions{Offset: 20000})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.List(ctx, &ListCollectionsOptions{Limit: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("GET /collections", http.StatusOK, `{"total_count":0,"limit":100,"offset":0,"entries":[]}`)
	_, resp, err := w2.e.client.Collections.Favorites(ctx)
	assert.ErrorIs(t, err, ErrNoFavorites)
	assert.NotNil(t, resp)
	w3 := newWireLog(t)
	w3.answer("GET /collections/{id}/items", http.StatusNotFound, `{"type":"error","status":404,"code":"not_found","message":"Not found"}`)
	for _, err := range w3.e.client.Collections.ListItemsIter(ctx, "nope", nil) {
		assert.ErrorIs(t, err, ErrNotFound)
	}
}

func TestCollectionItemsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("GET /files/{id}", http.StatusOK, `{"type":"file","id":"5","etag":"3","collections":[{"id":"c9","type":"collection","name":"Team","collection_type":"favorites"}]}`)
	w.answer("PUT /files/{id}", http.StatusOK, `{"type":"file","id":"5","etag":"4","collections":[{"id":"c9","type":"collection"},{"id":"f1","type":"collection"}]}`)
	w.answer("GET /folders/{id}", http.StatusOK, `{"type":"folder","id":"7","etag":"1","collections":[]}`)
	w.answer("PUT /web_links/{id}", http.StatusOK, `{"type":"web_link","id":"8","etag":"2","collections":[]}`)
	ctx := context.Background()
	cs := w.e.client.Collections

	ic, _, err := cs.AddItem(ctx, "f1", ItemRef{Type: ItemTypeFile, ID: "5"})
	require.NoError(t, err)
	calls := w.all()
	require.Len(t, calls, 2)
	assert.Equal(t, "GET /files/5 fields=collections%2Cetag", calls[0].Method+" "+calls[0].Path+" "+calls[0].Query)
	assert.Equal(t, "PUT /files/5 fields=collections%2Cetag", calls[1].Method+" "+calls[1].Path+" "+calls[1].Query)
	assert.JSONEq(t, `{"collections":[{"id":"c9"},{"id":"f1"}]}`, calls[1].Body, "the other collections are kept")
	assert.Equal(t, "3", calls[1].Header.Get("If-Match"), "the update holds only if the item did not change")
	assert.Equal(t, &ItemCollections{Type: ItemTypeFile, ID: "5", ETag: "4", Collections: []*UserCollection{{ID: "c9", Type: "collection"}, {ID: "f1", Type: "collection"}}}, ic)
	assert.True(t, ic.Has("f1"))

	ic, _, err = cs.AddItem(ctx, "c9", ItemRef{Type: ItemTypeFile, ID: "5"})
	require.NoError(t, err)
	assert.Len(t, w.all(), 3, "already in the collection: only the read")
	assert.Equal(t, "3", ic.ETag)

	_, _, err = cs.RemoveItem(ctx, "c9", ItemRef{Type: ItemTypeFile, ID: "5"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"collections":[]}`, w.last(t).Body)
	_, _, err = cs.RemoveItem(ctx, "f1", ItemRef{Type: ItemTypeFolder, ID: "7"})
	require.NoError(t, err)
	assert.Equal(t, "/folders/7", w.last(t).Path, "not in the collection: only the read")

	_, _, err = cs.SetItemCollections(ctx, ItemRef{Type: ItemTypeWebLink, ID: "8"})
	require.NoError(t, err)
	c := w.last(t)
	assert.Equal(t, "PUT /web_links/8", c.Method+" "+c.Path)
	assert.JSONEq(t, `{"collections":[]}`, c.Body)
	assert.Empty(t, c.Header.Get("If-Match"))

	n := w.count()
	_, _, err = cs.AddItem(ctx, "", ItemRef{Type: ItemTypeFile, ID: "5"})
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = cs.AddItem(ctx, "f1", ItemRef{Type: ItemTypeComment, ID: "5"})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.RemoveItem(ctx, "f1", ItemRef{Type: ItemTypeFile})
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = cs.SetItemCollections(ctx, ItemRef{Type: ItemTypeFile, ID: "5"}, "")
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("GET /files/{id}", http.StatusOK, `{"type":"file","id":"5","etag":"3","collections":[]}`)
	w2.answer("PUT /files/{id}", http.StatusPreconditionFailed, `{"type":"error","status":412,"code":"precondition_failed","message":"The resource has been modified"}`)
	_, _, err = w2.e.client.Collections.AddItem(ctx, "f1", ItemRef{Type: ItemTypeFile, ID: "5"})
	assert.ErrorIs(t, err, ErrPreconditionFailed)
}
