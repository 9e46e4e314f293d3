package cms_test

// Integration tests of FilesService and FoldersService against the
// reference server (refserver through cmstest), on real sockets:
// the content host is another host name than the API.

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastRetries keeps retry waits in milliseconds.
var fastRetries = cms.RetryPolicy{MaxRetries: 3, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxRetryAfter: time.Minute}

func refServer(t *testing.T, opts cmstest.Options) (*cmstest.Server, *cms.Client) {
	t.Helper()
	srv := cmstest.NewServer(t, opts)
	return srv, srv.Client(t, cms.WithRetryPolicy(fastRetries))
}

func hexSHA1(b []byte) string {
	s := sha1.Sum(b)
	return hex.EncodeToString(s[:])
}

// records returns the server's requests of a role whose path contains part.
func records(srv *cmstest.Server, role, method, part string) []cmstest.RequestRecord {
	var out []cmstest.RequestRecord
	for _, r := range srv.Requests() {
		if r.Role == role && r.Method == method && strings.Contains(r.Path, part) {
			out = append(out, r)
		}
	}
	return out
}

// plainSource hides the seeker and reader-at of a reader.
type plainSource struct{ r io.Reader }

func (o plainSource) Read(p []byte) (int, error) { return o.r.Read(p) }

func TestRefserverFileLifecycle(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()

	folder, resp, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Docs", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)

	v1 := []byte("version one of the report")
	f, resp, err := c.Files.UploadInOneRequest(ctx, folder.ID, "report.txt", bytes.NewReader(v1), int64(len(v1)),
		&cms.OneRequestUploadOptions{ContentModifiedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, hexSHA1(v1), f.SHA1)
	assert.Equal(t, int64(len(v1)), f.Size)
	ups := records(srv, "upload", http.MethodPost, "/files/content")
	require.Len(t, ups, 1)
	assert.Equal(t, hexSHA1(v1), ups[0].Header.Get("Content-Md5"), "a seekable source gets content-md5")

	t.Run("get, fields and not modified", func(t *testing.T) {
		got, _, err := c.Files.Get(ctx, f.ID, &cms.GetFileOptions{Fields: []string{"name", "size"}})
		require.NoError(t, err)
		assert.Equal(t, "report.txt", got.Name)
		assert.Equal(t, int64(len(v1)), got.Size)
		_, resp, err := c.Files.Get(ctx, f.ID, &cms.GetFileOptions{IfNoneMatch: got.ETag})
		assert.ErrorIs(t, err, cms.ErrNotModified)
		assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	})
	t.Run("embed link", func(t *testing.T) {
		link, _, err := c.Files.GetEmbedLink(ctx, f.ID)
		require.NoError(t, err)
		assert.NotEmpty(t, link.URL)
	})

	v2 := []byte("version two, renamed")
	_, _, err = c.Files.UploadVersionInOneRequest(ctx, f.ID, bytes.NewReader(v2), int64(len(v2)), &cms.OneRequestVersionOptions{IfMatch: "stale-etag"})
	assert.ErrorIs(t, err, cms.ErrPreconditionFailed)
	f2, resp, err := c.Files.UploadVersionInOneRequest(ctx, f.ID, bytes.NewReader(v2), int64(len(v2)),
		&cms.OneRequestVersionOptions{NewName: "report-v2.txt", IfMatch: f.ETag})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "report-v2.txt", f2.Name)
	assert.Equal(t, hexSHA1(v2), f2.SHA1)

	t.Run("download redirect carries no Authorization", func(t *testing.T) {
		srv.ResetRequests()
		body, resp, err := c.Files.Download(ctx, f.ID, nil)
		require.NoError(t, err)
		got, err := io.ReadAll(body)
		require.NoError(t, err)
		require.NoError(t, body.Close())
		assert.Equal(t, v2, got)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		api := records(srv, "api", http.MethodGet, "/content")
		content := records(srv, "content", http.MethodGet, "/")
		require.Len(t, api, 1)
		require.Len(t, content, 1)
		assert.True(t, api[0].HasAuthorization)
		assert.False(t, content[0].HasAuthorization, "the token must never reach the content host")
		assert.NotEqual(t, api[0].Host, content[0].Host)
	})
	t.Run("range", func(t *testing.T) {
		body, resp, err := c.Files.Download(ctx, f.ID, &cms.DownloadOptions{Range: &cms.ByteRange{Start: 8, Length: 3}})
		require.NoError(t, err)
		defer body.Close()
		got, _ := io.ReadAll(body)
		assert.Equal(t, "two", string(got))
		assert.Equal(t, http.StatusPartialContent, resp.StatusCode)
		body2, _, err := c.Files.Download(ctx, f.ID, &cms.DownloadOptions{Range: cms.RangeFrom(13)})
		require.NoError(t, err)
		defer body2.Close()
		got, _ = io.ReadAll(body2)
		assert.Equal(t, "renamed", string(got))
	})
	t.Run("older version", func(t *testing.T) {
		require.NotNil(t, f.FileVersion)
		body, _, err := c.Files.Download(ctx, f.ID, &cms.DownloadOptions{Version: f.FileVersion.ID})
		require.NoError(t, err)
		defer body.Close()
		got, _ := io.ReadAll(body)
		assert.Equal(t, v1, got)
		_, _, err = c.Files.Download(ctx, f.ID, &cms.DownloadOptions{Version: "999999"})
		assert.ErrorIs(t, err, cms.ErrNotFound)

		// DownloadTo checks an older version against that version's SHA-1
		// (GET /files/{id}/versions/{version_id}).
		var buf bytes.Buffer
		n, _, err := c.Files.DownloadTo(ctx, f.ID, &buf, &cms.DownloadOptions{Version: f.FileVersion.ID})
		require.NoError(t, err)
		assert.Equal(t, int64(len(v1)), n)
		assert.Equal(t, v1, buf.Bytes())
		_, _, err = c.Files.DownloadTo(ctx, f.ID, &buf, &cms.DownloadOptions{Version: "999999"})
		assert.ErrorIs(t, err, cms.ErrNotFound)
	})
	t.Run("download URL", func(t *testing.T) {
		u, _, err := c.Files.DownloadURL(ctx, f.ID, nil)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(u, srv.DownloadURL()), u)
	})
	t.Run("download to verifies SHA-1", func(t *testing.T) {
		var buf bytes.Buffer
		n, _, err := c.Files.DownloadTo(ctx, f.ID, &buf, nil)
		require.NoError(t, err)
		assert.Equal(t, int64(len(v2)), n)
		assert.Equal(t, v2, buf.Bytes())
		buf.Reset()
		_, _, err = c.Files.DownloadTo(ctx, f.ID, &buf, &cms.DownloadOptions{Range: &cms.ByteRange{Start: 0, Length: 7}})
		require.NoError(t, err)
		assert.Equal(t, "version", buf.String())
	})

	t.Run("delete with a stale etag, then for real", func(t *testing.T) {
		_, err := c.Files.Delete(ctx, f.ID, &cms.DeleteFileOptions{IfMatch: "stale-etag"})
		assert.ErrorIs(t, err, cms.ErrPreconditionFailed)
		resp, err := c.Files.Delete(ctx, f.ID, nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		_, _, err = c.Files.Get(ctx, f.ID, nil)
		assert.ErrorIs(t, err, cms.ErrNotFound)
		_, err = c.Files.Delete(ctx, f.ID, nil)
		assert.ErrorIs(t, err, cms.ErrNotFound)
		_, _, err = c.Files.Download(ctx, f.ID, nil)
		assert.ErrorIs(t, err, cms.ErrNotFound)
	})
}

