package cms_test

import (
	"context"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Favorites: every user has one collection; files, folders and web links
// join and leave it through their update; another user's collection is
// 404; a collaborator who only sees an item may still favorite it.
func TestCollectionsFavorites(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()

	favs, _, err := c.Collections.Favorites(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Favorites", favs.Name)
	assert.Equal(t, "favorites", string(favs.CollectionType))
	page, _, err := c.Collections.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	assert.Equal(t, favs.ID, page.Entries[0].ID)
	got, _, err := c.Collections.Get(ctx, favs.ID)
	require.NoError(t, err)
	assert.Equal(t, favs.ID, got.ID)
	adminFavs, _, err := admin.Collections.Favorites(ctx)
	require.NoError(t, err)
	assert.NotEqual(t, favs.ID, adminFavs.ID)
	_, _, err = c.Collections.Get(ctx, adminFavs.ID)
	st, code := apiStatusCode(t, err)
	assert.Equal(t, 404, st, "another user's collection")
	assert.Equal(t, "not_found", code)

	dir, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Star", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	f, _, err := c.Files.Upload(ctx, dir.ID, "fav.txt", strings.NewReader("x"), 1, nil)
	require.NoError(t, err)
	wl, _, err := c.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{URL: "https://example.com", Parent: cms.FolderRef{ID: dir.ID}, Name: "Site"}, nil)
	require.NoError(t, err)
	for _, ref := range []cms.ItemRef{{Type: cms.ItemTypeFile, ID: f.ID}, {Type: cms.ItemTypeFolder, ID: dir.ID}, {Type: cms.ItemTypeWebLink, ID: wl.ID}} {
		ic, _, err := c.Collections.AddItem(ctx, favs.ID, ref)
		require.NoError(t, err, ref.Type)
		assert.True(t, ic.Has(favs.ID), ref.Type)
	}
	items, _, err := c.Collections.ListItems(ctx, favs.ID, nil)
	require.NoError(t, err)
	require.Equal(t, 3, items.TotalCount)
	var ids []string
	for _, it := range items.Entries {
		ids = append(ids, it.ID)
	}
	assert.Equal(t, []string{f.ID, dir.ID, wl.ID}, ids)

	ic, _, err := c.Collections.RemoveItem(ctx, favs.ID, cms.ItemRef{Type: cms.ItemTypeFile, ID: f.ID})
	require.NoError(t, err)
	assert.False(t, ic.Has(favs.ID))
	_, err = c.Folders.Delete(ctx, dir.ID, &cms.DeleteFolderOptions{Recursive: true})
	require.NoError(t, err)
	items, _, err = c.Collections.ListItems(ctx, favs.ID, nil)
	require.NoError(t, err)
	assert.Empty(t, items.Entries, "items in the trash are left out")

	// Another user's collection id is 404 on an update; a viewer favorites.
	shared, _, err := admin.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Shared", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	_, _, err = admin.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: shared.ID},
		User: &cms.UserRef{ID: srv.UserID()}, Role: cms.CollaborationRoleViewer}, nil)
	require.NoError(t, err)
	_, _, err = c.Collections.AddItem(ctx, favs.ID, cms.ItemRef{Type: cms.ItemTypeFolder, ID: shared.ID})
	require.NoError(t, err, "a viewer may favorite what it sees")
	_, err = rawJSON(ctx, c, "PUT", "/folders/"+shared.ID, `{"collections":[{"id":"`+adminFavs.ID+`"}]}`)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 404, st)
	_, err = rawJSON(ctx, c, "PUT", "/folders/"+shared.ID, `{"collections":[{}]}`)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 400, st)
	adminItems, _, err := admin.Collections.ListItems(ctx, adminFavs.ID, nil)
	require.NoError(t, err)
	assert.Empty(t, adminItems.Entries, "one user's favorites are not another's")
}

