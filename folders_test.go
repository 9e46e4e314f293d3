package cms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFolderRecordsJSONRoundTrip(t *testing.T) {
	t.Parallel()
	t.Run("Folder", func(t *testing.T) {
		t.Parallel()
		f := testJSONMarshal[Folder](t, "folder_get.json")
		require.NotNil(t, f.ItemCollection)
		require.Len(t, f.ItemCollection.Entries, 3)
		assert.NotNil(t, f.ItemCollection.Entries[0].File)
		assert.NotNil(t, f.ItemCollection.Entries[1].Folder)
		assert.NotNil(t, f.ItemCollection.Entries[2].WebLink)
	})
	t.Run("OffsetPage of items", func(t *testing.T) {
		t.Parallel()
		p := testJSONMarshal[OffsetPage[*Item]](t, "folder_items.json")
		assert.Equal(t, 3, p.TotalCount)
		assert.Equal(t, "file", p.Entries[0].Type)
		assert.Equal(t, int64(42), p.Entries[0].File.Size)
		assert.Equal(t, "https://example.com/docs", p.Entries[2].WebLink.URL)
	})
	t.Run("MarkerPage of items", func(t *testing.T) {
		t.Parallel()
		p := testJSONMarshal[MarkerPage[*Item]](t, "folder_items_marker.json")
		assert.Equal(t, "JV9IRGZmieiBasejOG9yDCRNgd2ymoZIbjsxbJMjIs3kioVii", p.NextMarker)
		assert.Equal(t, "Archive", p.Entries[1].Name)
	})
	t.Run("CreateFolderRequest", func(t *testing.T) {
		t.Parallel()
		b, err := json.Marshal(&CreateFolderRequest{Name: "a", Parent: FolderRef{ID: "0"}})
		require.NoError(t, err)
		assert.JSONEq(t, `{"name":"a","parent":{"id":"0"}}`, string(b))
		b, err = json.Marshal(&CreateFolderRequest{Name: "a", Parent: FolderRef{ID: "0"},
			FolderUploadEmail: &FolderUploadEmailAccess{Access: "open"}, SyncState: "synced"})
		require.NoError(t, err)
		assert.JSONEq(t, `{"name":"a","parent":{"id":"0"},"folder_upload_email":{"access":"open"},"sync_state":"synced"}`, string(b))
	})
}

func TestFoldersCreate(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("POST /folders", func(w http.ResponseWriter, r *http.Request) {
		var body CreateFolderRequest
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&body); err != nil {
			writeError(w, http.StatusBadRequest, "bad_request")
			return
		}
		switch {
		case body.Name == "..":
			writeError(w, http.StatusBadRequest, "item_name_invalid")
		case body.Name == "Contracts":
			writeJSON(w, http.StatusConflict, golden(t, "error_conflict.json"))
		case body.Parent.ID == "404":
			writeError(w, http.StatusNotFound, "not_found")
		default:
			assert.Equal(t, "name,etag", r.URL.Query().Get("fields"))
			writeJSON(w, http.StatusCreated, map[string]any{"id": "77", "type": "folder", "name": body.Name, "etag": "0",
				"sync_state": body.SyncState})
		}
	})
	ctx := context.Background()
	fields := &FieldsOptions{Fields: []string{"name", "etag"}}
	tests := []struct {
		name    string
		req     *CreateFolderRequest
		wantErr error
		code    string
	}{
		{"created", &CreateFolderRequest{Name: "New", Parent: FolderRef{ID: "0"}, SyncState: "synced"}, nil, ""},
		{"name in use", &CreateFolderRequest{Name: "Contracts", Parent: FolderRef{ID: "0"}}, ErrConflict, "item_name_in_use"},
		{"bad name", &CreateFolderRequest{Name: "..", Parent: FolderRef{ID: "0"}}, ErrBadRequest, "item_name_invalid"},
		{"missing parent", &CreateFolderRequest{Name: "x", Parent: FolderRef{ID: "404"}}, ErrNotFound, "not_found"},
		{"no request", nil, ErrInvalidArgument, ""},
		{"empty name", &CreateFolderRequest{Parent: FolderRef{ID: "0"}}, ErrInvalidArgument, ""},
		{"no parent", &CreateFolderRequest{Name: "x"}, ErrMissingID, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, resp, err := e.client.Folders.Create(ctx, tt.req, fields)
			if tt.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, http.StatusCreated, resp.StatusCode)
				assert.Equal(t, "77", f.ID)
				assert.Equal(t, "synced", f.SyncState)
				return
			}
			assert.ErrorIs(t, err, tt.wantErr)
			if tt.code != "" {
				var apiErr *APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, tt.code, apiErr.Code)
			}
		})
	}
}

