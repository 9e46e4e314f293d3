package cms_test

// Tests of GroupsService and GroupMembershipsService against the reference server.

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGroupsLifecycle(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	g, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{
		Name: "Legal", Description: "Counsel", MemberViewabilityLevel: cms.GroupAccessLevelAdminsAndMembers,
	}, &cms.FieldsOptions{Fields: []string{"name", "description", "member_viewability_level", "invitability_level", "permissions"}})
	require.NoError(t, err)
	assert.Equal(t, "Counsel", g.Description)
	assert.Equal(t, cms.GroupTypeManaged, g.GroupType)
	assert.Equal(t, cms.GroupAccessLevelAdminsAndMembers, g.MemberViewabilityLevel)
	assert.Equal(t, cms.GroupAccessLevelAdminsOnly, g.InvitabilityLevel)
	require.NotNil(t, g.Permissions)
	assert.True(t, g.Permissions.CanInviteAsCollaborator)

	_, _, err = admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: "legal"}, nil)
	requireCode(t, err, 409, cms.ErrInvalidParameter)
	assert.ErrorIs(t, err, cms.ErrConflict)

	_, _, err = srv.Client(t).Groups.Get(ctx, g.ID, nil)
	requireCode(t, err, 403, cms.ErrAccessDeniedInsufficientPermissions)

	empty := ""
	up, _, err := admin.Groups.Update(ctx, g.ID, &cms.UpdateGroupRequest{Name: "Legal Team", Description: &empty},
		&cms.FieldsOptions{Fields: []string{"name", "description"}})
	require.NoError(t, err)
	assert.Equal(t, "Legal Team", up.Name)
	assert.Equal(t, "", up.Description)

	got, _, err := admin.Groups.Get(ctx, g.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, "Legal Team", got.Name)
	assert.False(t, got.CreatedAt.IsZero())

	_, err = admin.Groups.Delete(ctx, g.ID)
	require.NoError(t, err)
	_, _, err = admin.Groups.Get(ctx, g.ID, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)
}

func TestGroupsListPages(t *testing.T) {
	t.Parallel()
	_, admin := adminServer(t)
	ctx := context.Background()
	var want []string
	for i := range 5 {
		g, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: fmt.Sprintf("Crew %d", i)}, nil)
		require.NoError(t, err)
		want = append(want, g.ID)
	}
	_, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: "Zeta"}, nil)
	require.NoError(t, err)
	page, _, err := admin.Groups.List(ctx, &cms.ListGroupsOptions{FilterTerm: "crew", Limit: 2})
	require.NoError(t, err)
	assert.Equal(t, 5, page.TotalCount)
	var got []string
	for g, err := range admin.Groups.ListIter(ctx, &cms.ListGroupsOptions{FilterTerm: "crew", Limit: 2}) {
		require.NoError(t, err)
		got = append(got, g.ID)
	}
	assert.Equal(t, want, got)
	p := admin.Groups.NewListPaginator(&cms.ListGroupsOptions{Limit: 4})
	n := 0
	for p.HasMorePages() {
		pg, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		n += len(pg.Entries)
	}
	assert.Equal(t, 6, n)
}

