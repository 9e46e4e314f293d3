package cms_test

import (
	"context"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiCode asserts that err is an API error with status and code.
func apiCode(t *testing.T, err error, status int, code string) {
	t.Helper()
	var apiErr *cms.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, status, apiErr.StatusCode)
	assert.Equal(t, code, apiErr.Code)
}

func TestEmailAliasesRefserver(t *testing.T) {
	t.Parallel()
	srv, user := refServer(t, cmstest.Options{EnterpriseDomains: []string{"cms.test", "example.com"}})
	admin := srv.AdminClient(t)
	ctx := context.Background()

	got, _, err := user.EmailAliases.List(ctx, srv.UserID())
	require.NoError(t, err)
	assert.Equal(t, 0, got.TotalCount)
	assert.Empty(t, got.Entries)

	// The admin's alias is confirmed; the user's own waits for the mail.
	byAdmin, resp, err := admin.EmailAliases.Create(ctx, srv.UserID(), &cms.CreateEmailAliasRequest{Email: "jo@example.com"})
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, "email_alias", byAdmin.Type)
	assert.True(t, byAdmin.IsConfirmed)
	own, _, err := user.EmailAliases.Create(ctx, srv.UserID(), &cms.CreateEmailAliasRequest{Email: "Jo.Other@cms.test"})
	require.NoError(t, err)
	assert.False(t, own.IsConfirmed)
	got, _, err = user.EmailAliases.List(ctx, srv.UserID())
	require.NoError(t, err)
	require.Equal(t, 2, got.TotalCount)
	assert.Equal(t, []string{byAdmin.ID, own.ID}, []string{got.Entries[0].ID, got.Entries[1].ID})

	// Errors: another domain, a taken address (alias or login), another
	// user's aliases, no such user or alias.
	_, _, err = admin.EmailAliases.Create(ctx, srv.UserID(), &cms.CreateEmailAliasRequest{Email: "jo@elsewhere.org"})
	apiCode(t, err, 400, "bad_request")
	_, _, err = admin.EmailAliases.Create(ctx, srv.AdminUserID(), &cms.CreateEmailAliasRequest{Email: "JO@example.com"})
	apiCode(t, err, 409, "conflict")
	_, _, err = admin.EmailAliases.Create(ctx, srv.AdminUserID(), &cms.CreateEmailAliasRequest{Email: "user@cms.test"})
	apiCode(t, err, 409, "conflict")
	_, _, err = user.EmailAliases.List(ctx, srv.AdminUserID())
	apiCode(t, err, 403, "forbidden")
	_, _, err = user.EmailAliases.Create(ctx, srv.AdminUserID(), &cms.CreateEmailAliasRequest{Email: "a@cms.test"})
	apiCode(t, err, 403, "forbidden")
	_, err = user.EmailAliases.Delete(ctx, srv.AdminUserID(), own.ID)
	apiCode(t, err, 403, "forbidden")
	_, _, err = admin.EmailAliases.List(ctx, "999999")
	apiCode(t, err, 404, "not_found")
	_, err = admin.EmailAliases.Delete(ctx, srv.AdminUserID(), own.ID)
	apiCode(t, err, 404, "not_found")

	resp, err = user.EmailAliases.Delete(ctx, srv.UserID(), own.ID)
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
	got, _, err = admin.EmailAliases.List(ctx, srv.UserID())
	require.NoError(t, err)
	assert.Equal(t, 1, got.TotalCount)
}