func TestFoldersGet(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("GET /folders/{id}", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.PathValue("id") == "404":
			writeError(w, http.StatusNotFound, "not_found")
		case r.Header.Get("If-None-Match") == "1":
			w.WriteHeader(http.StatusNotModified)
		default:
			writeJSON(w, http.StatusOK, golden(t, "folder_get.json"))
		}
	})
	ctx := context.Background()
	f, _, err := e.client.Folders.Get(ctx, "12345", &GetFolderOptions{Fields: []string{"name", "item_collection"}, Limit: 5,
		Sort: "name", Direction: "DESC", SharedLink: "https://app.box.com/s/f"})
	require.NoError(t, err)
	assert.Equal(t, "Contracts", f.Name)
	last := e.requests()[len(e.requests())-1]
	assert.Equal(t, "direction=DESC&fields=name%2Citem_collection&limit=5&sort=name", last.Query)
	assert.Equal(t, "shared_link=https://app.box.com/s/f", last.Header.Get("Boxapi"))

	_, _, err = e.client.Folders.Get(ctx, "12345", &GetFolderOptions{IfNoneMatch: "1"})
	assert.ErrorIs(t, err, ErrNotModified)
	_, _, err = e.client.Folders.Get(ctx, "404", nil)
	assert.ErrorIs(t, err, ErrNotFound)
	_, _, err = e.client.Folders.Get(ctx, "", nil)
	assert.ErrorIs(t, err, ErrMissingID)
}

func TestFoldersDelete(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("DELETE /folders/{id}", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.PathValue("id") == "404":
			writeError(w, http.StatusNotFound, "not_found")
		case r.Header.Get("If-Match") == "stale":
			writeError(w, http.StatusPreconditionFailed, "precondition_failed")
		case r.PathValue("id") == "full" && r.URL.Query().Get("recursive") != "true":
			writeError(w, http.StatusBadRequest, "folder_not_empty")
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	tests := []struct {
		name, id string
		opts     *DeleteFolderOptions
		wantErr  error
	}{
		{"empty folder", "1", nil, nil},
		{"not empty", "full", nil, ErrBadRequest},
		{"recursive", "full", &DeleteFolderOptions{Recursive: true}, nil},
		{"etag changed", "1", &DeleteFolderOptions{IfMatch: "stale"}, ErrPreconditionFailed},
		{"missing", "404", nil, ErrNotFound},
		{"bad id", "a/b", nil, ErrInvalidID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, err := e.client.Folders.Delete(context.Background(), tt.id, tt.opts)
			if tt.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, http.StatusNoContent, resp.StatusCode)
				return
			}
			assert.ErrorIs(t, err, tt.wantErr)
		})
	}
}

// itemsEnv serves a folder of n files on both paging styles, and can fail a
// given page.
type itemsEnv struct {
	*filesEnv
	pages    atomic.Int32
	failFrom int // offset (or marker number) that fails with 500; 0 = none
}

