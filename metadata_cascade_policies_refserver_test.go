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

// cascadeFixture makes the "contract" template (one string field,
// "status") and a folder "Deals" of the user holding a.txt and Sub/b.txt.
func cascadeFixture(t *testing.T, admin, user *cms.Client) (folder, sub *cms.Folder, a, b *cms.File) {
	t.Helper()
	ctx := context.Background()
	_, _, err := admin.MetadataTemplates.Create(ctx, &cms.CreateMetadataTemplateRequest{TemplateKey: "contract", DisplayName: "Contract",
		Fields: []*cms.MetadataField{{Type: cms.MetadataFieldTypeString, Key: "status", DisplayName: "Status"}}})
	require.NoError(t, err)
	folder, _, err = user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Deals", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	sub, _, err = user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Sub", Parent: cms.FolderRef{ID: folder.ID}}, nil)
	require.NoError(t, err)
	a, _, err = user.Files.Upload(ctx, folder.ID, "a.txt", strings.NewReader("a"), 1, nil)
	require.NoError(t, err)
	b, _, err = user.Files.Upload(ctx, sub.ID, "b.txt", strings.NewReader("b"), 1, nil)
	require.NoError(t, err)
	return folder, sub, a, b
}

// statusOf is the status value of item's contract instance ("" for none).
func statusOf(t *testing.T, c *cms.Client, item cms.MetadataItem) string {
	t.Helper()
	in, _, err := c.Metadata.Get(context.Background(), item, cms.MetadataScopeEnterprise, "contract")
	if apiErr := (*cms.APIError)(nil); err != nil && assert.ErrorAs(t, err, &apiErr) && apiErr.StatusCode == 404 {
		return ""
	}
	require.NoError(t, err)
	s, err := in.String("status")
	require.NoError(t, err)
	return s
}

