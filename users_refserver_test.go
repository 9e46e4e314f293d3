package cms_test

// Tests of UsersService against the reference server.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// adminServer is a reference server with an admin client.
func adminServer(t *testing.T) (*cmstest.Server, *cms.Client) {
	t.Helper()
	srv := cmstest.NewServer(t, cmstest.Options{})
	return srv, srv.AdminClient(t, cms.WithRetryPolicy(fastRetries))
}

// requireCode checks an *APIError's status and its code's sentinel.
func requireCode(t *testing.T, err error, status int, code error) {
	t.Helper()
	var ae *cms.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, status, ae.StatusCode)
	assert.ErrorIs(t, err, code)
}

func TestUsersGetMe(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	me, _, err := admin.Users.GetMe(ctx, &cms.FieldsOptions{Fields: []string{"enterprise", "role"}})
	require.NoError(t, err)
	require.NotNil(t, me.Enterprise)
	assert.Equal(t, srv.EnterpriseID(), me.Enterprise.ID)
	assert.Equal(t, "enterprise", me.Enterprise.Type)
	assert.Equal(t, cms.UserRoleAdmin, me.Role)

	me, _, err = srv.Client(t).Users.GetMe(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, srv.UserID(), me.ID)
	assert.Equal(t, cms.UserStatusActive, me.Status)
	assert.Nil(t, me.Enterprise, "not requested")
}

func TestUsersLifecycle(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	yes := true
	u, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{
		Name: "Ann Example", Login: "ann@cms.test", JobTitle: "Analyst", IsSyncEnabled: &yes,
		TrackingCodes: []cms.TrackingCode{{Name: "dept", Value: "Finance"}},
	}, &cms.FieldsOptions{Fields: []string{"name", "login", "job_title", "tracking_codes", "role"}})
	require.NoError(t, err)
	assert.Equal(t, "Analyst", u.JobTitle)
	assert.Equal(t, cms.UserRoleUser, u.Role)
	assert.Equal(t, []cms.TrackingCode{{Type: "tracking_code", Name: "dept", Value: "Finance"}}, u.TrackingCodes)

	_, _, err = admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Dup", Login: "ANN@cms.test"}, nil)
	requireCode(t, err, 409, cms.ErrUserLoginAlreadyUsed)
	assert.ErrorIs(t, err, cms.ErrConflict)

	empty := ""
	u, _, err = admin.Users.Update(ctx, u.ID, &cms.UpdateUserRequest{
		Name: "Ann E.", JobTitle: &empty, Timezone: "Europe/Oslo",
		NotificationEmail: cms.Set(cms.NotificationEmailRequest{Email: "ann@home.test"}),
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, "Ann E.", u.Name)
	assert.Equal(t, "", u.JobTitle)
	assert.Equal(t, "Europe/Oslo", u.Timezone)
	require.NotNil(t, u.NotificationEmail)
	assert.Equal(t, "ann@home.test", u.NotificationEmail.Email)

	u, _, err = admin.Users.Update(ctx, u.ID, &cms.UpdateUserRequest{NotificationEmail: cms.Null[cms.NotificationEmailRequest]()}, nil)
	require.NoError(t, err)
	assert.Nil(t, u.NotificationEmail)

	_, _, err = admin.Users.Update(ctx, u.ID, &cms.UpdateUserRequest{NotificationEmail: cms.Set(cms.NotificationEmailRequest{Email: "nope"})}, nil)
	requireCode(t, err, 400, cms.ErrInvalidParameter)

	_, _, err = srv.Client(t).Users.Update(ctx, u.ID, &cms.UpdateUserRequest{Name: "Me"}, nil)
	requireCode(t, err, 403, cms.ErrAccessDeniedInsufficientPermissions)

	// Roll out with an explicit null.
	notify := true
	out, _, err := admin.Users.Update(ctx, u.ID, &cms.UpdateUserRequest{Enterprise: cms.Null[string](), Notify: &notify},
		&cms.FieldsOptions{Fields: []string{"enterprise"}})
	require.NoError(t, err)
	assert.Nil(t, out.Enterprise)
	_, _, err = admin.Users.Get(ctx, u.ID, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)

	// Delete: refused while the user owns content, unless forced.
	v, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Vic", Login: "vic@cms.test"}, nil)
	require.NoError(t, err)
	asVic := srv.AdminClient(t, cms.WithAsUser(v.ID))
	_, _, err = asVic.Files.Upload(ctx, "0", "v.txt", strings.NewReader("vic"), 3, nil)
	require.NoError(t, err)
	got, _, err := admin.Users.Get(ctx, v.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(3), got.SpaceUsed)
	_, err = admin.Users.Delete(ctx, v.ID, nil)
	requireCode(t, err, 409, cms.ErrUserHasContent)
	_, err = admin.Users.Delete(ctx, v.ID, &cms.DeleteUserOptions{Force: true, Notify: true})
	require.NoError(t, err)
	_, _, err = admin.Users.Get(ctx, v.ID, nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)
}

func TestUsersArgumentsCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	long := strings.Repeat("x", 256)
	srv.ResetRequests()
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"nil create", func() error { _, _, err := admin.Users.Create(ctx, nil, nil); return err }},
		{"no name", func() error {
			_, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Login: "a@b.test"}, nil)
			return err
		}},
		{"no login", func() error { _, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "A"}, nil); return err }},
		{"long name", func() error {
			_, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: long[:51], Login: "a@b.test"}, nil)
			return err
		}},
		{"long address", func() error {
			a := long
			_, _, err := admin.Users.Update(ctx, "1", &cms.UpdateUserRequest{Address: &a}, nil)
			return err
		}},
		{"long phone", func() error {
			a := long[:101]
			_, _, err := admin.Users.Update(ctx, "1", &cms.UpdateUserRequest{Phone: &a}, nil)
			return err
		}},
		{"empty notification e-mail", func() error {
			_, _, err := admin.Users.Update(ctx, "1", &cms.UpdateUserRequest{NotificationEmail: cms.Set(cms.NotificationEmailRequest{})}, nil)
			return err
		}},
		{"bad id", func() error { _, _, err := admin.Users.Get(ctx, "../x", nil); return err }},
		{"no id", func() error { _, err := admin.Users.Delete(ctx, "", nil); return err }},
		{"negative limit", func() error { _, _, err := admin.Users.List(ctx, &cms.ListUsersOptions{Limit: -1}); return err }},
	} {
		err := c.call()
		var ae *cms.ArgError
		assert.True(t, errors.As(err, &ae), "%s: %v", c.name, err)
	}
	assert.Empty(t, srv.Requests(), "nothing sent")
}

func TestUsersListPages(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	var want []string
	for i := range 7 {
		u, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: fmt.Sprintf("Pat %d", i), Login: fmt.Sprintf("pat%d@cms.test", i)}, nil)
		require.NoError(t, err)
		want = append(want, u.ID)
	}
	page, _, err := admin.Users.List(ctx, &cms.ListUsersOptions{FilterTerm: "pat", Limit: 3})
	require.NoError(t, err)
	assert.Equal(t, 7, page.TotalCount)
	assert.Len(t, page.Entries, 3)

	collect := func(seq func(func(*cms.User, error) bool)) []string {
		var got []string
		for u, err := range seq {
			require.NoError(t, err)
			got = append(got, u.ID)
		}
		return got
	}
	before := len(srv.Requests())
	assert.Equal(t, want, collect(admin.Users.ListIter(ctx, &cms.ListUsersOptions{FilterTerm: "pat", Limit: 3})))
	for i, r := range srv.Requests()[before:] {
		assert.NotContains(t, r.RawQuery, "usemarker", "ListIter pages by offset, as its name says")
		if i > 0 {
			assert.Contains(t, r.RawQuery, "offset=", "ListIter pages by offset, as its name says")
		}
	}
	before = len(srv.Requests())
	assert.Equal(t, want[1:], collect(admin.Users.ListIter(ctx, &cms.ListUsersOptions{FilterTerm: "pat", Limit: 3, Offset: 1})))
	for _, r := range srv.Requests()[before:] {
		assert.NotContains(t, r.RawQuery, "usemarker", "ListIter pages by offset from a given offset")
	}
	before = len(srv.Requests())
	assert.Equal(t, want, collect(admin.Users.ListByMarkerIter(ctx, &cms.ListUsersByMarkerOptions{FilterTerm: "pat", Limit: 2})))
	for _, r := range srv.Requests()[before:] {
		assert.Contains(t, r.RawQuery, "usemarker=true", "ListByMarkerIter pages by marker")
	}

	p := admin.Users.NewListByMarkerPaginator(&cms.ListUsersByMarkerOptions{UserType: cms.UserTypeManaged, Limit: 4})
	var n, pages int
	for p.HasMorePages() {
		pg, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		n += len(pg.Entries)
		pages++
	}
	assert.Equal(t, 10, n, "3 built-in users and 7 new ones")
	assert.Equal(t, 3, pages)

	op := admin.Users.NewListPaginator(&cms.ListUsersOptions{Limit: 6})
	pages = 0
	for op.HasMorePages() {
		_, _, err := op.NextPage(ctx)
		require.NoError(t, err)
		pages++
	}
	assert.Equal(t, 2, pages)
}