func newItemsEnv(t *testing.T, n, failFrom int) *itemsEnv {
	e := &itemsEnv{filesEnv: newFilesEnv(t, WithoutRetries()), failFrom: failFrom}
	e.api.HandleFunc("GET /folders/{id}/items", func(w http.ResponseWriter, r *http.Request) {
		e.pages.Add(1)
		if r.PathValue("id") == "404" {
			writeError(w, http.StatusNotFound, "not_found")
			return
		}
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		if limit == 0 {
			limit = 100
		}
		start := 0
		if q.Get("usemarker") == "true" {
			if m := q.Get("marker"); m != "" {
				start, _ = strconv.Atoi(m[1:])
			}
		} else {
			start, _ = strconv.Atoi(q.Get("offset"))
		}
		if e.failFrom > 0 && start >= e.failFrom {
			writeError(w, http.StatusInternalServerError, "internal_server_error")
			return
		}
		entries := []map[string]any{}
		for i := start; i < min(start+limit, n); i++ {
			entries = append(entries, map[string]any{"type": "file", "id": strconv.Itoa(i), "name": fmt.Sprintf("f%03d", i)})
		}
		if q.Get("usemarker") == "true" {
			next := ""
			if start+limit < n {
				next = "m" + strconv.Itoa(start+limit)
			}
			writeJSON(w, http.StatusOK, map[string]any{"entries": entries, "limit": limit, "next_marker": next})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"entries": entries, "limit": limit, "offset": start, "total_count": n})
	})
	return e
}