func TestRefserverUploadConflictsAndBadNames(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	existing, _, err := c.Files.UploadInOneRequest(ctx, "0", "taken.txt", strings.NewReader("x"), 1, nil)
	require.NoError(t, err)

	t.Run("preflight ok", func(t *testing.T) {
		u, _, err := c.Files.PreflightUpload(ctx, "0", "free.txt", 10)
		require.NoError(t, err)
		assert.NotEmpty(t, u.UploadURL)
	})
	t.Run("preflight conflict", func(t *testing.T) {
		_, _, err := c.Files.PreflightUpload(ctx, "0", "taken.txt", 10)
		assert.ErrorIs(t, err, cms.ErrConflict)
		var apiErr *cms.APIError
		require.ErrorAs(t, err, &apiErr)
		require.Len(t, apiErr.Conflicts(), 1)
		assert.Equal(t, existing.ID, apiErr.Conflicts()[0].ID)
	})
	t.Run("upload conflict", func(t *testing.T) {
		_, _, err := c.Files.UploadInOneRequest(ctx, "0", "taken.txt", strings.NewReader("y"), 1, nil)
		var apiErr *cms.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, http.StatusConflict, apiErr.StatusCode)
		assert.Equal(t, "item_name_in_use", apiErr.Code)
		require.NotEmpty(t, apiErr.Conflicts())
		assert.Equal(t, existing.ID, apiErr.Conflicts()[0].ID)
	})
	for _, name := range []string{"a/b", "..", "trailing "} {
		t.Run("bad name "+name, func(t *testing.T) {
			_, _, err := c.Files.UploadInOneRequest(ctx, "0", name, strings.NewReader("y"), 1, nil)
			assert.ErrorIs(t, err, cms.ErrBadRequest)
			_, _, err = c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: "0"}}, nil)
			assert.ErrorIs(t, err, cms.ErrBadRequest)
		})
	}
	t.Run("missing parent", func(t *testing.T) {
		_, _, err := c.Files.UploadInOneRequest(ctx, "987654321", "a.txt", strings.NewReader("y"), 1, nil)
		assert.ErrorIs(t, err, cms.ErrNotFound)
	})
	t.Run("wrong caller SHA-1", func(t *testing.T) {
		_, _, err := c.Files.UploadInOneRequest(ctx, "0", "sum.txt", strings.NewReader("y"), 1,
			&cms.OneRequestUploadOptions{SHA1: hexSHA1([]byte("z"))})
		assert.ErrorIs(t, err, cms.ErrBadRequest)
	})
	t.Run("plain reader has no content-md5", func(t *testing.T) {
		srv.ResetRequests()
		f, _, err := c.Files.UploadInOneRequest(ctx, "0", "plain.txt", plainSource{strings.NewReader("plain")}, -1, nil)
		require.NoError(t, err)
		assert.Equal(t, hexSHA1([]byte("plain")), f.SHA1)
		ups := records(srv, "upload", http.MethodPost, "/files/content")
		require.Len(t, ups, 1)
		assert.Empty(t, ups[0].Header.Get("Content-Md5"))
	})
	t.Run("upload dispatcher", func(t *testing.T) {
		f, _, err := c.Files.Upload(ctx, "0", "small.txt", strings.NewReader("small"), 5, nil)
		require.NoError(t, err)
		assert.Equal(t, "small.txt", f.Name)
	})
}

