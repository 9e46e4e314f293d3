package cms_test

// Every offset iterator of the SDK against the reference server, on pages
// that are short or empty while more items follow (items hidden from the
// managed user keep their place, as on the service).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hiddenFolder makes a folder of n subfolders ("f00".."f0n") in parent and
// hides those whose index hide returns true. It returns the visible names.
func hiddenFolder(t *testing.T, srv *cmstest.Server, c *cms.Client, parent string, n int, hide func(int) bool) []string {
	t.Helper()
	ctx := context.Background()
	var visible, hidden []string
	for i := range n {
		name := fmt.Sprintf("f%02d", i)
		f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: parent}}, nil)
		require.NoError(t, err)
		if hide(i) {
			hidden = append(hidden, f.ID)
		} else {
			visible = append(visible, name)
		}
	}
	require.NoError(t, srv.HideFromUsers(hidden...))
	return visible
}

func names(t *testing.T, seq func(func(*cms.Item, error) bool)) []string {
	t.Helper()
	var out []string
	for it, err := range seq {
		require.NoError(t, err)
		out = append(out, it.Name)
	}
	return out
}

// TestIteratorsDoNotStopOnShortOrEmptyPages: with limit 3 and items 3-8
// hidden, pages 2 and 3 are empty and page 1 short, yet every visible item
// after them is listed, by offset and by marker.
func TestIteratorsDoNotStopOnShortOrEmptyPages(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	parent, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Mixed", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	hide := func(i int) bool { return i == 1 || (i >= 3 && i <= 8) }
	want := hiddenFolder(t, srv, c, parent.ID, 12, hide)
	require.Equal(t, []string{"f00", "f02", "f09", "f10", "f11"}, want)

	t.Run("ListItemsIter pages by offset", func(t *testing.T) {
		before := len(srv.Requests())
		assert.Equal(t, want, names(t, c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Limit: 3})))
		for _, r := range srv.Requests()[before:] {
			assert.NotContains(t, r.RawQuery, "usemarker", "offset paging, as the method's name says")
		}
	})
	t.Run("ListItemsByMarkerIter pages by marker", func(t *testing.T) {
		before := len(srv.Requests())
		assert.Equal(t, want, names(t, c.Folders.ListItemsByMarkerIter(ctx, parent.ID, &cms.ListItemsByMarkerOptions{Limit: 3})))
		for _, r := range srv.Requests()[before:] {
			assert.Contains(t, r.RawQuery, "usemarker=true")
		}
	})
	t.Run("ListItemsIter from an offset", func(t *testing.T) {
		assert.Equal(t, want[1:], names(t, c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Limit: 3, Offset: 2})))
	})
	t.Run("ListItemsByMarkerIter", func(t *testing.T) {
		assert.Equal(t, want, names(t, c.Folders.ListItemsByMarkerIter(ctx, parent.ID, &cms.ListItemsByMarkerOptions{Limit: 3})))
	})
	t.Run("NewListItemsPaginator", func(t *testing.T) {
		p := c.Folders.NewListItemsPaginator(parent.ID, &cms.ListItemsOptions{Limit: 3})
		var got []string
		var offsets []int
		for p.HasMorePages() {
			offsets = append(offsets, p.NextOffset())
			page, _, err := p.NextPage(ctx)
			require.NoError(t, err)
			for _, it := range page.Entries {
				got = append(got, it.Name)
			}
		}
		assert.Equal(t, want, got)
		assert.Equal(t, []int{0, 3, 6, 9}, offsets, "offset + limit, to total_count")
	})
	t.Run("NewListItemsByMarkerPaginator", func(t *testing.T) {
		p := c.Folders.NewListItemsByMarkerPaginator(parent.ID, &cms.ListItemsByMarkerOptions{Limit: 3})
		var got []string
		for p.HasMorePages() {
			page, _, err := p.NextPage(ctx)
			require.NoError(t, err)
			for _, it := range page.Entries {
				got = append(got, it.Name)
			}
		}
		assert.Equal(t, want, got)
	})
}

// TestRootListingSortedUsesOffsetPaging: the root folder with a sort is
// paged by offset (the service does not sort marker pages of the root) and
// still lists every visible item past empty pages.
func TestRootListingSortedUsesOffsetPaging(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	want := hiddenFolder(t, srv, c, "0", 8, func(i int) bool { return i >= 2 && i <= 5 })
	before := len(srv.Requests())
	got := names(t, c.Folders.ListItemsIter(context.Background(), "0", &cms.ListItemsOptions{Limit: 2, Sort: "name", Direction: "ASC"}))
	assert.Equal(t, want, got)
	var offsets []string
	for _, r := range srv.Requests()[before:] {
		assert.NotContains(t, r.RawQuery, "usemarker")
		for _, kv := range strings.Split(r.RawQuery, "&") {
			if strings.HasPrefix(kv, "offset=") {
				offsets = append(offsets, kv)
			}
		}
	}
	assert.Equal(t, []string{"offset=2", "offset=4", "offset=6"}, offsets, "the first page sends no offset")
}

// shortPartsTransport drops every other entry of the upload-parts pages the
// server answers, keeping total_count and limit: the short pages the
// service documents.
type shortPartsTransport struct{ next http.RoundTripper }

func (t shortPartsTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || !strings.HasSuffix(req.URL.Path, "/parts") || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	defer resp.Body.Close()
	var page map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		return nil, err
	}
	entries, _ := page["entries"].([]any)
	var kept []any
	for i, e := range entries {
		if i%2 == 1 || len(entries) == 1 {
			kept = append(kept, e)
		}
	}
	page["entries"] = kept
	b, _ := json.Marshal(page)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestListPartsIterDoesNotStopOnShortPages: the parts iterator walks every
// page to total_count even when the pages are short.
func TestListPartsIterDoesNotStopOnShortPages(t *testing.T) {
	t.Parallel()
	srv := cmstest.NewServer(t, cmstest.Options{PartSize: 4, ChunkedMinSize: 1})
	plain := srv.Client(t, cms.WithRetryPolicy(fastRetries))
	short := srv.Client(t, cms.WithHTTPClient(&http.Client{Transport: shortPartsTransport{http.DefaultTransport}}))
	ctx := context.Background()
	content := []byte("abcdefghijklmnopqrstuvwx") // 6 parts of 4 bytes
	sess, _, err := plain.Uploads.CreateSession(ctx, &cms.CreateUploadSessionRequest{FolderID: "0", FileSize: int64(len(content)), FileName: "p.bin"})
	require.NoError(t, err)
	for off := 0; off < len(content); off += 4 {
		_, _, err := plain.Uploads.UploadPart(ctx, sess.ID, bytes.NewReader(content[off:off+4]), cms.PartRange{Offset: int64(off), Size: 4, FileSize: int64(len(content))})
		require.NoError(t, err)
	}
	before := len(srv.Requests())
	var offsets []int64
	for p, err := range short.Uploads.ListPartsIter(ctx, sess.ID, &cms.ListPartsOptions{Limit: 2}) {
		require.NoError(t, err)
		offsets = append(offsets, p.Offset)
	}
	assert.Equal(t, []int64{4, 12, 20}, offsets, "one of two parts per page survives the trimming")
	assert.Len(t, srv.Requests()[before:], 3, "pages at 0, 2 and 4, to total_count 6")
}