func TestFoldersListItems(t *testing.T) {
	t.Parallel()
	e := newItemsEnv(t, 5, 0)
	ctx := context.Background()
	page, _, err := e.client.Folders.ListItems(ctx, "0", &ListItemsOptions{Offset: 2, Limit: 2, Fields: []string{"name"}, Sort: "name", Direction: "ASC"})
	require.NoError(t, err)
	require.Len(t, page.Entries, 2)
	assert.Equal(t, "f002", page.Entries[0].Name)
	assert.Equal(t, "f002", page.Entries[0].File.Name)
	assert.Equal(t, 5, page.TotalCount)
	last := e.requests()[len(e.requests())-1]
	assert.Equal(t, "direction=ASC&fields=name&limit=2&offset=2&sort=name", last.Query)

	mpage, resp, err := e.client.Folders.ListItemsByMarker(ctx, "0", &ListItemsByMarkerOptions{Limit: 2})
	require.NoError(t, err)
	assert.Equal(t, "m2", mpage.NextMarker)
	assert.Equal(t, "m2", resp.NextMarker)
	last = e.requests()[len(e.requests())-1]
	assert.Equal(t, "limit=2&usemarker=true", last.Query)

	_, _, err = e.client.Folders.ListItems(ctx, "404", nil)
	assert.ErrorIs(t, err, ErrNotFound)
	_, _, err = e.client.Folders.ListItemsByMarker(ctx, "404", nil)
	assert.ErrorIs(t, err, ErrNotFound)
	_, _, err = e.client.Folders.ListItems(ctx, "", nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = e.client.Folders.ListItems(ctx, "0", &ListItemsOptions{Limit: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
}

func TestFoldersListItemsIterators(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type iterFn func(c *Client) func(yield func(*Item, error) bool)
	offset := func(opts *ListItemsOptions) iterFn {
		return func(c *Client) func(yield func(*Item, error) bool) { return c.Folders.ListItemsIter(ctx, "0", opts) }
	}
	marker := func(opts *ListItemsByMarkerOptions) iterFn {
		return func(c *Client) func(yield func(*Item, error) bool) {
			return c.Folders.ListItemsByMarkerIter(ctx, "0", opts)
		}
	}
	tests := []struct {
		name      string
		n         int
		failFrom  int
		seq       iterFn
		breakAt   int // stop after this many items (0 = never)
		wantItems int
		wantPages int32
		wantErr   bool
	}{
		{"offset all pages", 7, 0, offset(&ListItemsOptions{Limit: 3}), 0, 7, 3, false},
		{"offset exact pages", 6, 0, offset(&ListItemsOptions{Limit: 3}), 0, 6, 2, false},
		{"offset from an offset", 7, 0, offset(&ListItemsOptions{Limit: 3, Offset: 5}), 0, 2, 1, false},
		{"offset empty folder", 0, 0, offset(nil), 0, 0, 1, false},
		{"offset early break", 7, 0, offset(&ListItemsOptions{Limit: 3}), 4, 4, 2, false},
		{"offset error mid-stream", 7, 3, offset(&ListItemsOptions{Limit: 3}), 0, 3, 2, true},
		{"marker all pages", 7, 0, marker(&ListItemsByMarkerOptions{Limit: 3}), 0, 7, 3, false},
		{"marker from a marker", 7, 0, marker(&ListItemsByMarkerOptions{Limit: 3, Marker: "m3"}), 0, 4, 2, false},
		{"marker early break", 7, 0, marker(&ListItemsByMarkerOptions{Limit: 3}), 1, 1, 1, false},
		{"marker error mid-stream", 7, 6, marker(&ListItemsByMarkerOptions{Limit: 3}), 0, 6, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newItemsEnv(t, tt.n, tt.failFrom)
			seq := tt.seq(e.client)
			assert.Zero(t, e.pages.Load(), "nothing is sent until the loop runs")
			var got []string
			var gotErr error
			for it, err := range seq {
				if err != nil {
					gotErr = err
					assert.Nil(t, it)
					continue // the iterator must stop by itself after an error
				}
				got = append(got, it.ID)
				if tt.breakAt > 0 && len(got) == tt.breakAt {
					break
				}
			}
			assert.Len(t, got, tt.wantItems)
			assert.Equal(t, tt.wantPages, e.pages.Load())
			if tt.wantErr {
				assert.ErrorIs(t, gotErr, ErrServer)
			} else {
				assert.NoError(t, gotErr)
			}
		})
	}
}

func TestFoldersIteratorsLeaveOptionsAlone(t *testing.T) {
	t.Parallel()
	e := newItemsEnv(t, 7, 0)
	ctx := context.Background()
	opts := &ListItemsOptions{Limit: 3, Fields: []string{"name"}}
	for range e.client.Folders.ListItemsIter(ctx, "0", opts) {
	}
	assert.Equal(t, &ListItemsOptions{Limit: 3, Fields: []string{"name"}}, opts)
	mopts := &ListItemsByMarkerOptions{Limit: 3}
	for range e.client.Folders.ListItemsByMarkerIter(ctx, "0", mopts) {
	}
	assert.Equal(t, &ListItemsByMarkerOptions{Limit: 3}, mopts)

	// Ranging twice replays from the start.
	n := 0
	seq := e.client.Folders.ListItemsIter(ctx, "0", opts)
	for range seq {
		n++
	}
	for range seq {
		n++
	}
	assert.Equal(t, 14, n)
}

func TestFoldersListItemsIterCancelled(t *testing.T) {
	t.Parallel()
	e := newItemsEnv(t, 7, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	var gotErr error
	for _, err := range e.client.Folders.ListItemsIter(ctx, "0", &ListItemsOptions{Limit: 3}) {
		if err != nil {
			gotErr = err
			break
		}
		n++
		if n == 3 {
			cancel()
		}
	}
	assert.Equal(t, 3, n)
	assert.ErrorIs(t, gotErr, context.Canceled)
	assert.Equal(t, int32(1), e.pages.Load())
}

func TestFoldersListItemsPaginator(t *testing.T) {
	t.Parallel()
	e := newItemsEnv(t, 5, 0)
	ctx := context.Background()
	p := e.client.Folders.NewListItemsPaginator("0", &ListItemsOptions{Limit: 2})
	var sizes []int
	for p.HasMorePages() {
		page, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		sizes = append(sizes, len(page.Entries))
	}
	assert.Equal(t, []int{2, 2, 1}, sizes)
	assert.Equal(t, 6, p.NextOffset())
}
