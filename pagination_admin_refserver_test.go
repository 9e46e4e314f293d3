package cms_test

// The offset iterators of users, groups, memberships and the trash against
// the reference server, on pages that are short or empty while more entries
// follow (entries the caller may not see keep their place, as on the
// service: refserver's HideFromPages and HideFromUsers).

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collectIDs ranges over seq and returns the ids it yields.
func collectIDs[T any](t *testing.T, seq func(func(T, error) bool), id func(T) string) []string {
	t.Helper()
	var out []string
	for v, err := range seq {
		require.NoError(t, err)
		out = append(out, id(v))
	}
	return out
}

// drainOffset walks p to its end and returns the ids of every entry.
func drainOffset[T any](t *testing.T, p *cms.OffsetPaginator[T], id func(T) string) []string {
	t.Helper()
	var out []string
	for p.HasMorePages() {
		page, _, err := p.NextPage(context.Background())
		require.NoError(t, err)
		for _, e := range page.Entries {
			out = append(out, id(e))
		}
	}
	return out
}

// offsetsSent lists the offset= values of the requests since before.
func offsetsSent(srv *cmstest.Server, before int) []string {
	var out []string
	for _, r := range srv.Requests()[before:] {
		off := "offset=0"
		for _, kv := range strings.Split(r.RawQuery, "&") {
			if strings.HasPrefix(kv, "offset=") {
				off = kv
			}
		}
		out = append(out, off)
	}
	return out
}

// hide is the pattern of the tests below: with limit 2, entries 0, 1, 3,
// 4 and 5 hidden, page 1 is empty, page 2 short, page 3 empty and page 4
// full; an iterator that stops on a short or empty page loses 6 and 7.
func hide(i int) bool { return i <= 1 || (i >= 3 && i <= 5) }

func TestOffsetIteratorsOfAdminListsDoNotStopEarly(t *testing.T) {
	t.Parallel()
	srv := cmstest.NewServer(t, cmstest.Options{})
	admin := srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
	ctx := context.Background()

	var groups, hiddenIDs, wantGroups []string
	for i := range 8 {
		g, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: fmt.Sprintf("Team %d", i)}, nil)
		require.NoError(t, err)
		groups = append(groups, g.ID)
		if hide(i) {
			hiddenIDs = append(hiddenIDs, g.ID)
		} else {
			wantGroups = append(wantGroups, g.ID)
		}
	}
	// The managed user joins every group: the user's memberships, and a
	// group with eight members for the group's memberships.
	var wantByUser []string
	for i, g := range groups {
		m, _, err := admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{User: cms.UserRef{ID: srv.UserID()}, Group: cms.GroupRef{ID: g}}, nil)
		require.NoError(t, err)
		if hide(i) {
			hiddenIDs = append(hiddenIDs, m.ID)
		} else {
			wantByUser = append(wantByUser, m.ID)
		}
	}
	var wantByGroup, wantUsers []string
	for i := range 8 {
		u, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: fmt.Sprintf("Member %d", i), Login: fmt.Sprintf("member%d@cms.test", i)}, nil)
		require.NoError(t, err)
		m, _, err := admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{User: cms.UserRef{ID: u.ID}, Group: cms.GroupRef{ID: groups[7]}}, nil)
		require.NoError(t, err)
		if hide(i) {
			hiddenIDs = append(hiddenIDs, m.ID, u.ID)
		} else {
			wantByGroup = append(wantByGroup, m.ID)
			wantUsers = append(wantUsers, u.ID)
		}
	}
	require.NoError(t, srv.HideFromPages(hiddenIDs...))
	wantByGroup = append([]string{wantByUser[len(wantByUser)-1]}, wantByGroup...) // the managed user joined first

	groupID := func(g *cms.Group) string { return g.ID }
	membershipID := func(m *cms.GroupMembership) string { return m.ID }
	userID := func(u *cms.User) string { return u.ID }

	t.Run("Groups.ListIter", func(t *testing.T) {
		before := len(srv.Requests())
		assert.Equal(t, wantGroups, collectIDs(t, admin.Groups.ListIter(ctx, &cms.ListGroupsOptions{FilterTerm: "Team", Limit: 2}), groupID))
		assert.Equal(t, []string{"offset=0", "offset=2", "offset=4", "offset=6"}, offsetsSent(srv, before), "offset + limit, to total_count")
	})
	t.Run("Groups.NewListPaginator", func(t *testing.T) {
		p := admin.Groups.NewListPaginator(&cms.ListGroupsOptions{FilterTerm: "Team", Limit: 2})
		assert.Equal(t, wantGroups, drainOffset(t, p, groupID))
	})
	t.Run("GroupMemberships.ListByUserIter", func(t *testing.T) {
		assert.Equal(t, wantByUser, collectIDs(t, admin.GroupMemberships.ListByUserIter(ctx, srv.UserID(), &cms.ListMembershipsOptions{Limit: 2}), membershipID))
	})
	t.Run("GroupMemberships.ListByGroupIter", func(t *testing.T) {
		// Nine members: the managed user (visible) and the eight new ones.
		assert.Equal(t, wantByGroup, collectIDs(t, admin.GroupMemberships.ListByGroupIter(ctx, groups[7], &cms.ListMembershipsOptions{Limit: 2}), membershipID))
	})
	t.Run("Users.ListIter from an offset", func(t *testing.T) {
		// Offset paging from offset 1 (member 0 is hidden anyway).
		assert.Equal(t, wantUsers, collectIDs(t, admin.Users.ListIter(ctx, &cms.ListUsersOptions{FilterTerm: "member", Limit: 2, Offset: 1}), userID))
	})
	t.Run("Users.NewListPaginator", func(t *testing.T) {
		p := admin.Users.NewListPaginator(&cms.ListUsersOptions{FilterTerm: "member", Limit: 2})
		assert.Equal(t, wantUsers, drainOffset(t, p, userID))
	})
}