func TestGroupMemberships(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	g, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: "Ops"}, nil)
	require.NoError(t, err)

	m, _, err := admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{
		User: cms.UserRef{ID: srv.UserID()}, Group: cms.GroupRef{ID: g.ID}, Role: cms.GroupRoleAdmin,
		ConfigurablePermissions: cms.Set(map[cms.GroupAdminPermission]bool{cms.GroupAdminPermissionCanRunReports: false}),
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, cms.GroupRoleAdmin, m.Role)
	assert.Equal(t, "Ops", m.Group.Name)
	assert.Equal(t, srv.UserID(), m.User.ID)
	assert.Equal(t, map[cms.GroupAdminPermission]bool{
		cms.GroupAdminPermissionCanRunReports: false, cms.GroupAdminPermissionCanInstantLogin: true,
		cms.GroupAdminPermissionCanCreateAccounts: true, cms.GroupAdminPermissionCanEditAccounts: true,
	}, m.ConfigurablePermissions)

	// Null turns every permission off.
	m, _, err = admin.GroupMemberships.Update(ctx, m.ID, &cms.UpdateGroupMembershipRequest{
		ConfigurablePermissions: cms.Null[map[cms.GroupAdminPermission]bool](),
	}, nil)
	require.NoError(t, err)
	for k, v := range m.ConfigurablePermissions {
		assert.False(t, v, k)
	}
	m, _, err = admin.GroupMemberships.Update(ctx, m.ID, &cms.UpdateGroupMembershipRequest{Role: cms.GroupRoleMember}, nil)
	require.NoError(t, err)
	assert.Nil(t, m.ConfigurablePermissions)

	// A role the wire does not define is refused before sending (the
	// server would answer 400 invalid_parameter).
	_, _, err = admin.GroupMemberships.Update(ctx, m.ID, &cms.UpdateGroupMembershipRequest{Role: "owner"}, nil)
	assert.ErrorIs(t, err, cms.ErrInvalidArgument)

	// The member reads their membership and their groups.
	user := srv.Client(t)
	got, _, err := user.GroupMemberships.Get(ctx, m.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, cms.GroupRoleMember, got.Role)
	mine, _, err := user.GroupMemberships.ListByUser(ctx, srv.UserID(), nil)
	require.NoError(t, err)
	assert.Equal(t, 1, mine.TotalCount)

	// Lists over several pages.
	want := []string{m.ID}
	for i := range 4 {
		u, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: fmt.Sprintf("Op %d", i), Login: fmt.Sprintf("op%d@cms.test", i)}, nil)
		require.NoError(t, err)
		mm, _, err := admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{User: cms.UserRef{ID: u.ID}, Group: cms.GroupRef{ID: g.ID}}, nil)
		require.NoError(t, err)
		want = append(want, mm.ID)
	}
	var ids []string
	byGroup := &cms.ListMembershipsOptions{Limit: 2}
	srv.ResetRequests()
	for mm, err := range admin.GroupMemberships.ListByGroupIter(ctx, g.ID, byGroup) {
		require.NoError(t, err)
		ids = append(ids, mm.ID)
	}
	assert.Equal(t, want, ids, "five memberships over three pages")
	var offsets []string
	for _, r := range srv.Requests() {
		assert.Equal(t, "/2.0/groups/"+g.ID+"/memberships", r.Path)
		q, err := url.ParseQuery(r.RawQuery)
		require.NoError(t, err)
		offsets = append(offsets, q.Get("offset"))
	}
	assert.Equal(t, []string{"", "2", "4"}, offsets)
	assert.Equal(t, cms.ListMembershipsOptions{Limit: 2}, *byGroup, "the iterator never changes opts")
	page, _, err := admin.GroupMemberships.ListByGroup(ctx, g.ID, &cms.ListMembershipsOptions{Limit: 2, Offset: 4})
	require.NoError(t, err)
	assert.Len(t, page.Entries, 1)
	assert.Equal(t, 5, page.TotalCount)

	g2, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: "Ops 2"}, nil)
	require.NoError(t, err)
	g3, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: "Ops 3"}, nil)
	require.NoError(t, err)
	for _, gid := range []string{g2.ID, g3.ID} {
		_, _, err := admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{User: cms.UserRef{ID: srv.UserID()}, Group: cms.GroupRef{ID: gid}}, nil)
		require.NoError(t, err)
	}
	var groups []string
	for mm, err := range admin.GroupMemberships.ListByUserIter(ctx, srv.UserID(), &cms.ListMembershipsOptions{Limit: 1}) {
		require.NoError(t, err)
		groups = append(groups, mm.Group.Name)
	}
	assert.Equal(t, []string{"Ops", "Ops 2", "Ops 3"}, groups)

	_, err = admin.GroupMemberships.Delete(ctx, m.ID)
	require.NoError(t, err)
	_, _, err = admin.GroupMemberships.Get(ctx, m.ID, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)
}

func TestGroupsArgumentsCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	long := strings.Repeat("d", 256)
	srv.ResetRequests()
	for name, call := range map[string]func() error{
		"nil create": func() error { _, _, err := admin.Groups.Create(ctx, nil, nil); return err },
		"no name":    func() error { _, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{}, nil); return err },
		"long description": func() error {
			_, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: "a", Description: long}, nil)
			return err
		},
		"long provenance": func() error {
			_, _, err := admin.Groups.Update(ctx, "1", &cms.UpdateGroupRequest{Provenance: &long}, nil)
			return err
		},
		"bad group id":     func() error { _, err := admin.Groups.Delete(ctx, "a/b"); return err },
		"no membership id": func() error { _, _, err := admin.GroupMemberships.Get(ctx, "", nil); return err },
		"membership no user": func() error {
			_, _, err := admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{Group: cms.GroupRef{ID: "1"}}, nil)
			return err
		},
		"list by user no id": func() error { _, _, err := admin.GroupMemberships.ListByUser(ctx, "", nil); return err },
		"negative offset": func() error {
			_, _, err := admin.GroupMemberships.ListByGroup(ctx, "1", &cms.ListMembershipsOptions{Offset: -1})
			return err
		},
		"nil update": func() error { _, _, err := admin.GroupMemberships.Update(ctx, "1", nil, nil); return err },
	} {
		var ae *cms.ArgError
		assert.True(t, errors.As(call(), &ae), name)
	}
	assert.Empty(t, srv.Requests())
}
