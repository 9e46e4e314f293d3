package cms

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cannedLink = `{"url":"https://cms.example/s/abc","download_url":"https://cms.example/shared/static/abc.pdf","vanity_url":null,"vanity_name":null,
"access":"open","effective_access":"open","effective_permission":"can_download","unshared_at":null,"is_password_enabled":true,
"permissions":{"can_download":true,"can_preview":true,"can_edit":false},"download_count":3,"preview_count":4}`

func TestSharedLinkMethodsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.serve("PUT /{kind}/{id}", func(rw http.ResponseWriter, r *http.Request) {
		link := cannedLink
		if w.last(t).Body == `{"shared_link":null}` {
			link = "null"
		}
		writeJSON(rw, http.StatusOK, []byte(`{"id":"`+r.PathValue("id")+`","type":"file","etag":"3","shared_link":`+link+`}`))
	})
	w.serve("GET /{kind}/{id}", func(rw http.ResponseWriter, r *http.Request) {
		link := cannedLink
		if r.PathValue("id") == "none" {
			link = "null"
		}
		writeJSON(rw, http.StatusOK, []byte(`{"id":"`+r.PathValue("id")+`","type":"file","etag":"3","shared_link":`+link+`}`))
	})
	ctx := context.Background()
	c := w.e.client

	l, _, err := c.Files.SetSharedLink(ctx, "5", &SharedLinkRequest{Access: SharedLinkAccessOpen, Password: Set("Secret-123"),
		Permissions: &SharedLinkPermissionsRequest{CanDownload: Ptr(true), CanEdit: Ptr(false)}})
	require.NoError(t, err)
	got := w.last(t)
	assert.Equal(t, "/files/5", got.Path)
	assert.Equal(t, "fields=shared_link", got.Query, "the add_shared_link form the official SDKs use")
	assert.JSONEq(t, `{"shared_link":{"access":"open","password":"Secret-123","permissions":{"can_download":true,"can_edit":false}}}`, got.Body)
	assert.Equal(t, &SharedLink{URL: "https://cms.example/s/abc", DownloadURL: "https://cms.example/shared/static/abc.pdf", Access: "open",
		EffectiveAccess: "open", EffectivePermission: "can_download", IsPasswordEnabled: true,
		Permissions: &SharedLinkPermissions{CanDownload: true, CanPreview: true}, DownloadCount: 3, PreviewCount: 4}, l)

	_, _, err = c.Folders.SetSharedLink(ctx, "3", nil)
	require.NoError(t, err)
	assert.Equal(t, "/folders/3", w.last(t).Path)
	assert.JSONEq(t, `{"shared_link":{}}`, w.last(t).Body, "nil: the enterprise's default link")

	_, _, err = c.WebLinks.SetSharedLink(ctx, "8", &SharedLinkRequest{Access: SharedLinkAccessCompany, UnsharedAt: mustTime(t, "2026-05-01T00:00:00Z")})
	require.NoError(t, err)
	assert.Equal(t, "/web_links/8", w.last(t).Path)
	assert.JSONEq(t, `{"shared_link":{"access":"company","unshared_at":"2026-05-01T00:00:00Z"}}`, w.last(t).Body)

	for _, remove := range []func() (*Response, error){
		func() (*Response, error) { return c.Files.RemoveSharedLink(ctx, "5") },
		func() (*Response, error) { return c.Folders.RemoveSharedLink(ctx, "3") },
		func() (*Response, error) { return c.WebLinks.RemoveSharedLink(ctx, "8") },
	} {
		_, err := remove()
		require.NoError(t, err)
		assert.Equal(t, "fields=shared_link", w.last(t).Query)
		assert.JSONEq(t, `{"shared_link":null}`, w.last(t).Body, "remove is an explicit null")
	}

	l, _, err = c.Files.GetSharedLink(ctx, "5")
	require.NoError(t, err)
	assert.Equal(t, "https://cms.example/s/abc", l.URL)
	assert.Equal(t, http.MethodGet, w.last(t).Method)
	assert.Equal(t, "fields=shared_link", w.last(t).Query)
	l, _, err = c.Folders.GetSharedLink(ctx, "none")
	require.NoError(t, err)
	assert.Nil(t, l, "no link: nil")
	_, _, err = c.WebLinks.GetSharedLink(ctx, "8")
	require.NoError(t, err)
	assert.Equal(t, "/web_links/8", w.last(t).Path)

	n := w.count()
	_, _, err = c.Folders.SetSharedLink(ctx, "3", &SharedLinkRequest{Permissions: &SharedLinkPermissionsRequest{CanDownload: Ptr(true), CanEdit: Ptr(true)}})
	assert.ErrorIs(t, err, ErrInvalidArgument, "folder links cannot be editable")
	_, _, err = c.WebLinks.SetSharedLink(ctx, "8", &SharedLinkRequest{Permissions: &SharedLinkPermissionsRequest{CanDownload: Ptr(true), CanEdit: Ptr(true)}})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = c.Files.SetSharedLink(ctx, "5", &SharedLinkRequest{Access: SharedLinkAccessCompany, Password: Set("Secret-123")})
	assert.ErrorIs(t, err, ErrInvalidArgument, "a password needs access open")
	_, _, err = c.Files.SetSharedLink(ctx, "5", &SharedLinkRequest{VanityName: "short"})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = c.Files.RemoveSharedLink(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = c.Folders.GetSharedLink(ctx, "a/b")
	assert.ErrorIs(t, err, ErrInvalidID)
	assert.Equal(t, n, w.count(), "nothing was sent")
}

