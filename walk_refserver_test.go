package cms_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walkTree builds, under a new folder, a tree of nested folders (one
// empty), files with unicode names and a web link, and returns the folder
// and every path below it.
func walkTree(t *testing.T, c *cms.Client) (string, []string) {
	t.Helper()
	ctx := context.Background()
	root, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "walk-" + t.Name(), Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	var paths []string
	var mk func(parent, prefix string, depth int)
	mk = func(parent, prefix string, depth int) {
		for i := range 3 {
			name := fmt.Sprintf("f%d-é✓.txt", i)
			_, _, err := c.Files.UploadInOneRequest(ctx, parent, name, strings.NewReader(name), int64(len(name)), nil)
			require.NoError(t, err)
			paths = append(paths, prefix+name)
		}
		if depth == 3 {
			return
		}
		for i := range 2 {
			name := fmt.Sprintf("d%d-%d", depth, i)
			f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: parent}}, nil)
			require.NoError(t, err)
			paths = append(paths, prefix+name)
			mk(f.ID, prefix+name+"/", depth+1)
		}
	}
	mk(root.ID, "", 1)
	empty, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "empty", Parent: cms.FolderRef{ID: root.ID}}, nil)
	require.NoError(t, err)
	_ = empty
	_, _, err = c.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: "https://example.com", Name: "link", Parent: cms.FolderRef{ID: root.ID}}, nil)
	require.NoError(t, err)
	paths = append(paths, "empty", "link")
	sort.Strings(paths)
	return root.ID, paths
}

// TestFoldersWalk: every item below the folder comes once with its path and
// depth, a folder before its contents, at every concurrency and page size;
// a break stops the listings; a cancelled ctx and a failing listing end
// the walk with one error.
func TestFoldersWalk(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	rootID, want := walkTree(t, c)
	for _, opts := range []*cms.WalkOptions{nil, {Concurrency: 1, Limit: 2}, {Concurrency: 8, Limit: 1}} {
		seen := map[string]bool{}
		var got []string
		for e, err := range c.Folders.Walk(ctx, rootID, opts) {
			require.NoError(t, err)
			require.False(t, seen[e.Path], "%s twice", e.Path)
			if i := strings.LastIndex(e.Path, "/"); i >= 0 {
				assert.True(t, seen[e.Path[:i]], "%s came before its folder", e.Path)
			}
			assert.Equal(t, strings.Count(e.Path, "/")+1, e.Depth, e.Path)
			assert.Equal(t, e.Path[strings.LastIndex(e.Path, "/")+1:], e.Item.Name)
			seen[e.Path] = true
			got = append(got, e.Path)
		}
		sort.Strings(got)
		assert.Equal(t, want, got, "opts %+v", opts)
	}

	t.Run("break stops every listing", func(t *testing.T) {
		listings := func() int {
			n := 0
			for _, r := range srv.Requests() {
				if strings.HasSuffix(r.Path, "/items") {
					n++
				}
			}
			return n
		}
		before := listings()
		for _, err := range c.Folders.Walk(ctx, rootID, &cms.WalkOptions{Concurrency: 1, Limit: 1}) {
			require.NoError(t, err)
		}
		full := listings() - before // a whole walk, a page of one item at a time
		before = listings()
		n := 0
		for _, err := range c.Folders.Walk(ctx, rootID, &cms.WalkOptions{Concurrency: 4, Limit: 1}) {
			require.NoError(t, err)
			if n++; n == 3 {
				break
			}
		}
		// A few pages in flight at most, not the rest of the tree.
		assert.Less(t, listings()-before, full/2, "a whole walk takes %d listings", full)
	})
	t.Run("cancelled ctx", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var errs []error
		for _, err := range c.Folders.Walk(cctx, rootID, nil) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			cancel()
		}
		require.Len(t, errs, 1)
		assert.ErrorIs(t, errs[0], context.Canceled)
	})
	t.Run("a failing listing ends the walk, naming the folder", func(t *testing.T) {
		srv.Inject(cmstest.Fault{Method: http.MethodGet, Path: "/folders/*/items", Status: http.StatusForbidden, Count: 1000})
		defer srv.ClearFaults()
		var errs []error
		for _, err := range c.Folders.Walk(ctx, rootID, nil) {
			if err != nil {
				errs = append(errs, err)
			}
		}
		require.Len(t, errs, 1)
		var apiErr *cms.APIError
		require.True(t, errors.As(errs[0], &apiErr), "%v", errs[0])
		assert.Contains(t, errs[0].Error(), "folder "+rootID)
	})
	t.Run("arguments", func(t *testing.T) {
		for _, opts := range []*cms.WalkOptions{{Concurrency: -1}, {Limit: -1}} {
			for _, err := range c.Folders.Walk(ctx, rootID, opts) {
				assert.ErrorIs(t, err, cms.ErrInvalidArgument)
			}
		}
		for _, err := range c.Folders.Walk(ctx, "a/b", nil) {
			assert.ErrorIs(t, err, cms.ErrInvalidID)
		}
	})
}

// TestFoldersWalkOrdered: with Ordered, every walk yields the same
// sequence: depth first, by name within a folder, each folder right
// before its contents; a break and a cancelled ctx end it as a plain walk.
func TestFoldersWalkOrdered(t *testing.T) {
	t.Parallel()
	_, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	rootID, want := walkTree(t, c)
	// Depth first by name is the paths sorted element by element.
	slices.SortFunc(want, func(a, b string) int {
		return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
	})
	for _, opts := range []*cms.WalkOptions{{Ordered: true}, {Ordered: true, Limit: 1}, {Ordered: true, Concurrency: 8, Limit: 2}} {
		var got []string
		for e, err := range c.Folders.Walk(ctx, rootID, opts) {
			require.NoError(t, err)
			assert.Equal(t, strings.Count(e.Path, "/")+1, e.Depth, e.Path)
			got = append(got, e.Path)
		}
		assert.Equal(t, want, got, "opts %+v", opts)
	}

	n := 0
	for _, err := range c.Folders.Walk(ctx, rootID, &cms.WalkOptions{Ordered: true}) {
		require.NoError(t, err)
		if n++; n == 5 {
			break
		}
	}
	assert.Equal(t, 5, n)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var errs []error
	for _, err := range c.Folders.Walk(cctx, rootID, &cms.WalkOptions{Ordered: true}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		cancel()
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
}