func TestInvitesRefserver(t *testing.T) {
	t.Parallel()
	srv, user := refServer(t, cmstest.Options{ExternalUsers: []string{"guest@partner.test"}})
	admin := srv.AdminClient(t)
	ctx := context.Background()
	guestID := srv.ExternalUsers()["guest@partner.test"]
	require.NotEmpty(t, guestID)

	in, resp, err := admin.Invites.Create(ctx, &cms.CreateInviteRequest{
		Enterprise: cms.EnterpriseRef{ID: srv.EnterpriseID()}, ActionableBy: cms.InviteeRef{Login: "guest@partner.test"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "invite", in.Type)
	assert.Equal(t, "pending", in.Status)
	assert.Equal(t, guestID, in.ActionableBy.ID)
	assert.Equal(t, srv.AdminUserID(), in.InvitedBy.ID)
	assert.Equal(t, srv.EnterpriseID(), in.InvitedTo.ID)
	got, _, err := admin.Invites.Get(ctx, in.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, in.ID, got.ID)
	assert.Equal(t, in.CreatedAt, got.CreatedAt)

	// The external user is not one of the enterprise's.
	_, _, err = admin.Users.Get(ctx, guestID, nil)
	require.Error(t, err)

	_, _, err = admin.Invites.Create(ctx, &cms.CreateInviteRequest{
		Enterprise: cms.EnterpriseRef{ID: srv.EnterpriseID()}, ActionableBy: cms.InviteeRef{Login: "nobody@partner.test"}}, nil)
	apiCode(t, err, 404, "not_found")
	_, _, err = admin.Invites.Create(ctx, &cms.CreateInviteRequest{
		Enterprise: cms.EnterpriseRef{ID: srv.EnterpriseID()}, ActionableBy: cms.InviteeRef{Login: "user@cms.test"}}, nil)
	apiCode(t, err, 400, "bad_request")
	_, _, err = admin.Invites.Create(ctx, &cms.CreateInviteRequest{
		Enterprise: cms.EnterpriseRef{ID: "42"}, ActionableBy: cms.InviteeRef{Login: "guest@partner.test"}}, nil)
	apiCode(t, err, 404, "not_found")
	_, _, err = user.Invites.Create(ctx, &cms.CreateInviteRequest{
		Enterprise: cms.EnterpriseRef{ID: srv.EnterpriseID()}, ActionableBy: cms.InviteeRef{Login: "guest@partner.test"}}, nil)
	apiCode(t, err, 403, "access_denied_insufficient_permissions")
	_, _, err = admin.Invites.Get(ctx, "123", nil)
	apiCode(t, err, 404, "not_found")
}

func TestFileRequestsRefserver(t *testing.T) {
	t.Parallel()
	srv, user := refServer(t, cmstest.Options{FileRequests: 1})
	admin := srv.AdminClient(t)
	ctx := context.Background()
	ids := srv.FileRequestIDs()
	require.Len(t, ids, 1)

	fr, _, err := user.FileRequests.Get(ctx, ids[0])
	require.NoError(t, err)
	assert.Equal(t, "file_request", fr.Type)
	assert.Equal(t, "Upload files to File request 1", fr.Title)
	assert.Equal(t, cms.FileRequestStatus("active"), fr.Status)
	assert.Equal(t, srv.UserID(), fr.CreatedBy.ID)
	require.NotNil(t, fr.Folder)

	desc := "Scans of the receipts"
	up, _, err := user.FileRequests.Update(ctx, fr.ID, &cms.UpdateFileRequestRequest{Title: "Receipts", Description: &desc, Status: "inactive"},
		&cms.UpdateFileRequestOptions{IfMatch: fr.ETag})
	require.NoError(t, err)
	assert.Equal(t, "Receipts", up.Title)
	assert.Equal(t, desc, up.Description)
	assert.Equal(t, cms.FileRequestStatus("inactive"), up.Status)
	assert.NotEqual(t, fr.ETag, up.ETag)
	_, _, err = user.FileRequests.Update(ctx, fr.ID, &cms.UpdateFileRequestRequest{Title: "Again"}, &cms.UpdateFileRequestOptions{IfMatch: fr.ETag})
	apiCode(t, err, 412, "precondition_failed")

	// Copy to another folder: a new request with the same settings.
	dest, _, err := user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Inbox", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	cp, resp, err := user.FileRequests.Copy(ctx, fr.ID, &cms.CopyFileRequestRequest{Folder: cms.FolderRef{ID: dest.ID}})
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.NotEqual(t, fr.ID, cp.ID)
	assert.Equal(t, "Receipts", cp.Title)
	assert.Equal(t, desc, cp.Description)
	assert.Equal(t, dest.ID, cp.Folder.ID)

	// A stranger sees nothing; a viewer sees but may not change.
	other, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Other", Login: "other@cms.test"}, nil)
	require.NoError(t, err)
	stranger, err := admin.AsUser(other.ID)
	require.NoError(t, err)
	_, _, err = stranger.FileRequests.Get(ctx, cp.ID)
	apiCode(t, err, 404, "not_found")
	_, _, err = admin.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: dest.ID},
		User: &cms.UserRef{ID: other.ID}, Role: cms.CollaborationRoleViewer}, nil)
	require.NoError(t, err)
	_, _, err = stranger.FileRequests.Get(ctx, cp.ID)
	require.NoError(t, err)
	_, err = stranger.FileRequests.Delete(ctx, cp.ID)
	apiCode(t, err, 403, "access_denied_insufficient_permissions")
	_, _, err = user.FileRequests.Copy(ctx, fr.ID, &cms.CopyFileRequestRequest{Folder: cms.FolderRef{ID: "999999"}})
	apiCode(t, err, 404, "not_found")

	resp, err = user.FileRequests.Delete(ctx, cp.ID)
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
	_, _, err = user.FileRequests.Get(ctx, cp.ID)
	apiCode(t, err, 404, "not_found")
}

// Email aliases, invites, external users and file requests outlive a
// restart of a persisted server.
func TestUserFamiliesPersist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	opts := cmstest.Options{DataDir: t.TempDir(), FileRequests: 2, ExternalUsers: []string{"guest@partner.test"}}
	srv := cmstest.NewServer(t, opts)
	admin := srv.AdminClient(t)
	alias, _, err := admin.EmailAliases.Create(ctx, srv.UserID(), &cms.CreateEmailAliasRequest{Email: "alias@cms.test"})
	require.NoError(t, err)
	in, _, err := admin.Invites.Create(ctx, &cms.CreateInviteRequest{
		Enterprise: cms.EnterpriseRef{ID: srv.EnterpriseID()}, ActionableBy: cms.InviteeRef{Login: "guest@partner.test"}}, nil)
	require.NoError(t, err)
	ids := srv.FileRequestIDs()
	require.Len(t, ids, 2)
	_, _, err = admin.FileRequests.Update(ctx, ids[1], &cms.UpdateFileRequestRequest{Title: "Kept"}, nil)
	require.NoError(t, err)
	guest := srv.ExternalUsers()
	require.NoError(t, srv.Close())

	srv2 := cmstest.NewServer(t, opts)
	require.True(t, srv2.Restored())
	admin = srv2.AdminClient(t)
	assert.Equal(t, ids, srv2.FileRequestIDs(), "a resumed server seeds no new requests")
	assert.Equal(t, guest, srv2.ExternalUsers())
	aliases, _, err := admin.EmailAliases.List(ctx, srv2.UserID())
	require.NoError(t, err)
	require.Len(t, aliases.Entries, 1)
	assert.Equal(t, *alias, *aliases.Entries[0])
	got, _, err := admin.Invites.Get(ctx, in.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, in.ActionableBy.ID, got.ActionableBy.ID)
	fr, _, err := admin.FileRequests.Get(ctx, ids[1])
	require.NoError(t, err)
	assert.Equal(t, "Kept", fr.Title)
}
