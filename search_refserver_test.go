package cms_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/require"
)

// TestSearchAgainstRefServer: Search.Query and QueryIter against the
// reference server's index — words, phrases and operators, filters,
// metadata filters, and every result once across offset pages.
func TestSearchAgainstRefServer(t *testing.T) {
	_, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	root, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "search root", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	var quarterly *cms.File
	for i := range 7 {
		name := fmt.Sprintf("quarterly report %d.txt", i)
		body := fmt.Sprintf("revenue figures part %d", i)
		f, _, err := c.Files.Upload(ctx, root.ID, name, strings.NewReader(body), int64(len(body)), nil)
		require.NoError(t, err)
		if i == 3 {
			quarterly = f
		}
	}
	_, _, err = c.Files.Upload(ctx, "0", "minutes.md", strings.NewReader("the quarterly revenue"), 21, nil)
	require.NoError(t, err)

	names := func(opts *cms.SearchOptions) []string {
		t.Helper()
		var out []string
		for it, err := range c.Search.QueryIter(ctx, opts) {
			require.NoError(t, err)
			out = append(out, it.Name)
		}
		return out
	}
	// Seven reports and the minutes, over pages of three.
	require.Len(t, names(&cms.SearchOptions{Query: "quarterly", Limit: 3}), 8)
	require.Len(t, names(&cms.SearchOptions{Query: "quarterly", Limit: 3, AncestorFolderIDs: []string{root.ID}}), 7)
	require.Equal(t, []string{"minutes.md"}, names(&cms.SearchOptions{Query: `"the quarterly revenue"`}))
	require.Equal(t, []string{"minutes.md"}, names(&cms.SearchOptions{Query: "quarterly AND NOT report"}))
	require.Equal(t, []string{"minutes.md"}, names(&cms.SearchOptions{Query: "quarterly", FileExtensions: []string{"md"}}))
	require.Len(t, names(&cms.SearchOptions{Query: "quarterly", ContentTypes: []cms.SearchContentType{cms.SearchContentTypeName}}), 7)

	page, _, err := c.Search.Query(ctx, &cms.SearchOptions{Query: "revenue", Limit: 2, Sort: cms.SearchSortModifiedAt, Direction: cms.SortDirectionAscending, Type: cms.ItemTypeFile})
	require.NoError(t, err)
	require.EqualValues(t, 8, page.TotalCount)
	require.Len(t, page.Entries, 2)

	_, _, err = c.Metadata.Create(ctx, cms.OnFile(quarterly.ID), cms.MetadataScopeGlobal, "properties", map[string]any{"region": "emea"})
	require.NoError(t, err)
	got := names(&cms.SearchOptions{MetadataFilters: []cms.MetadataFilter{{Scope: cms.MetadataScopeGlobal, TemplateKey: "properties", Filters: map[string]any{"region": "emea"}}}})
	require.Equal(t, []string{quarterly.Name}, got)

	_, _, err = c.Search.Query(ctx, &cms.SearchOptions{Query: "x", AncestorFolderIDs: []string{"999999"}})
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 404, apiErr.StatusCode)
}
