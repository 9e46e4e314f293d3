package cms_test

// Tests of DevicePinsService against the reference server.

import (
	"context"
	"testing"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDevicePins(t *testing.T) {
	t.Parallel()
	srv, admin := adminServer(t)
	ctx := context.Background()
	require.NoError(t, srv.AddDevicePins(5))
	ent := srv.EnterpriseID()

	page, resp, err := admin.DevicePins.ListByEnterprise(ctx, ent, &cms.ListDevicePinsOptions{Limit: 2})
	require.NoError(t, err)
	require.Len(t, page.Entries, 2)
	assert.NotEmpty(t, page.NextMarker, "the integer next_marker comes through as text")
	assert.Equal(t, page.NextMarker, resp.NextMarker)
	assert.Equal(t, "iPhone", page.Entries[0].ProductName)
	assert.Equal(t, srv.AdminUserID(), page.Entries[0].OwnedBy.ID)

	var asc, desc []string
	for p, err := range admin.DevicePins.ListByEnterpriseIter(ctx, ent, &cms.ListDevicePinsOptions{Limit: 2}) {
		require.NoError(t, err)
		asc = append(asc, p.ID)
	}
	for p, err := range admin.DevicePins.ListByEnterpriseIter(ctx, ent, &cms.ListDevicePinsOptions{Limit: 2, Direction: cms.SortDirectionDescending}) {
		require.NoError(t, err)
		desc = append(desc, p.ID)
	}
	require.Len(t, asc, 5)
	for i := range asc {
		assert.Equal(t, asc[i], desc[len(desc)-1-i])
	}
	pg := admin.DevicePins.NewListByEnterprisePaginator(ent, &cms.ListDevicePinsOptions{Limit: 3})
	pages := 0
	for pg.HasMorePages() {
		_, _, err := pg.NextPage(ctx)
		require.NoError(t, err)
		pages++
	}
	assert.Equal(t, 2, pages)

	pin, _, err := admin.DevicePins.Get(ctx, asc[1])
	require.NoError(t, err)
	assert.Equal(t, srv.UserID(), pin.OwnedBy.ID)
	_, err = admin.DevicePins.Delete(ctx, asc[1])
	require.NoError(t, err)
	_, _, err = admin.DevicePins.Get(ctx, asc[1])
	assert.ErrorIs(t, err, cms.ErrNotFound)

	_, _, err = srv.Client(t).DevicePins.ListByEnterprise(ctx, ent, nil)
	requireCode(t, err, 403, cms.ErrAccessDeniedInsufficientPermissions)
	_, _, err = srv.AppClient(t).DevicePins.Get(ctx, asc[0])
	requireCode(t, err, 403, cms.ErrInsufficientScope)

	var ae *cms.ArgError
	_, _, err = admin.DevicePins.ListByEnterprise(ctx, "", nil)
	assert.ErrorAs(t, err, &ae)
	_, err = admin.DevicePins.Delete(ctx, "..")
	assert.ErrorAs(t, err, &ae)
}
