package cms

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWireEnumsAndLimitsCheckedBeforeSending: every enum value and page
// size or offset the wire does not define is an *ArgError matching
// ErrInvalidArgument, and nothing is sent; the boundary values are sent.
func TestWireEnumsAndLimitsCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	c := e.client
	ctx := context.Background()
	neg := int64(-2)
	unlimited := int64(-1)
	cases := map[string]func() error{
		"user update role admin": func() error {
			_, _, err := c.Users.Update(ctx, "1", &UpdateUserRequest{Role: UserRoleAdmin}, nil)
			return err
		},
		"user update unknown role": func() error {
			_, _, err := c.Users.Update(ctx, "1", &UpdateUserRequest{Role: "owner"}, nil)
			return err
		},
		"user update unknown status": func() error {
			_, _, err := c.Users.Update(ctx, "1", &UpdateUserRequest{Status: "frozen"}, nil)
			return err
		},
		"user update quota below -1": func() error {
			_, _, err := c.Users.Update(ctx, "1", &UpdateUserRequest{SpaceAmount: &neg}, nil)
			return err
		},
		"user create role admin": func() error {
			_, _, err := c.Users.Create(ctx, &CreateUserRequest{Name: "A", Login: "a@b.test", Role: UserRoleAdmin}, nil)
			return err
		},
		"user create unknown status": func() error {
			_, _, err := c.Users.Create(ctx, &CreateUserRequest{Name: "A", Login: "a@b.test", Status: "frozen"}, nil)
			return err
		},
		"users unknown user_type": func() error {
			_, _, err := c.Users.List(ctx, &ListUsersOptions{UserType: "robots"})
			return err
		},
		"users limit -1": func() error { _, _, err := c.Users.List(ctx, &ListUsersOptions{Limit: -1}); return err },
		"users offset 10001": func() error {
			_, _, err := c.Users.List(ctx, &ListUsersOptions{Offset: 10001})
			return err
		},
		"users by marker unknown user_type": func() error {
			_, _, err := c.Users.ListByMarker(ctx, &ListUsersByMarkerOptions{UserType: "Managed"})
			return err
		},
		"users by marker limit -1": func() error {
			_, _, err := c.Users.ListByMarker(ctx, &ListUsersByMarkerOptions{Limit: -1})
			return err
		},
		"group create unknown invitability": func() error {
			_, _, err := c.Groups.Create(ctx, &CreateGroupRequest{Name: "G", InvitabilityLevel: "everyone"}, nil)
			return err
		},
		"group update unknown viewability": func() error {
			_, _, err := c.Groups.Update(ctx, "1", &UpdateGroupRequest{MemberViewabilityLevel: "public"}, nil)
			return err
		},
		"groups limit -1":     func() error { _, _, err := c.Groups.List(ctx, &ListGroupsOptions{Limit: -1}); return err },
		"groups offset 10001": func() error { _, _, err := c.Groups.List(ctx, &ListGroupsOptions{Offset: 10001}); return err },
		"membership create role owner": func() error {
			_, _, err := c.GroupMemberships.Create(ctx, &CreateGroupMembershipRequest{User: UserRef{ID: "1"}, Group: GroupRef{ID: "2"}, Role: "owner"}, nil)
			return err
		},
		"membership update role owner": func() error {
			_, _, err := c.GroupMemberships.Update(ctx, "1", &UpdateGroupMembershipRequest{Role: "owner"}, nil)
			return err
		},
		"memberships by group limit -1": func() error {
			_, _, err := c.GroupMemberships.ListByGroup(ctx, "1", &ListMembershipsOptions{Limit: -1})
			return err
		},
		"memberships by user offset 10001": func() error {
			_, _, err := c.GroupMemberships.ListByUser(ctx, "1", &ListMembershipsOptions{Offset: 10001})
			return err
		},
		"device pins direction": func() error {
			_, _, err := c.DevicePins.ListByEnterprise(ctx, "1", &ListDevicePinsOptions{Direction: "asc"})
			return err
		},
		"device pins limit -1": func() error {
			_, _, err := c.DevicePins.ListByEnterprise(ctx, "1", &ListDevicePinsOptions{Limit: -1})
			return err
		},
		"trash limit -1":     func() error { _, _, err := c.Trash.ListItems(ctx, &ListTrashOptions{Limit: -1}); return err },
		"trash offset 10001": func() error { _, _, err := c.Trash.ListItems(ctx, &ListTrashOptions{Offset: 10001}); return err },
		"trash direction": func() error {
			_, _, err := c.Trash.ListItems(ctx, &ListTrashOptions{Direction: "down"})
			return err
		},
		"trash by marker limit -1": func() error {
			_, _, err := c.Trash.ListItemsByMarker(ctx, &ListTrashByMarkerOptions{Limit: -1})
			return err
		},
		"shared link short password": func() error {
			_, _, err := c.WebLinks.Update(ctx, "1", &UpdateWebLinkRequest{SharedLink: Set(SharedLinkRequest{Password: Set("Ab1")})}, nil)
			return err
		},
		"shared link weak password": func() error {
			_, _, err := c.WebLinks.Update(ctx, "1", &UpdateWebLinkRequest{SharedLink: Set(SharedLinkRequest{Password: Set("lowercaseonly")})}, nil)
			return err
		},
		"shared link password without open access": func() error {
			_, _, err := c.WebLinks.Update(ctx, "1", &UpdateWebLinkRequest{SharedLink: Set(SharedLinkRequest{Access: SharedLinkAccessCompany, Password: Set("Secret-123")})}, nil)
			return err
		},
		"shared link short vanity name": func() error {
			_, _, err := c.WebLinks.Update(ctx, "1", &UpdateWebLinkRequest{SharedLink: Set(SharedLinkRequest{VanityName: "short"})}, nil)
			return err
		},
		"templates limit -1": func() error {
			_, _, err := c.MetadataTemplates.ListEnterprise(ctx, &ListMetadataTemplatesOptions{Limit: -1})
			return err
		},
		"retention policies unknown type": func() error {
			_, _, err := c.RetentionPolicies.List(ctx, &ListRetentionPoliciesOptions{PolicyType: "forever"})
			return err
		},
		"retention policies limit -1": func() error {
			_, _, err := c.RetentionPolicies.List(ctx, &ListRetentionPoliciesOptions{Limit: -1})
			return err
		},
		"retention policy update unknown disposition": func() error {
			_, _, err := c.RetentionPolicies.Update(ctx, "1", &UpdateRetentionPolicyRequest{DispositionAction: "archive"})
			return err
		},
		"retention assignments unknown type": func() error {
			_, _, err := c.RetentionPolicyAssignments.ListByPolicy(ctx, "1", &ListRetentionPolicyAssignmentsOptions{Type: "user"})
			return err
		},
		"files under retention limit -1": func() error {
			_, _, err := c.RetentionPolicyAssignments.ListFilesUnderRetention(ctx, "1", &GovernancePageOptions{Limit: -1})
			return err
		},
		"file version retentions unknown disposition": func() error {
			_, _, err := c.FileVersionRetentions.List(ctx, &ListFileVersionRetentionsOptions{DispositionAction: "archive"})
			return err
		},
		"legal hold policies limit -1": func() error {
			_, _, err := c.LegalHoldPolicies.List(ctx, &ListLegalHoldPoliciesOptions{Limit: -1})
			return err
		},
		"legal hold assignments unknown target": func() error {
			_, _, err := c.LegalHoldPolicyAssignments.ListByPolicy(ctx, "1", &ListLegalHoldPolicyAssignmentsOptions{AssignToType: "interaction"})
			return err
		},
		"files on hold limit -1": func() error {
			_, _, err := c.LegalHoldPolicyAssignments.ListFilesOnHold(ctx, "1", &OnHoldOptions{Limit: -1})
			return err
		},
		"file version legal holds limit -1": func() error {
			_, _, err := c.FileVersionLegalHolds.ListByPolicy(ctx, "1", &GovernancePageOptions{Limit: -1})
			return err
		},
	}
	for name, call := range cases {
		err := call()
		var ae *ArgError
		if assert.ErrorAs(t, err, &ae, name) {
			assert.ErrorIs(t, err, ErrInvalidArgument, name)
		}
	}
	require.Empty(t, e.requests(), "nothing is sent for a refused argument")

	// The boundaries are sent.
	e.api.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"entries": []any{}, "total_count": 0})
	})
	for name, err := range map[string]error{
		"users limit 1000, offset 10000": second(c.Users.List(ctx, &ListUsersOptions{Limit: 1000, Offset: 10000, UserType: UserTypeExternal})),
		// A limit above the maximum is the service's to cap: sent as is.
		"users limit 5000":        second(c.Users.List(ctx, &ListUsersOptions{Limit: 5000})),
		"groups limit 5000":       second(c.Groups.List(ctx, &ListGroupsOptions{Limit: 5000})),
		"folder items limit 5000": second(c.Folders.ListItems(ctx, "0", &ListItemsOptions{Limit: 5000})),
		"trash limit 5000":        second(c.Trash.ListItemsByMarker(ctx, &ListTrashByMarkerOptions{Limit: 5000})),
		"device pins DESC":        second(c.DevicePins.ListByEnterprise(ctx, "1", &ListDevicePinsOptions{Limit: 1000, Direction: SortDirectionDescending})),
		"trash sorted":            second(c.Trash.ListItems(ctx, &ListTrashOptions{Sort: TrashSortSize, Direction: SortDirectionDescending})),
		"user quota unlimited":    second(c.Users.Update(ctx, "1", &UpdateUserRequest{SpaceAmount: &unlimited, Role: UserRoleCoadmin, Status: UserStatusCannotDeleteEditUpload}, nil)),
	} {
		assert.NoError(t, err, name)
	}
	assert.Len(t, e.requests(), 8)
	limits := 0
	for _, r := range e.requests() {
		if strings.Contains(r.Query, "limit=5000") {
			limits++
		}
	}
	assert.Equal(t, 4, limits, "the four limits of 5000 are sent as they are")
}

// second returns the error of a (value, response, error) call.
func second[A, B any](_ A, _ B, err error) error { return err }
