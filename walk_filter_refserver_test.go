package cms_test

import (
	"context"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFoldersWalkFilter: WalkOptions.Filter leaves items out of the walk,
// and a folder left out is never listed, in both orders.
func TestFoldersWalkFilter(t *testing.T) {
	t.Parallel()
	srv := cmstest.NewServer(t, cmstest.Options{})
	rec := &pathRecorder{}
	c := srv.Client(t, cms.WithHTTPClient(&http.Client{Transport: rec}))
	ctx := context.Background()
	rootID, all := walkTree(t, c)
	var want []string
	for _, p := range all {
		if p == "d1-0" || strings.HasPrefix(p, "d1-0/") || path.Base(p) == "f1-é✓.txt" {
			continue
		}
		want = append(want, p)
	}
	for _, opts := range []cms.WalkOptions{{}, {Ordered: true}, {Concurrency: 8, Limit: 2}} {
		var mu sync.Mutex
		var asked []string
		opts.Filter = func(p string, isDir bool) bool {
			mu.Lock()
			asked = append(asked, p)
			mu.Unlock()
			if isDir {
				return path.Base(p) != "d1-0"
			}
			return path.Base(p) != "f1-é✓.txt"
		}
		listings := func() int {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			n := 0
			for k, v := range rec.seen {
				if strings.HasSuffix(k, "/items") {
					n += v
				}
			}
			return n
		}
		before := listings()
		var got []string
		folders := 0
		for e, err := range c.Folders.Walk(ctx, rootID, &opts) {
			require.NoError(t, err)
			got = append(got, e.Path)
			if e.Item.Type == "folder" {
				folders++
			}
		}
		slices.Sort(got)
		assert.Equal(t, want, got, "opts %+v", opts)
		assert.NotContains(t, asked, "d1-0/f0-é✓.txt", "nothing below a folder left out is asked about")
		if opts.Limit == 0 {
			assert.Equal(t, 1+folders, listings()-before, "one listing per folder kept, none for a folder left out")
		}
	}
}
