package cms

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Request bodies and records of users, groups, memberships and device pins
// on the wire.

func TestAdminRecordsJSONRoundTrip(t *testing.T) {
	t.Parallel()
	u := testJSONMarshal[User](t, "user_full.json")
	assert.Equal(t, UserRoleAdmin, u.Role)
	assert.Equal(t, "11446498", u.Enterprise.ID)
	assert.Equal(t, int64(11345156112), u.SpaceAmount)
	assert.True(t, u.NotificationEmail.IsConfirmed)

	// notification_email may come as null or as an empty array.
	for _, raw := range []string{`{"id":"1","notification_email":null}`, `{"id":"1","notification_email":[]}`, `{"id":"1"}`} {
		var v User
		require.NoError(t, json.Unmarshal([]byte(raw), &v), raw)
		assert.Nil(t, v.NotificationEmail, raw)
		assert.Equal(t, "1", v.ID)
	}

	var m GroupMembership
	require.NoError(t, json.Unmarshal([]byte(`{"id":"5","type":"group_membership","role":"admin",
		"user":{"id":"1","type":"user","name":"A","login":"a@b.c"},"group":{"id":"2","type":"group","name":"G","group_type":"managed_group"},
		"configurable_permissions":{"can_run_reports":false,"can_edit_accounts":true}}`), &m))
	assert.Equal(t, map[GroupAdminPermission]bool{GroupAdminPermissionCanRunReports: false, GroupAdminPermissionCanEditAccounts: true}, m.ConfigurablePermissions)
	assert.Equal(t, GroupTypeManaged, m.Group.GroupType)

	var pins MarkerPage[*DevicePin]
	require.NoError(t, json.Unmarshal([]byte(`{"entries":[{"id":"9","type":"device_pinner","owned_by":{"id":"1","type":"user"},"product_name":"iPad"}],"limit":1,"next_marker":3000,"order":[{"by":"id","direction":"asc"}]}`), &pins))
	assert.Equal(t, "3000", pins.NextMarker, "an integer marker")
	assert.Equal(t, "iPad", pins.Entries[0].ProductName)
}

func TestAdminRequestBodies(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	empty := ""
	var zero int64 = -1
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"create user", &CreateUserRequest{Name: "A", Login: "a@b.test"}, `{"name":"A","login":"a@b.test"}`},
		{"create app user", &CreateUserRequest{Name: "Bot", IsPlatformAccessOnly: true, ExternalAppUserID: "x", IsSyncEnabled: &no, SpaceAmount: &zero},
			`{"name":"Bot","is_platform_access_only":true,"external_app_user_id":"x","is_sync_enabled":false,"space_amount":-1}`},
		{"tracking code type filled in", &CreateUserRequest{Name: "A", Login: "a@b.test", TrackingCodes: []TrackingCode{{Name: "n", Value: "v"}}},
			`{"name":"A","login":"a@b.test","tracking_codes":[{"type":"tracking_code","name":"n","value":"v"}]}`},
		{"empty update", &UpdateUserRequest{}, `{}`},
		{"roll out", &UpdateUserRequest{Enterprise: Null[string](), Notify: &yes}, `{"enterprise":null,"notify":true}`},
		{"stay in enterprise", &UpdateUserRequest{Enterprise: Set("42")}, `{"enterprise":"42"}`},
		{"remove notification e-mail", &UpdateUserRequest{NotificationEmail: Null[NotificationEmailRequest]()}, `{"notification_email":null}`},
		{"set notification e-mail", &UpdateUserRequest{NotificationEmail: Set(NotificationEmailRequest{Email: "n@b.test"})}, `{"notification_email":{"email":"n@b.test"}}`},
		{"clear job title, flags", &UpdateUserRequest{JobTitle: &empty, CanSeeManagedUsers: &no, Role: UserRoleCoadmin, Status: UserStatusInactive},
			`{"job_title":"","can_see_managed_users":false,"role":"coadmin","status":"inactive"}`},
		{"create group", &CreateGroupRequest{Name: "G", InvitabilityLevel: GroupAccessLevelAllManagedUsers}, `{"name":"G","invitability_level":"all_managed_users"}`},
		{"update group", &UpdateGroupRequest{Description: &empty}, `{"description":""}`},
		{"membership, permissions left out", &CreateGroupMembershipRequest{User: UserRef{ID: "1"}, Group: GroupRef{ID: "2"}, Role: GroupRoleAdmin},
			`{"user":{"id":"1"},"group":{"id":"2"},"role":"admin"}`},
		{"membership, permissions off", &CreateGroupMembershipRequest{User: UserRef{ID: "1"}, Group: GroupRef{ID: "2"}, ConfigurablePermissions: Null[map[GroupAdminPermission]bool]()},
			`{"user":{"id":"1"},"group":{"id":"2"},"configurable_permissions":null}`},
		{"membership update, permissions set", &UpdateGroupMembershipRequest{ConfigurablePermissions: Set(map[GroupAdminPermission]bool{GroupAdminPermissionCanInstantLogin: false})},
			`{"configurable_permissions":{"can_instant_login":false}}`},
		{"membership update, empty", &UpdateGroupMembershipRequest{}, `{}`},
	} {
		b, err := json.Marshal(c.v)
		require.NoError(t, err, c.name)
		assert.JSONEq(t, c.want, string(b), c.name)
	}
}