// Recent items: uploads, downloads, previews, changes and comments fill
// them, newest first, one entry per item, paged by marker.
func TestRecentItemsFilledByInteractions(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()
	up := func(name string) *cms.File {
		f, _, err := c.Files.Upload(ctx, "0", name, strings.NewReader(name), int64(len(name)), nil)
		require.NoError(t, err)
		return f
	}
	a, b, d, e := up("a.txt"), up("b.txt"), up("d.txt"), up("e.txt")
	_, _, err := c.Files.Update(ctx, b.ID, &cms.UpdateFileRequest{Name: "b2.txt"}, nil)
	require.NoError(t, err)
	rc, _, err := c.Files.Download(ctx, a.ID, nil)
	require.NoError(t, err)
	rc.Close()
	_, _, err = c.Files.GetEmbedLink(ctx, d.ID)
	require.NoError(t, err)
	_, _, err = c.Comments.Create(ctx, &cms.CreateCommentRequest{Item: cms.ItemRef{Type: cms.ItemTypeFile, ID: e.ID}, Message: "hi"}, nil)
	require.NoError(t, err)

	var got []string
	for r, err := range c.RecentItems.ListIter(ctx, &cms.ListRecentItemsOptions{Limit: 2}) {
		require.NoError(t, err)
		assert.Equal(t, "recent_item", r.Type)
		assert.False(t, r.InteractedAt.IsZero())
		got = append(got, r.Item.Name+" "+string(r.InteractionType))
	}
	assert.Equal(t, []string{"e.txt item_comment", "d.txt item_preview", "a.txt item_open", "b2.txt item_modify"}, got)

	page, _, err := c.RecentItems.List(ctx, &cms.ListRecentItemsOptions{Limit: 1, Fields: []string{"name", "size"}})
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	assert.NotEmpty(t, page.NextMarker)
	assert.NotEmpty(t, page.Order, "order is in the answer")
	_, _, err = c.RecentItems.List(ctx, &cms.ListRecentItemsOptions{Marker: "not-a-marker"})
	st, _ := apiStatusCode(t, err)
	assert.Equal(t, 400, st)

	theirs, _, err := admin.RecentItems.List(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, theirs.Entries, "the admin did nothing itself")
	_, err = c.Files.Delete(ctx, e.ID, nil)
	require.NoError(t, err)
	page, _, err = c.RecentItems.List(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, page.Entries, 3, "e.txt in the trash is left out")
}

// Transfer of an owned folder: the user's root items move into a new
// folder of the receiver's root; only the admin transfers.
func TestTransferOwnedFolder(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()
	leaver, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Leaver", Login: "leaver@cms.test"}, nil)
	require.NoError(t, err)
	as := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries), cms.WithAsUser(leaver.ID))
	dir, _, err := as.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Work", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	_, _, err = as.Files.Upload(ctx, dir.ID, "w.txt", strings.NewReader("w"), 1, nil)
	require.NoError(t, err)
	_, _, err = as.Files.Upload(ctx, "0", "top.txt", strings.NewReader("t"), 1, nil)
	require.NoError(t, err)

	_, _, err = c.Users.TransferOwnedFolder(ctx, leaver.ID, &cms.TransferOwnedFolderRequest{OwnedBy: cms.UserRef{ID: srv.UserID()}}, nil)
	st, code := apiStatusCode(t, err)
	assert.Equal(t, 403, st, "only the admin transfers")
	assert.Equal(t, "access_denied_insufficient_permissions", code)
	_, _, err = admin.Users.TransferOwnedFolder(ctx, srv.AdminUserID(), &cms.TransferOwnedFolderRequest{OwnedBy: cms.UserRef{ID: srv.UserID()}}, nil)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 403, st, "not from a higher privileged account")
	_, _, err = admin.Users.TransferOwnedFolder(ctx, "999999", &cms.TransferOwnedFolderRequest{OwnedBy: cms.UserRef{ID: srv.UserID()}}, nil)
	st, _ = apiStatusCode(t, err)
	assert.Equal(t, 404, st)

	moved, resp, err := admin.Users.TransferOwnedFolder(ctx, leaver.ID, &cms.TransferOwnedFolderRequest{OwnedBy: cms.UserRef{ID: srv.UserID()}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "Leaver's Files and Folders", moved.Name)
	assert.Equal(t, srv.UserID(), moved.OwnedBy.ID)
	var names []string
	for it, err := range c.Folders.ListItemsIter(ctx, moved.ID, nil) {
		require.NoError(t, err)
		names = append(names, it.Name)
	}
	assert.ElementsMatch(t, []string{"Work", "top.txt"}, names)
	work, _, err := c.Folders.Get(ctx, dir.ID, nil)
	require.NoError(t, err, "the receiver owns what moved")
	assert.Equal(t, srv.UserID(), work.OwnedBy.ID)
	left, _, err := as.Folders.ListItems(ctx, "0", nil)
	require.NoError(t, err)
	assert.Empty(t, left.Entries, "the leaver's root is empty")
}
