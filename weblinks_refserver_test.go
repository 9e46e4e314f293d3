package cms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWebLinksLifecycle(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	a, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "A", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	b, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "B", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)

	wl, resp, err := c.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: "https://example.com", Parent: cms.FolderRef{ID: a.ID}, Description: "home"}, nil)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode, "the service answers 200 to a create")
	assert.Equal(t, "https://example.com", wl.Name, "the name defaults to the URL")
	assert.Equal(t, "home", wl.Description)
	assert.Equal(t, a.ID, wl.Parent.ID)
	assert.Len(t, wl.PathCollection.Entries, 2)

	got, _, err := c.WebLinks.Get(ctx, wl.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, wl.URL, got.URL)

	// Same name as an existing item: a conflict naming it.
	_, _, err = c.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: "https://example.com", Parent: cms.FolderRef{ID: a.ID}}, nil)
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, cms.ErrConflict)
	assert.Equal(t, wl.ID, apiErr.Conflicts()[0].ID)

	until := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Second)
	up, _, err := c.WebLinks.Update(ctx, wl.ID, &cms.UpdateWebLinkRequest{
		Name: "Example", URL: "http://example.org", Description: cms.Ptr(""),
		Parent:     &cms.FolderRef{ID: b.ID},
		SharedLink: cms.Set(cms.SharedLinkRequest{Access: cms.SharedLinkAccessOpen, Password: cms.Set("Secret-123"), UnsharedAt: until}),
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, "Example", up.Name)
	assert.Equal(t, "http://example.org", up.URL)
	assert.Empty(t, up.Description)
	assert.Equal(t, b.ID, up.Parent.ID)
	require.NotNil(t, up.SharedLink)
	assert.Equal(t, "open", up.SharedLink.Access)
	assert.True(t, up.SharedLink.IsPasswordEnabled)
	assert.True(t, until.Equal(up.SharedLink.UnsharedAt))

	// Null removes the password, then the link.
	up, _, err = c.WebLinks.Update(ctx, wl.ID, &cms.UpdateWebLinkRequest{SharedLink: cms.Set(cms.SharedLinkRequest{Password: cms.Null[string]()})}, nil)
	require.NoError(t, err)
	assert.False(t, up.SharedLink.IsPasswordEnabled)
	up, _, err = c.WebLinks.Update(ctx, wl.ID, &cms.UpdateWebLinkRequest{SharedLink: cms.Null[cms.SharedLinkRequest]()}, nil)
	require.NoError(t, err)
	assert.Nil(t, up.SharedLink)
	last := srv.Requests()[len(srv.Requests())-1]
	assert.Equal(t, "PUT", last.Method)

	// Listed with the folder's items.
	page, _, err := c.Folders.ListItems(ctx, b.ID, &cms.ListItemsOptions{Fields: []string{"name", "url"}})
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	require.NotNil(t, page.Entries[0].WebLink)
	assert.Equal(t, "http://example.org", page.Entries[0].WebLink.URL)

	// Delete to the trash, restore, delete for good.
	_, err = c.WebLinks.Delete(ctx, wl.ID)
	require.NoError(t, err)
	_, _, err = c.WebLinks.Get(ctx, wl.ID, nil)
	require.ErrorIs(t, err, cms.ErrNotFound)
	tr, _, err := c.Trash.GetWebLink(ctx, wl.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, "trashed", tr.ItemStatus)
	back, resp, err := c.WebLinks.Restore(ctx, wl.ID, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, "active", back.ItemStatus)
	_, err = c.WebLinks.Delete(ctx, wl.ID)
	require.NoError(t, err)
	_, err = c.Trash.PurgeWebLink(ctx, wl.ID)
	require.NoError(t, err)
	_, _, err = c.Trash.GetWebLink(ctx, wl.ID, nil)
	require.ErrorIs(t, err, cms.ErrNotFound)

	// The app token may not use web links.
	_, _, err = srv.AppClient(t).WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: "https://x.test", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 403, apiErr.StatusCode)
}

