package cms

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// GroupMembershipsService handles group memberships (/group_memberships).
type GroupMembershipsService service

// GroupRole is a user's role in a group.
type GroupRole string

// Group roles.
const (
	GroupRoleMember GroupRole = "member"
	GroupRoleAdmin  GroupRole = "admin"
)

func checkGroupRole(r GroupRole) error { return checkEnum("role", r, GroupRoleMember, GroupRoleAdmin) }

// GroupAdminPermission is a configurable permission of a group admin.
type GroupAdminPermission string

// The configurable permissions the service names (others may exist).
const (
	GroupAdminPermissionCanRunReports     GroupAdminPermission = "can_run_reports"
	GroupAdminPermissionCanInstantLogin   GroupAdminPermission = "can_instant_login"
	GroupAdminPermissionCanCreateAccounts GroupAdminPermission = "can_create_accounts"
	GroupAdminPermissionCanEditAccounts   GroupAdminPermission = "can_edit_accounts"
)

// GroupMembership is a user's membership of a group.
type GroupMembership struct {
	ID    string     `json:"id"`
	Type  string     `json:"type,omitzero"`
	User  *UserMini  `json:"user,omitzero"`
	Group *GroupMini `json:"group,omitzero"`
	Role  GroupRole  `json:"role,omitzero"`
	// ConfigurablePermissions are a group admin's permissions (nil for a
	// member, or when the service does not send them).
	ConfigurablePermissions map[GroupAdminPermission]bool `json:"configurable_permissions,omitzero"`
	CreatedAt               time.Time                     `json:"created_at,omitzero"`
	ModifiedAt              time.Time                     `json:"modified_at,omitzero"`
}

// UserRef and GroupRef name a user or a group by id in a request body.
type (
	UserRef struct {
		ID string `json:"id"`
	}
	GroupRef struct {
		ID string `json:"id"`
	}
)

// CreateGroupMembershipRequest is the body of GroupMembershipsService.Create.
type CreateGroupMembershipRequest struct {
	User  UserRef  `json:"user"`
	Group GroupRef `json:"group"`
	// Role is member (the default) or admin.
	Role GroupRole `json:"role,omitzero"`
	// ConfigurablePermissions count for a group admin only: left out, every
	// permission is on; Null turns them all off; a map sets the permissions
	// it names as given and leaves the others on.
	ConfigurablePermissions Nullable[map[GroupAdminPermission]bool] `json:"configurable_permissions,omitzero"`
}

// UpdateGroupMembershipRequest is the body of GroupMembershipsService.Update.
type UpdateGroupMembershipRequest struct {
	Role GroupRole `json:"role,omitzero"`
	// ConfigurablePermissions as in CreateGroupMembershipRequest; left out,
	// a group admin keeps the permissions it has.
	ConfigurablePermissions Nullable[map[GroupAdminPermission]bool] `json:"configurable_permissions,omitzero"`
}

// Create adds a user to a group (POST /group_memberships). Admin only.
func (s *GroupMembershipsService) Create(ctx context.Context, body *CreateGroupMembershipRequest, opts *FieldsOptions) (*GroupMembership, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("user", body.User.ID); err != nil {
		return nil, nil, err
	}
	if err := checkID("group", body.Group.ID); err != nil {
		return nil, nil, err
	}
	if err := checkGroupRole(body.Role); err != nil {
		return nil, nil, err
	}
	return callAPI[GroupMembership](ctx, s.client, http.MethodPost, body, opts, "group_memberships")
}

// Get fetches a membership (GET /group_memberships/{group_membership_id}).
func (s *GroupMembershipsService) Get(ctx context.Context, membershipID string, opts *FieldsOptions) (*GroupMembership, *Response, error) {
	if err := checkID("group membership", membershipID); err != nil {
		return nil, nil, err
	}
	return getAPI[GroupMembership](ctx, s.client, opts, "group_memberships", membershipID)
}