func TestMetadataCascadePoliciesRefserver(t *testing.T) {
	t.Parallel()
	srv, user := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t)
	ctx := context.Background()
	folder, sub, a, b := cascadeFixture(t, admin, user)
	req := &cms.CreateMetadataCascadePolicyRequest{FolderID: folder.ID, Scope: cms.MetadataScopeEnterprise, TemplateKey: "contract"}

	// The policy may come before the folder's instance; apply may not.
	pol, resp, err := user.MetadataCascadePolicies.Create(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, "metadata_cascade_policy", pol.Type)
	assert.Equal(t, folder.ID, pol.Parent.ID)
	assert.Equal(t, srv.EnterpriseID(), pol.OwnerEnterprise.ID)
	assert.Equal(t, cms.MetadataScope("enterprise_"+srv.EnterpriseID()), pol.Scope)
	assert.Equal(t, "contract", pol.TemplateKey)
	_, err = user.MetadataCascadePolicies.Apply(ctx, pol.ID, cms.ConflictResolutionNone)
	apiCode(t, err, 404, "instance_not_found")

	_, _, err = user.Metadata.Create(ctx, cms.OnFolder(folder.ID), cms.MetadataScopeEnterprise, "contract", map[string]any{"status": "draft"})
	require.NoError(t, err)
	_, _, err = user.Metadata.Create(ctx, cms.OnFile(b.ID), cms.MetadataScopeEnterprise, "contract", map[string]any{"status": "own"})
	require.NoError(t, err)
	resp, err = user.MetadataCascadePolicies.Apply(ctx, pol.ID, cms.ConflictResolutionNone)
	require.NoError(t, err)
	assert.Equal(t, 202, resp.StatusCode)
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFile(a.ID)))
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFolder(sub.ID)))
	assert.Equal(t, "own", statusOf(t, user, cms.OnFile(b.ID)), "none keeps an item's own instance")
	_, err = user.MetadataCascadePolicies.Apply(ctx, pol.ID, cms.ConflictResolutionOverwrite)
	require.NoError(t, err)
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFile(b.ID)), "overwrite replaces it")

	// Items arriving later: uploaded, created, copied and moved in.
	c, _, err := user.Files.Upload(ctx, sub.ID, "c.txt", strings.NewReader("c"), 1, nil)
	require.NoError(t, err)
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFile(c.ID)))
	outside, _, err := user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Outside", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	inner, _, err := user.Files.Upload(ctx, outside.ID, "inner.txt", strings.NewReader("i"), 1, nil)
	require.NoError(t, err)
	assert.Equal(t, "", statusOf(t, user, cms.OnFile(inner.ID)))
	cp, _, err := user.Folders.Copy(ctx, outside.ID, &cms.CopyFolderRequest{Parent: cms.FolderRef{ID: folder.ID}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFolder(cp.ID)))
	_, _, err = user.Folders.Update(ctx, outside.ID, &cms.UpdateFolderRequest{Parent: &cms.FolderRef{ID: sub.ID}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFolder(outside.ID)))
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFile(inner.ID)), "a moved folder brings what it holds")

	// Reads and errors.
	got, _, err := user.MetadataCascadePolicies.Get(ctx, pol.ID)
	require.NoError(t, err)
	assert.Equal(t, pol.ID, got.ID)
	page, _, err := user.MetadataCascadePolicies.ListByFolder(ctx, folder.ID, nil)
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	assert.Equal(t, pol.ID, page.Entries[0].ID)
	_, _, err = user.MetadataCascadePolicies.Create(ctx, req)
	apiCode(t, err, 409, "tuple_already_exists")
	_, _, err = user.MetadataCascadePolicies.Create(ctx, &cms.CreateMetadataCascadePolicyRequest{FolderID: folder.ID, Scope: cms.MetadataScopeEnterprise, TemplateKey: "nope"})
	apiCode(t, err, 404, "instance_tuple_not_found")

	// A stranger sees nothing; a viewer reads but may not apply or delete.
	other, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Other", Login: "other@cms.test"}, nil)
	require.NoError(t, err)
	stranger, err := admin.AsUser(other.ID)
	require.NoError(t, err)
	_, _, err = stranger.MetadataCascadePolicies.Get(ctx, pol.ID)
	apiCode(t, err, 404, "not_found")
	_, _, err = stranger.MetadataCascadePolicies.Create(ctx, req)
	apiCode(t, err, 404, "not_found")
	_, _, err = user.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: folder.ID},
		User: &cms.UserRef{ID: other.ID}, Role: cms.CollaborationRoleViewer}, nil)
	require.NoError(t, err)
	_, _, err = stranger.MetadataCascadePolicies.Get(ctx, pol.ID)
	require.NoError(t, err)
	_, err = stranger.MetadataCascadePolicies.Apply(ctx, pol.ID, cms.ConflictResolutionOverwrite)
	apiCode(t, err, 403, "access_denied_insufficient_permissions")
	_, err = stranger.MetadataCascadePolicies.Delete(ctx, pol.ID)
	apiCode(t, err, 403, "access_denied_insufficient_permissions")

	resp, err = user.MetadataCascadePolicies.Delete(ctx, pol.ID)
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
	_, _, err = user.MetadataCascadePolicies.Get(ctx, pol.ID)
	apiCode(t, err, 404, "instance_not_found")
	d, _, err := user.Files.Upload(ctx, folder.ID, "d.txt", strings.NewReader("d"), 1, nil)
	require.NoError(t, err)
	assert.Equal(t, "", statusOf(t, user, cms.OnFile(d.ID)), "no policy, no cascade")
	assert.Equal(t, "draft", statusOf(t, user, cms.OnFile(a.ID)), "the instances made stay")
}

// A policy outlives a restart of a persisted server, and keeps cascading.
func TestMetadataCascadePolicyPersists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	opts := cmstest.Options{DataDir: t.TempDir()}
	srv := cmstest.NewServer(t, opts)
	user := srv.Client(t)
	folder, _, _, _ := cascadeFixture(t, srv.AdminClient(t), user)
	_, _, err := user.Metadata.Create(ctx, cms.OnFolder(folder.ID), cms.MetadataScopeEnterprise, "contract", map[string]any{"status": "signed"})
	require.NoError(t, err)
	pol, _, err := user.MetadataCascadePolicies.Create(ctx, &cms.CreateMetadataCascadePolicyRequest{FolderID: folder.ID, Scope: cms.MetadataScopeEnterprise, TemplateKey: "contract"})
	require.NoError(t, err)
	require.NoError(t, srv.Close())

	srv2 := cmstest.NewServer(t, opts)
	user = srv2.Client(t)
	got, _, err := user.MetadataCascadePolicies.Get(ctx, pol.ID)
	require.NoError(t, err)
	assert.Equal(t, *pol, *got)
	f, _, err := user.Files.Upload(ctx, folder.ID, "later.txt", strings.NewReader("l"), 1, nil)
	require.NoError(t, err)
	assert.Equal(t, "signed", statusOf(t, user, cms.OnFile(f.ID)))
}