func TestSharedItemsGetWire(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	w := newWireLog(t, WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	const link, password = "https://cms.example/s/abc", "Secret-123"
	w.serve("GET /shared_items", func(rw http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("Boxapi") {
		case "shared_link=" + link + "&shared_link_password=" + password:
			writeJSON(rw, http.StatusOK, []byte(`{"id":"3","type":"folder","name":"Reports","etag":"1","shared_link":`+cannedLink+`}`))
		case "shared_link=" + link:
			writeJSON(rw, http.StatusOK, []byte(`{"id":"5","type":"file","name":"a.pdf","etag":"2","sha1":"abc","size":12}`))
		case "shared_link=https://cms.example/s/web":
			writeJSON(rw, http.StatusOK, []byte(`{"id":"8","type":"web_link","name":"Specs","url":"https://example.com/specs"}`))
		case "shared_link=" + link + "&shared_link_password=Wrong-123":
			writeError(rw, http.StatusForbidden, "incorrect_shared_item_password")
		default:
			writeError(rw, http.StatusNotFound, "not_found")
		}
	})
	ctx := context.Background()
	c := w.e.client

	it, _, err := c.SharedItems.Get(ctx, link, &GetSharedItemOptions{Password: password, Fields: []string{"name", "shared_link"}, IfNoneMatch: "0"})
	require.NoError(t, err)
	got := w.last(t)
	assert.Equal(t, "/shared_items", got.Path)
	assert.Equal(t, "fields=name%2Cshared_link", got.Query)
	assert.Equal(t, "0", got.Header.Get("If-None-Match"))
	assert.Equal(t, "folder", it.Type)
	require.NotNil(t, it.Folder)
	assert.Equal(t, "Reports", it.Folder.Name)
	assert.True(t, it.Folder.SharedLink.IsPasswordEnabled)

	it, _, err = c.SharedItems.Get(ctx, link, nil)
	require.NoError(t, err)
	assert.Equal(t, "file", it.Type)
	assert.Equal(t, int64(12), it.File.Size)
	assert.Empty(t, w.last(t).Header.Get("If-None-Match"))

	it, _, err = c.SharedItems.Get(ctx, "https://cms.example/s/web", nil)
	require.NoError(t, err)
	assert.Equal(t, "web_link", it.Type)
	assert.Equal(t, "https://example.com/specs", it.WebLink.URL)

	_, _, err = c.SharedItems.Get(ctx, link, &GetSharedItemOptions{Password: "Wrong-123"})
	assert.ErrorIs(t, err, ErrIncorrectSharedItemPassword)
	assert.ErrorIs(t, err, ErrForbidden)
	assert.NotContains(t, err.Error(), "Wrong-123", "the password is never part of an error")
	assert.NotContains(t, err.Error(), "/s/abc", "nor the link")

	_, _, err = c.SharedItems.Get(ctx, link+"x", nil)
	assert.ErrorIs(t, err, ErrNotFound)

	n := w.count()
	_, _, err = c.SharedItems.Get(ctx, "", nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = c.SharedItems.Get(ctx, link, &GetSharedItemOptions{Password: "a\r\nb"})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.NotContains(t, err.Error(), "a\r\nb")
	assert.Equal(t, n, w.count(), "nothing was sent")

	assert.NotContains(t, logs.String(), password, "no log line carries the password")
	assert.NotContains(t, logs.String(), "Wrong-123")
}

// TestSharedLinkPasswordNeverPrinted: a request printed with any verb, on
// its own or inside an update, shows the password redacted; the argument
// errors about it never quote it.
func TestSharedLinkPasswordNeverPrinted(t *testing.T) {
	t.Parallel()
	req := SharedLinkRequest{Access: SharedLinkAccessOpen, Password: Set("Secret-123"), VanityName: "quarterly-report"}
	for _, v := range []any{req, &req, UpdateFileRequest{SharedLink: Set(req)}, UpdateFolderRequest{SharedLink: Set(req)}, UpdateWebLinkRequest{SharedLink: Set(req)}} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			out := fmt.Sprintf(verb, v)
			assert.NotContains(t, out, "Secret-123", verb)
			assert.Contains(t, out, "REDACTED", verb)
		}
	}
	assert.Contains(t, fmt.Sprint(SharedLinkRequest{Password: Null[string]()}), "Password:null")
	assert.Contains(t, fmt.Sprint(SharedLinkRequest{Permissions: &SharedLinkPermissionsRequest{CanDownload: Ptr(true), CanEdit: Ptr(false)}}),
		"Permissions:{can_download:true can_edit:false}")
	assert.Equal(t, "left out", Nullable[string]{}.String())

	c := newWireLog(t).e.client
	for _, pw := range []string{"short1", "alllowercase", "Secret-123"} {
		_, _, err := c.Files.SetSharedLink(context.Background(), "5", &SharedLinkRequest{Access: SharedLinkAccessCompany, Password: Set(pw)})
		require.Error(t, err)
		assert.False(t, strings.Contains(err.Error(), pw), "the error does not quote the password")
	}
}