func TestTrashOffsetIteratorDoesNotStopEarly(t *testing.T) {
	t.Parallel()
	srv, c := refServer(t, cmstest.Options{})
	ctx := context.Background()
	var hidden, want []string
	for i := range 8 {
		name := fmt.Sprintf("t%d.txt", i)
		f, _, err := c.Files.Upload(ctx, "0", name, strings.NewReader("x"), 1, nil)
		require.NoError(t, err)
		_, err = c.Files.Delete(ctx, f.ID, nil)
		require.NoError(t, err)
		if hide(i) {
			hidden = append(hidden, f.ID)
		} else {
			want = append(want, name)
		}
	}
	require.NoError(t, srv.HideFromUsers(hidden...))
	before := len(srv.Requests())
	// A sort makes the iterator page by offset.
	assert.Equal(t, want, names(t, c.Trash.ListItemsIter(ctx, &cms.ListTrashOptions{Limit: 2, Sort: cms.TrashSortName})))
	assert.Equal(t, []string{"offset=0", "offset=2", "offset=4", "offset=6"}, offsetsSent(srv, before))
	assert.Equal(t, want, names(t, c.Trash.ListItemsByMarkerIter(ctx, &cms.ListTrashByMarkerOptions{Limit: 2})))
	// Reading one page ahead, by offset and by marker: the same items, and
	// by offset the same requests.
	before = len(srv.Requests())
	assert.Equal(t, want, names(t, c.Trash.ListItemsIter(ctx, &cms.ListTrashOptions{Limit: 2, Sort: cms.TrashSortName, ReadAhead: true})))
	assert.Equal(t, []string{"offset=0", "offset=2", "offset=4", "offset=6"}, offsetsSent(srv, before))
	assert.Equal(t, want, names(t, c.Trash.ListItemsIter(ctx, &cms.ListTrashOptions{Limit: 2, ReadAhead: true})))
	p := c.Trash.NewListItemsPaginator(&cms.ListTrashOptions{Limit: 2, Sort: cms.TrashSortName})
	assert.Equal(t, want, drainOffset(t, p, func(it *cms.Item) string { return it.Name }))
}
