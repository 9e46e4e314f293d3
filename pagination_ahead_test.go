package cms_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func itemRequests(srv *cmstest.Server, folderID string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/folders/"+folderID+"/items") {
			n++
		}
	}
	return n
}

// TestListItemsReadAhead: with ReadAhead the iterator lists the same items
// (past short and empty pages too), the default stays lazy (a break after
// the first item sends one request), a break with ReadAhead stops within
// one page ahead, and a cancelled ctx ends the loop with its error.
func TestListItemsReadAhead(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	parent, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Ahead", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	want := hiddenFolder(t, srv, c, parent.ID, 14, func(i int) bool { return i == 1 || (i >= 3 && i <= 8) })

	t.Run("same items", func(t *testing.T) {
		assert.Equal(t, want, names(t, c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Limit: 3, ReadAhead: true})))
		assert.Equal(t, want, names(t, c.Folders.ListItemsByMarkerIter(ctx, parent.ID, &cms.ListItemsByMarkerOptions{Limit: 3, ReadAhead: true, Sort: "name"})))
	})
	t.Run("by offset", func(t *testing.T) {
		// An offset makes ListItemsIter page by offset; reading ahead lists
		// what the lazy offset iterator lists.
		lazy := names(t, c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Offset: 2, Limit: 3}))
		require.NotEmpty(t, lazy)
		assert.Equal(t, lazy, names(t, c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Offset: 2, Limit: 3, ReadAhead: true})))
	})
	t.Run("lazy by default", func(t *testing.T) {
		srv.ResetRequests()
		for range c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Limit: 3}) {
			break
		}
		assert.Equal(t, 1, itemRequests(srv, parent.ID), "a break after the first item sends one request")
	})
	t.Run("break with read-ahead", func(t *testing.T) {
		srv.ResetRequests()
		for range c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Limit: 3, ReadAhead: true}) {
			break
		}
		// The loop has returned: the goroutine is done, at most one page ahead.
		assert.LessOrEqual(t, itemRequests(srv, parent.ID), 2)
	})
	t.Run("cancelled ctx", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		var errs []error
		for _, err := range c.Folders.ListItemsIter(cctx, parent.ID, &cms.ListItemsOptions{Limit: 3, ReadAhead: true}) {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		assert.True(t, errors.Is(errs[0], context.Canceled), "%v", errs[0])
	})
	t.Run("slow loop body", func(t *testing.T) {
		var got []string
		for it, err := range c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Limit: 2, ReadAhead: true}) {
			require.NoError(t, err)
			time.Sleep(time.Millisecond)
			got = append(got, it.Name)
		}
		assert.Equal(t, want, got)
	})
}
