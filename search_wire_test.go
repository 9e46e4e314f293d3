package cms

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSearchQueryOnTheWire pins GET /search's query for every filter, the
// arguments refused before sending, and the iterator across pages.
func TestSearchQueryOnTheWire(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t, WithoutRetries())
	e.api.HandleFunc("/", pagedListServer)
	ctx := context.Background()
	day := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	_, _, err := e.client.Search.Query(ctx, &SearchOptions{
		Query: `"quarterly report" NOT draft`, Scope: SearchScopeUserContent, Type: "file",
		AncestorFolderIDs: []string{"1", "2"}, ContentTypes: []SearchContentType{SearchContentTypeName, SearchContentTypeFileContent},
		FileExtensions: []string{"pdf", "docx"}, CreatedAt: &TimeRange{From: day}, UpdatedAt: &TimeRange{To: day},
		Size: &SizeRange{From: 1000, To: 2000}, OwnerUserIDs: []string{"7"}, TrashContent: SearchTrashContentAllItems,
		MetadataFilters: []MetadataFilter{{Scope: MetadataScopeEnterprise, TemplateKey: "contract",
			Filters: map[string]any{"customer": "Acme", "amount": MetadataRange{GreaterThan: 100}}}},
		Sort: SearchSortModifiedAt, Direction: SortDirectionAscending, Fields: []string{"name", "size"}, Offset: 20, Limit: 10,
	})
	require.NoError(t, err)
	reqs := e.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/2.0/search", reqs[0].Path)
	q, err := url.ParseQuery(reqs[0].Query)
	require.NoError(t, err)
	want := url.Values{
		"query": {`"quarterly report" NOT draft`}, "scope": {"user_content"}, "type": {"file"},
		"ancestor_folder_ids": {"1,2"}, "content_types": {"name,file_content"}, "file_extensions": {"pdf,docx"},
		"created_at_range": {"2026-01-02T03:04:05Z,"}, "updated_at_range": {",2026-01-02T03:04:05Z"},
		"size_range": {"1000,2000"}, "owner_user_ids": {"7"}, "trash_content": {"all_items"},
		"mdfilters": {`[{"scope":"enterprise","templateKey":"contract","filters":{"amount":{"gt":100},"customer":"Acme"}}]`},
		"sort":      {"modified_at"}, "direction": {"ASC"}, "fields": {"name,size"}, "offset": {"20"}, "limit": {"10"},
	}
	assert.Equal(t, want, q)

	for name, opts := range map[string]*SearchOptions{
		"nothing to find": {},
		"bad scope":       {Query: "x", Scope: "everything"},
		"bad type":        {Query: "x", Type: "user"},
		"bad sort":        {Query: "x", Sort: "name"},
		"offset too far":  {Query: "x", Offset: 10_001},
	} {
		_, _, err := e.client.Search.Query(ctx, opts)
		assert.ErrorIs(t, err, ErrInvalidArgument, name)
	}
	_, _, err = e.client.Search.Query(ctx, &SearchOptions{Query: "x", AncestorFolderIDs: []string{"a/b"}})
	assert.ErrorIs(t, err, ErrInvalidID)
	assert.Len(t, e.requests(), 1, "nothing sent for refused arguments")

	var ids []string
	for it, err := range e.client.Search.QueryIter(ctx, &SearchOptions{Query: "report", Limit: 2}) {
		require.NoError(t, err)
		ids = append(ids, it.ID)
	}
	assert.Equal(t, []string{"100", "101", "102", "103", "104"}, ids, "every page of the results")
}