// Update changes a membership's role or permissions
// (PUT /group_memberships/{group_membership_id}): for admins and the group's admins.
func (s *GroupMembershipsService) Update(ctx context.Context, membershipID string, body *UpdateGroupMembershipRequest, opts *FieldsOptions) (*GroupMembership, *Response, error) {
	if err := checkID("group membership", membershipID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkGroupRole(body.Role); err != nil {
		return nil, nil, err
	}
	return callAPI[GroupMembership](ctx, s.client, http.MethodPut, body, opts, "group_memberships", membershipID)
}

// Delete removes a user from a group (DELETE /group_memberships/{group_membership_id}).
func (s *GroupMembershipsService) Delete(ctx context.Context, membershipID string) (*Response, error) {
	if err := checkID("group membership", membershipID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "group_memberships", membershipID)
}

// ListMembershipsOptions page the lists of memberships.
type ListMembershipsOptions struct {
	// Offset (at most 10000) and Limit (at most 1000) page the list.
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"`
}

// membershipsPage fetches one page of a memberships list under parent.
func (s *GroupMembershipsService) membershipsPage(ctx context.Context, parent, id string, opts *ListMembershipsOptions) (*OffsetPage[*GroupMembership], *Response, error) {
	if err := checkID(parent[:len(parent)-1], id); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListMembershipsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*GroupMembership]](ctx, s.client, opts, parent, id, "memberships")
}

// membershipsSeq yields every membership of a list under parent.
func (s *GroupMembershipsService) membershipsSeq(ctx context.Context, parent, id string, opts *ListMembershipsOptions) iter.Seq2[*GroupMembership, error] {
	start, fetch := s.membershipsPages(parent, id, opts)
	return offsetSeq(ctx, start, fetch)
}

// membershipsPages pages the memberships of a group or a user with a
// private copy of opts.
func (s *GroupMembershipsService) membershipsPages(parent, id string, opts *ListMembershipsOptions) (int, offsetPageFunc[*GroupMembership]) {
	return pageFuncs(opts, func(o *ListMembershipsOptions) *int { return &o.Offset },
		func(ctx context.Context, o *ListMembershipsOptions) (*OffsetPage[*GroupMembership], *Response, error) {
			return s.membershipsPage(ctx, parent, id, o)
		})
}

// NewListByGroupPaginator walks a group's memberships one offset page at a
// time (GET /groups/{group_id}/memberships). It never changes opts.
func (s *GroupMembershipsService) NewListByGroupPaginator(groupID string, opts *ListMembershipsOptions) *OffsetPaginator[*GroupMembership] {
	return newOffsetPaginator(s.membershipsPages("groups", groupID, opts))
}

// NewListByUserPaginator walks a user's memberships one offset page at a
// time (GET /users/{user_id}/memberships). It never changes opts.
func (s *GroupMembershipsService) NewListByUserPaginator(userID string, opts *ListMembershipsOptions) *OffsetPaginator[*GroupMembership] {
	return newOffsetPaginator(s.membershipsPages("users", userID, opts))
}

// ListByGroup returns one offset page of a group's memberships
// (GET /groups/{group_id}/memberships).
func (s *GroupMembershipsService) ListByGroup(ctx context.Context, groupID string, opts *ListMembershipsOptions) (*OffsetPage[*GroupMembership], *Response, error) {
	return s.membershipsPage(ctx, "groups", groupID, opts)
}

// ListByGroupIter yields every membership of a group, fetching offset
// pages (GET /groups/{group_id}/memberships) lazily. It never changes opts.
func (s *GroupMembershipsService) ListByGroupIter(ctx context.Context, groupID string, opts *ListMembershipsOptions) iter.Seq2[*GroupMembership, error] {
	return s.membershipsSeq(ctx, "groups", groupID, opts)
}

// ListByUser returns one offset page of a user's memberships
// (GET /users/{user_id}/memberships): for admins and the user.
func (s *GroupMembershipsService) ListByUser(ctx context.Context, userID string, opts *ListMembershipsOptions) (*OffsetPage[*GroupMembership], *Response, error) {
	return s.membershipsPage(ctx, "users", userID, opts)
}

// ListByUserIter yields every membership of a user, fetching offset pages
// (GET /users/{user_id}/memberships) lazily. It never changes opts.
func (s *GroupMembershipsService) ListByUserIter(ctx context.Context, userID string, opts *ListMembershipsOptions) iter.Seq2[*GroupMembership, error] {
	return s.membershipsSeq(ctx, "users", userID, opts)
}