func TestRefserverUploadRetriedOn429(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	srv.Inject(cmstest.Fault{Method: http.MethodPost, Path: "/files/content", Status: http.StatusTooManyRequests})
	f, _, err := c.Files.UploadInOneRequest(ctx, "0", "retry.txt", strings.NewReader("replayed"), 8, nil)
	require.NoError(t, err)
	assert.Equal(t, hexSHA1([]byte("replayed")), f.SHA1)
	assert.Len(t, records(srv, "upload", http.MethodPost, "/files/content"), 2)

	srv.ResetRequests()
	srv.Inject(cmstest.Fault{Method: http.MethodPost, Path: "/files/content", Status: http.StatusTooManyRequests})
	_, _, err = c.Files.UploadInOneRequest(ctx, "0", "once.txt", plainSource{strings.NewReader("once")}, 4, nil)
	assert.ErrorIs(t, err, cms.ErrRateLimited, "a plain reader cannot be sent twice")
	assert.Len(t, records(srv, "upload", http.MethodPost, "/files/content"), 1)
}

func TestRefserverDownloadFaults(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	f, _, err := c.Files.UploadInOneRequest(ctx, "0", "a.txt", strings.NewReader("abc"), 3, nil)
	require.NoError(t, err)

	srv.Inject(cmstest.Fault{Method: http.MethodGet, Path: "/d/*", Status: http.StatusServiceUnavailable})
	body, _, err := c.Files.Download(ctx, f.ID, nil)
	require.NoError(t, err, "the content host is retried like any GET")
	got, _ := io.ReadAll(body)
	body.Close()
	assert.Equal(t, "abc", string(got))

	srv.Inject(cmstest.Fault{Method: http.MethodGet, Path: "/d/*", Status: http.StatusForbidden})
	_, _, err = c.Files.Download(ctx, f.ID, nil)
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusForbidden, apiErr.StatusCode)
	assert.NotContains(t, err.Error(), "/d/", "the signed URL is a credential")

	srv.Inject(cmstest.Fault{Method: http.MethodGet, Path: "/d/*", Delay: time.Second})
	dctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, _, err = c.Files.Download(dctx, f.ID, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestRefserverFolders(t *testing.T) {
	t.Parallel()
	_, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	parent, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Parent", Parent: cms.FolderRef{ID: "0"}}, &cms.FieldsOptions{Fields: []string{"name", "sync_state"}})
	require.NoError(t, err)
	assert.Equal(t, "Parent", parent.Name)

	_, _, err = c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Parent", Parent: cms.FolderRef{ID: "0"}}, nil)
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusConflict, apiErr.StatusCode)
	_, _, err = c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Orphan", Parent: cms.FolderRef{ID: "987654321"}}, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)

	const n = 7
	for i := range n {
		name := string(rune('a'+i)) + ".txt"
		_, _, err := c.Files.UploadInOneRequest(ctx, parent.ID, name, strings.NewReader(name), int64(len(name)), nil)
		require.NoError(t, err)
	}

	got, _, err := c.Folders.Get(ctx, parent.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, "Parent", got.Name)
	_, _, err = c.Folders.Get(ctx, parent.ID, &cms.GetFolderOptions{IfNoneMatch: got.ETag})
	assert.ErrorIs(t, err, cms.ErrNotModified)
	_, _, err = c.Folders.Get(ctx, "987654321", nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)

	page, _, err := c.Folders.ListItems(ctx, parent.ID, &cms.ListItemsOptions{Limit: 3, Sort: "name", Direction: "DESC"})
	require.NoError(t, err)
	require.Len(t, page.Entries, 3)
	assert.Equal(t, "g.txt", page.Entries[0].Name)
	assert.Equal(t, n, page.TotalCount)

	var names []string
	for it, err := range c.Folders.ListItemsIter(ctx, parent.ID, &cms.ListItemsOptions{Limit: 2, Sort: "name"}) {
		require.NoError(t, err)
		names = append(names, it.Name)
	}
	assert.Equal(t, []string{"a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt", "g.txt"}, names)

	names = nil
	for it, err := range c.Folders.ListItemsByMarkerIter(ctx, parent.ID, &cms.ListItemsByMarkerOptions{Limit: 3}) {
		require.NoError(t, err)
		names = append(names, it.Name)
		if len(names) == 5 {
			break
		}
	}
	assert.Len(t, names, 5)

	mp, resp, err := c.Folders.ListItemsByMarker(ctx, parent.ID, &cms.ListItemsByMarkerOptions{Limit: 4})
	require.NoError(t, err)
	assert.Len(t, mp.Entries, 4)
	assert.NotEmpty(t, resp.NextMarker)
	mp2, _, err := c.Folders.ListItemsByMarker(ctx, parent.ID, &cms.ListItemsByMarkerOptions{Limit: 4, Marker: resp.NextMarker})
	require.NoError(t, err)
	assert.Len(t, mp2.Entries, 3)
	assert.Empty(t, mp2.NextMarker)

	p := c.Folders.NewListItemsPaginator(parent.ID, &cms.ListItemsOptions{Limit: 5})
	pages := 0
	for p.HasMorePages() {
		_, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		pages++
	}
	assert.Equal(t, 2, pages)

	_, err = c.Folders.Delete(ctx, parent.ID, nil)
	assert.ErrorIs(t, err, cms.ErrBadRequest, "folder_not_empty")
	_, err = c.Folders.Delete(ctx, parent.ID, &cms.DeleteFolderOptions{IfMatch: "stale-etag", Recursive: true})
	assert.ErrorIs(t, err, cms.ErrPreconditionFailed)
	resp, err = c.Folders.Delete(ctx, parent.ID, &cms.DeleteFolderOptions{Recursive: true})
	require.NoError(t, err)
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	_, _, err = c.Folders.ListItems(ctx, parent.ID, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)
}

