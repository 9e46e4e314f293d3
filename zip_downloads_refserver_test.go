package cms_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zipContents reads an archive: each entry's name and content ("" for a
// folder).
func zipContents(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		rc.Close()
		out[f.Name] = string(data)
	}
	return out
}

// A zip of files and folders holds the folders' trees under their names,
// the status counts what was sent, and top-level names that collide are
// renamed and reported.
func TestZipDownloadArchiveAndStatus(t *testing.T) {
	t.Parallel()
	_, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	up := func(parent, name, body string) *cms.File {
		f, _, err := c.Files.Upload(ctx, parent, name, strings.NewReader(body), int64(len(body)), nil)
		require.NoError(t, err)
		return f
	}
	mkdir := func(parent, name string) *cms.Folder {
		f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: parent}}, nil)
		require.NoError(t, err)
		return f
	}
	docs := mkdir("0", "Docs")
	sub := mkdir(docs.ID, "Sub")
	mkdir(docs.ID, "Empty")
	up(docs.ID, "a.txt", "alpha")
	up(sub.ID, "b.txt", "bravo")
	other := mkdir("0", "Other")
	r1 := up("0", "report.txt", "one")
	r2 := up(other.ID, "REPORT.txt", "two")

	var buf bytes.Buffer
	var progressed int64
	res, _, err := c.ZipDownloads.Download(ctx, &cms.CreateZipDownloadRequest{
		Items:            []cms.ZipItem{cms.ZipFolder(docs.ID), cms.ZipFile(r1.ID), cms.ZipFile(r2.ID)},
		DownloadFileName: "bundle",
	}, &buf, &cms.ZipDownloadOptions{Progress: func(p cms.Progress) { progressed = p.Bytes }})
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), res.Bytes)
	assert.Equal(t, res.Bytes, progressed)
	got := zipContents(t, buf.Bytes())
	require.Len(t, res.ZipDownload.NameConflicts, 1)
	conflict := res.ZipDownload.NameConflicts[0]
	require.Len(t, conflict, 2)
	names := map[string]string{}
	for _, nc := range conflict {
		assert.Equal(t, cms.ZipItemTypeFile, nc.Type)
		assert.True(t, strings.EqualFold("report.txt", nc.OriginalName))
		assert.True(t, strings.HasSuffix(nc.DownloadName, ".txt"))
		names[nc.ID] = nc.DownloadName
	}
	assert.NotEqual(t, names[r1.ID], names[r2.ID])
	assert.Equal(t, map[string]string{
		"Docs/": "", "Docs/a.txt": "alpha", "Docs/Sub/": "", "Docs/Sub/b.txt": "bravo", "Docs/Empty/": "",
		names[r1.ID]: "one", names[r2.ID]: "two",
	}, got)
	assert.Equal(t, &cms.ZipDownloadStatus{TotalFileCount: 4, DownloadedFileCount: 4, State: cms.ZipDownloadStateSucceeded}, res.Status)

	// The archive URL serves once.
	resp, err := http.Get(res.ZipDownload.DownloadURL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode)
}

// The status answers 404 before the download starts; the content host
// refuses a token; an item the caller loses access to is skipped.
func TestZipDownloadStatusAndSkips(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()
	dir, _, err := admin.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Shared", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	for _, n := range []string{"x.txt", "y.txt"} {
		_, _, err = admin.Files.Upload(ctx, dir.ID, n, strings.NewReader(n), int64(len(n)), nil)
		require.NoError(t, err)
	}
	collab, _, err := admin.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: dir.ID},
		User: &cms.UserRef{ID: srv.UserID()}, Role: cms.CollaborationRoleViewer}, nil)
	require.NoError(t, err)

	z, resp, err := c.ZipDownloads.Create(ctx, &cms.CreateZipDownloadRequest{Items: []cms.ZipItem{cms.ZipFolder(dir.ID)}})
	require.NoError(t, err)
	assert.Equal(t, 202, resp.StatusCode)
	assert.Empty(t, z.NameConflicts)
	assert.False(t, z.ExpiresAt.IsZero())
	_, _, err = c.ZipDownloads.Status(ctx, z)
	st, _ := apiStatusCode(t, err)
	assert.Equal(t, 404, st, "no status before the download starts")

	// The user loses access before the download: the folder is skipped.
	// A token sent to the archive URL is ignored (Box's SDKs send theirs).
	_, err = admin.Collaborations.Delete(ctx, collab.ID)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodGet, z.DownloadURL, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+srv.UserToken())
	hresp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	assert.Equal(t, 200, hresp.StatusCode)
	assert.Equal(t, "application/zip", hresp.Header.Get("Content-Type"))
	b, err := io.ReadAll(hresp.Body)
	require.NoError(t, err)
	hresp.Body.Close()
	assert.Empty(t, zipContents(t, b))
	status, _, err := c.ZipDownloads.Status(ctx, z)
	require.NoError(t, err)
	assert.Equal(t, &cms.ZipDownloadStatus{SkippedFolderCount: 1, State: cms.ZipDownloadStateSucceeded}, status)
	_, _, err = admin.ZipDownloads.Status(ctx, z)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 404, st, "another user's status")
}

// Errors: bad bodies 400, the root 400, a file the caller does not see
// 404, one it may only preview 403; no state changes.
func TestZipDownloadErrors(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()
	secret, _, err := admin.Files.Upload(ctx, "0", "secret.txt", strings.NewReader("s"), 1, nil)
	require.NoError(t, err)
	dir, _, err := admin.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Preview only", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	_, _, err = admin.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: dir.ID},
		User: &cms.UserRef{ID: srv.UserID()}, Role: cms.CollaborationRolePreviewer}, nil)
	require.NoError(t, err)

	for _, tc := range []struct {
		body   string
		status int
		code   string
	}{
		{`{}`, 400, "bad_request"},
		{`{"items":[]}`, 400, "bad_request"},
		{`{"items":[{"type":"web_link","id":"1"}]}`, 400, "bad_request"},
		{`{"items":[{"type":"file"}]}`, 400, "bad_request"},
		{`{"items":[{"type":"folder","id":"0"}]}`, 400, "bad_request"},
		{`{"items":[{"type":"file","id":"` + secret.ID + `"}]}`, 404, "not_found"},
		{`{"items":[{"type":"folder","id":"` + dir.ID + `"}]}`, 403, "access_denied_insufficient_permissions"},
	} {
		_, err := rawJSON(ctx, c, "POST", "/zip_downloads", tc.body)
		st, code := apiStatusCode(t, err)
		assert.Equal(t, tc.status, st, tc.body)
		assert.Equal(t, tc.code, code, tc.body)
	}
	_, _, err = admin.ZipDownloads.Create(ctx, &cms.CreateZipDownloadRequest{Items: []cms.ZipItem{cms.ZipFile(secret.ID)}})
	require.NoError(t, err, "the admin may")
}