func TestWebLinksInListingsPaged(t *testing.T) {
	t.Parallel()
	_, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	for i := range 5 {
		_, _, err := c.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: fmt.Sprintf("https://example.com/%d", i), Name: fmt.Sprintf("link %d", i), Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)
	}
	var byOffset, byMarker []string
	for it, err := range c.Folders.ListItemsIter(ctx, "0", &cms.ListItemsOptions{Limit: 2}) {
		require.NoError(t, err)
		require.NotNil(t, it.WebLink)
		byOffset = append(byOffset, it.Name)
	}
	for it, err := range c.Folders.ListItemsByMarkerIter(ctx, "0", &cms.ListItemsByMarkerOptions{Limit: 2}) {
		require.NoError(t, err)
		byMarker = append(byMarker, it.WebLink.Name)
	}
	want := []string{"link 0", "link 1", "link 2", "link 3", "link 4"}
	assert.Equal(t, want, byOffset)
	assert.Equal(t, want, byMarker)
}

func TestWebLinksArgumentErrors(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	srv.ResetRequests()
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"nil create", func() error { _, _, err := c.WebLinks.Create(ctx, nil, nil); return err }, cms.ErrInvalidArgument},
		{"ftp url", func() error {
			_, _, err := c.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: "ftp://x", Parent: cms.FolderRef{ID: "0"}}, nil)
			return err
		}, cms.ErrInvalidArgument},
		{"no parent", func() error {
			_, _, err := c.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: "https://x"}, nil)
			return err
		}, cms.ErrMissingID},
		{"get", func() error { _, _, err := c.WebLinks.Get(ctx, "", nil); return err }, cms.ErrMissingID},
		{"update id", func() error { _, _, err := c.WebLinks.Update(ctx, "..", &cms.UpdateWebLinkRequest{}, nil); return err }, cms.ErrInvalidID},
		{"nil update", func() error { _, _, err := c.WebLinks.Update(ctx, "1", nil, nil); return err }, cms.ErrInvalidArgument},
		{"update url", func() error {
			_, _, err := c.WebLinks.Update(ctx, "1", &cms.UpdateWebLinkRequest{URL: "javascript:alert(1)"}, nil)
			return err
		}, cms.ErrInvalidArgument},
		{"update parent", func() error {
			_, _, err := c.WebLinks.Update(ctx, "1", &cms.UpdateWebLinkRequest{Parent: &cms.FolderRef{}}, nil)
			return err
		}, cms.ErrMissingID},
		{"update access", func() error {
			_, _, err := c.WebLinks.Update(ctx, "1", &cms.UpdateWebLinkRequest{SharedLink: cms.Set(cms.SharedLinkRequest{Access: "world"})}, nil)
			return err
		}, cms.ErrInvalidArgument},
		{"delete", func() error { _, err := c.WebLinks.Delete(ctx, ""); return err }, cms.ErrMissingID},
		{"restore", func() error { _, _, err := c.WebLinks.Restore(ctx, "", nil, nil); return err }, cms.ErrMissingID},
	}
	for _, tc := range cases {
		err := tc.call()
		var argErr *cms.ArgError
		assert.True(t, errors.As(err, &argErr), tc.name)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
	assert.Empty(t, srv.Requests(), "nothing is sent for a rejected argument")
}

func TestUpdateWebLinkRequestJSON(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		req  cms.UpdateWebLinkRequest
		want string
	}{
		{"empty", cms.UpdateWebLinkRequest{}, `{}`},
		{"clear description", cms.UpdateWebLinkRequest{Description: cms.Ptr("")}, `{"description":""}`},
		{"remove link", cms.UpdateWebLinkRequest{SharedLink: cms.Null[cms.SharedLinkRequest]()}, `{"shared_link":null}`},
		{"default link", cms.UpdateWebLinkRequest{SharedLink: cms.Set(cms.SharedLinkRequest{})}, `{"shared_link":{}}`},
		{"remove password", cms.UpdateWebLinkRequest{SharedLink: cms.Set(cms.SharedLinkRequest{Password: cms.Null[string]()})}, `{"shared_link":{"password":null}}`},
		{"move", cms.UpdateWebLinkRequest{Parent: &cms.FolderRef{ID: "5"}, Name: "n"}, `{"name":"n","parent":{"id":"5"}}`},
	}
	for _, tc := range cases {
		b, err := json.Marshal(tc.req)
		require.NoError(t, err)
		assert.JSONEq(t, tc.want, string(b), tc.name)
		assert.False(t, strings.Contains(string(b), "url"), tc.name)
	}
}