func TestRefserverUploadPicksChunkedAboveThreshold(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{ChunkedMinSize: 1, PartSize: 64 << 10})
	ctx := context.Background()
	content := bytes.Repeat([]byte("0123456789abcdef"), 200<<10/16)
	f, _, err := c.Files.Upload(ctx, "0", "big.bin", bytes.NewReader(content), int64(len(content)),
		&cms.UploadOptions{ChunkedThreshold: 100 << 10})
	require.NoError(t, err)
	assert.Equal(t, hexSHA1(content), f.SHA1)
	assert.Len(t, records(srv, "upload", http.MethodPost, "/files/upload_sessions"), 2, "create and commit")
	assert.Empty(t, records(srv, "upload", http.MethodPost, "/files/content"))

	small, _, err := c.Files.Upload(ctx, "0", "small.bin", bytes.NewReader(content[:1000]), 1000,
		&cms.UploadOptions{ChunkedThreshold: 100 << 10, OneRequest: &cms.OneRequestUploadOptions{Fields: []string{"name", "size"}}})
	require.NoError(t, err)
	assert.Equal(t, int64(1000), small.Size)
	assert.Len(t, records(srv, "upload", http.MethodPost, "/files/content"), 1)

	// UploadVersion picks the same way, and renames with NewName either way.
	v2 := content[:len(content)-7]
	g, _, err := c.Files.UploadVersion(ctx, f.ID, bytes.NewReader(v2), int64(len(v2)),
		&cms.UploadVersionOptions{ChunkedThreshold: 100 << 10, Chunked: &cms.ChunkedUploadOptions{NewName: "big-v2.bin"}})
	require.NoError(t, err)
	assert.Equal(t, hexSHA1(v2), g.SHA1)
	assert.Equal(t, "big-v2.bin", g.Name)
	assert.Len(t, records(srv, "upload", http.MethodPost, "/files/"+f.ID+"/upload_sessions"), 1)
	h, _, err := c.Files.UploadVersion(ctx, small.ID, strings.NewReader("tiny"), 4,
		&cms.UploadVersionOptions{ChunkedThreshold: 100 << 10, OneRequest: &cms.OneRequestVersionOptions{NewName: "tiny.bin"}})
	require.NoError(t, err)
	assert.Equal(t, "tiny.bin", h.Name)
	assert.Len(t, records(srv, "upload", http.MethodPost, "/files/"+small.ID+"/content"), 1)
	_, _, err = c.Files.Upload(ctx, "0", "neg.bin", strings.NewReader("x"), 1, &cms.UploadOptions{ChunkedThreshold: -1})
	assert.ErrorIs(t, err, cms.ErrInvalidArgument)
}
