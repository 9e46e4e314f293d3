package cms_test

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUploadDirCaseInsensitiveNames: names are matched as the service
// matches them. A case-only difference renames the remote item to the
// local case (no 409, no delete and upload, Mirror trashes nothing); local
// case twins both fail before anything is sent for them, the rest
// proceeds.
func TestUploadDirCaseInsensitiveNames(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "case", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	docs, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "docs", Parent: cms.FolderRef{ID: folder.ID}}, nil)
	require.NoError(t, err)
	report, _, err := c.Files.UploadInOneRequest(ctx, docs.ID, "report.txt", strings.NewReader("same"), 4, nil)
	require.NoError(t, err)
	notes, _, err := c.Files.UploadInOneRequest(ctx, docs.ID, "NOTES.md", strings.NewReader("old"), 3, nil)
	require.NoError(t, err)

	src := t.TempDir()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	writeFile(t, filepath.Join(src, "Docs", "Report.txt"), "same", when)
	writeFile(t, filepath.Join(src, "Docs", "notes.md"), "new content", when)

	srv.ResetRequests()
	res, err := c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{Mirror: true})
	require.NoError(t, err)
	assert.Empty(t, res.Failures)
	assert.Zero(t, res.Deleted, "a case-only difference is not an extra")
	assert.Zero(t, res.Created)
	assert.Equal(t, 1, res.Updated)
	assert.Equal(t, 3, res.Renamed)
	want := map[string]cms.TreeEntry{
		"Docs":            {Path: "Docs", Type: cms.ItemTypeFolder, ID: docs.ID, Outcome: cms.OutcomeRenamed, RenamedFrom: "docs"},
		"Docs/Report.txt": {Path: "Docs/Report.txt", Type: cms.ItemTypeFile, ID: report.ID, Outcome: cms.OutcomeRenamed, Size: 4, RenamedFrom: "report.txt"},
		"Docs/notes.md":   {Path: "Docs/notes.md", Type: cms.ItemTypeFile, ID: notes.ID, Outcome: cms.OutcomeUpdated, Size: 11, RenamedFrom: "NOTES.md"},
	}
	for p, w := range want {
		got, ok := res.Entry(p)
		require.True(t, ok, p)
		assert.Equal(t, w, got, p)
	}
	for _, r := range srv.Requests() {
		assert.NotEqual(t, "DELETE", r.Method, r.Path)
		assert.NotEqual(t, 409, r.Status, r.Path)
	}
	assert.Equal(t, []string{"Docs", "Docs/notes.md", "Docs/Report.txt"}, remotePathsSorted(t, c, folder.ID))

	// The re-run finds everything in place.
	res, err = c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{Mirror: true})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Skipped)
	assert.Zero(t, res.Renamed+res.Deleted+res.Created+res.Updated)

	// Case twins fail, both, before anything is sent for them.
	writeFile(t, filepath.Join(src, "Docs", "twin.txt"), "1", when)
	writeFile(t, filepath.Join(src, "Docs", "TWIN.txt"), "2", when)
	writeFile(t, filepath.Join(src, "Pair", "x"), "3", when)
	writeFile(t, filepath.Join(src, "pair", "y"), "4", when)
	writeFile(t, filepath.Join(src, "Docs", "fine.txt"), "5", when)
	srv.ResetRequests()
	res, err = c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{Mirror: true})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Docs/TWIN.txt", "Docs/twin.txt", "Pair", "pair"}, failurePaths(res))
	for _, f := range res.Failures {
		assert.ErrorIs(t, f, cms.ErrCaseTwin)
	}
	assert.Equal(t, 1, res.Created, "fine.txt went up")
	uploads := 0
	for _, r := range srv.Requests() {
		if r.Role == "upload" {
			uploads++
		}
	}
	assert.Equal(t, 1, uploads, "only fine.txt was sent")
	assert.Equal(t, []string{"Docs", "Docs/fine.txt", "Docs/notes.md", "Docs/Report.txt"}, remotePathsSorted(t, c, folder.ID))

	// One file by the same rule.
	one := filepath.Join(t.TempDir(), "FINE.TXT")
	writeFile(t, one, "5", when)
	fine, ok := res.Entry("Docs/fine.txt")
	require.True(t, ok)
	res, err = c.Transfers.UploadFile(ctx, one, docs.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []cms.TreeEntry{{Path: "FINE.TXT", Type: cms.ItemTypeFile, ID: fine.ID, Outcome: cms.OutcomeRenamed, Size: 1, RenamedFrom: "fine.txt"}}, res.Entries)
}

// remotePathsSorted lists a folder's subtree by path, sorted
// case-insensitively.
func remotePathsSorted(t *testing.T, c *cms.Client, folderID string) []string {
	t.Helper()
	var out []string
	for e, err := range c.Folders.Walk(context.Background(), folderID, nil) {
		require.NoError(t, err)
		out = append(out, e.Path)
	}
	slicesSortFold(out)
	return out
}

func slicesSortFold(s []string) {
	sort.Slice(s, func(i, j int) bool { return strings.ToLower(s[i]) < strings.ToLower(s[j]) })
}
