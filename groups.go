package cms

import (
	"context"
	"iter"
	"net/http"
	"time"
	"unicode/utf8"
)

// GroupsService handles groups (/groups). A group's memberships are
// listed by GroupMembershipsService.ListByGroup and ListByGroupIter.
type GroupsService service

// GroupType tells a managed group from the group of all users.
type GroupType string

// Group types.
const (
	GroupTypeManaged  GroupType = "managed_group"
	GroupTypeAllUsers GroupType = "all_users_group"
)

// GroupAccessLevel says who may invite a group (invitability_level) or see
// its members (member_viewability_level).
type GroupAccessLevel string

// Group access levels.
const (
	GroupAccessLevelAdminsOnly       GroupAccessLevel = "admins_only"
	GroupAccessLevelAdminsAndMembers GroupAccessLevel = "admins_and_members"
	GroupAccessLevelAllManagedUsers  GroupAccessLevel = "all_managed_users"
)

// GroupMini is the short form of a group (Group--Mini).
type GroupMini struct {
	ID        string    `json:"id"`
	Type      string    `json:"type,omitzero"`
	Name      string    `json:"name,omitzero"`
	GroupType GroupType `json:"group_type,omitzero"`
}

// Group is a group (Group--Full). The standard fields come by default; the
// others (Description, Provenance, the levels, Permissions) only when named
// in FieldsOptions.Fields.
type Group struct {
	ID                     string            `json:"id"`
	Type                   string            `json:"type,omitzero"`
	Name                   string            `json:"name,omitzero"`
	GroupType              GroupType         `json:"group_type,omitzero"`
	CreatedAt              time.Time         `json:"created_at,omitzero"`
	ModifiedAt             time.Time         `json:"modified_at,omitzero"`
	Provenance             string            `json:"provenance,omitzero"`
	ExternalSyncIdentifier string            `json:"external_sync_identifier,omitzero"`
	Description            string            `json:"description,omitzero"`
	InvitabilityLevel      GroupAccessLevel  `json:"invitability_level,omitzero"`
	MemberViewabilityLevel GroupAccessLevel  `json:"member_viewability_level,omitzero"`
	Permissions            *GroupPermissions `json:"permissions,omitzero"`
}

// GroupPermissions are what the caller may do with a group.
type GroupPermissions struct {
	CanInviteAsCollaborator bool `json:"can_invite_as_collaborator"`
}

// maxGroupTextLen is the longest description and provenance allowed.
const maxGroupTextLen = 255

// CreateGroupRequest is the body of GroupsService.Create. Name is required
// and unique in the enterprise.
type CreateGroupRequest struct {
	Name string `json:"name"`
	// Provenance names the system the group is synced from (≤ 255 characters).
	Provenance             string           `json:"provenance,omitzero"`
	ExternalSyncIdentifier string           `json:"external_sync_identifier,omitzero"`
	Description            string           `json:"description,omitzero"`
	InvitabilityLevel      GroupAccessLevel `json:"invitability_level,omitzero"`
	MemberViewabilityLevel GroupAccessLevel `json:"member_viewability_level,omitzero"`
}

// UpdateGroupRequest is the body of GroupsService.Update. Zero fields are
// left as they are; a pointer to "" clears a text field.
type UpdateGroupRequest struct {
	Name                   string           `json:"name,omitzero"`
	Provenance             *string          `json:"provenance,omitempty"`
	ExternalSyncIdentifier *string          `json:"external_sync_identifier,omitempty"`
	Description            *string          `json:"description,omitempty"`
	InvitabilityLevel      GroupAccessLevel `json:"invitability_level,omitzero"`
	MemberViewabilityLevel GroupAccessLevel `json:"member_viewability_level,omitzero"`
}

// checkGroupLevels rejects access levels other than the three.
func checkGroupLevels(invitability, memberViewability GroupAccessLevel) error {
	levels := []GroupAccessLevel{GroupAccessLevelAdminsOnly, GroupAccessLevelAdminsAndMembers, GroupAccessLevelAllManagedUsers}
	return firstErr(
		checkEnum("invitability_level", invitability, levels...),
		checkEnum("member_viewability_level", memberViewability, levels...),
	)
}

func groupTextLengths(provenance, description *string) error {
	if provenance != nil && utf8.RuneCountInString(*provenance) > maxGroupTextLen {
		return invalidArg("provenance", "longer than 255 characters")
	}
	if description != nil && utf8.RuneCountInString(*description) > maxGroupTextLen {
		return invalidArg("description", "longer than 255 characters")
	}
	return nil
}

// Create creates a group (POST /groups). Admin only. A name in use fails
// with a 409 *APIError matching ErrConflict and ErrInvalidParameter.
func (s *GroupsService) Create(ctx context.Context, body *CreateGroupRequest, opts *FieldsOptions) (*Group, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if body.Name == "" {
		return nil, nil, invalidArg("name", "empty")
	}
	if err := firstErr(groupTextLengths(&body.Provenance, &body.Description), checkGroupLevels(body.InvitabilityLevel, body.MemberViewabilityLevel)); err != nil {
		return nil, nil, err
	}
	return callAPI[Group](ctx, s.client, http.MethodPost, body, opts, "groups")
}

// Get fetches a group (GET /groups/{group_id}): for admins and the group's members.
func (s *GroupsService) Get(ctx context.Context, groupID string, opts *FieldsOptions) (*Group, *Response, error) {
	if err := checkID("group", groupID); err != nil {
		return nil, nil, err
	}
	return getAPI[Group](ctx, s.client, opts, "groups", groupID)
}

// Update changes a group (PUT /groups/{group_id}): for admins and the group's admins.
func (s *GroupsService) Update(ctx context.Context, groupID string, body *UpdateGroupRequest, opts *FieldsOptions) (*Group, *Response, error) {
	if err := checkID("group", groupID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := firstErr(groupTextLengths(body.Provenance, body.Description), checkGroupLevels(body.InvitabilityLevel, body.MemberViewabilityLevel)); err != nil {
		return nil, nil, err
	}
	return callAPI[Group](ctx, s.client, http.MethodPut, body, opts, "groups", groupID)
}

// Delete deletes a group and its memberships (DELETE /groups/{group_id}). Admin only.
func (s *GroupsService) Delete(ctx context.Context, groupID string) (*Response, error) {
	if err := checkID("group", groupID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "groups", groupID)
}

// ListGroupsOptions are the options of GroupsService.List.
type ListGroupsOptions struct {
	// FilterTerm keeps groups whose name starts with it (query filter_term).
	FilterTerm string   `url:"filter_term,omitempty"`
	Fields     []string `url:"fields,comma,omitempty"`
	// Offset (at most 10000) and Limit (at most 1000) page the list.
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"`
}

// List returns one offset page of the enterprise's groups (GET /groups). Admin only.
func (s *GroupsService) List(ctx context.Context, opts *ListGroupsOptions) (*OffsetPage[*Group], *Response, error) {
	if opts == nil {
		opts = &ListGroupsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*Group]](ctx, s.client, opts, "groups")
}

// listPages pages List by offset with a private copy of opts.
func (s *GroupsService) listPages(opts *ListGroupsOptions) (int, offsetPageFunc[*Group]) {
	return pageFuncs(opts, func(o *ListGroupsOptions) *int { return &o.Offset }, s.List)
}

// ListIter yields every group of the enterprise, fetching offset pages
// (GET /groups) lazily. It never changes opts.
func (s *GroupsService) ListIter(ctx context.Context, opts *ListGroupsOptions) iter.Seq2[*Group, error] {
	start, fetch := s.listPages(opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListPaginator walks the enterprise's groups one offset page at a time
// (GET /groups). It never changes opts.
func (s *GroupsService) NewListPaginator(opts *ListGroupsOptions) *OffsetPaginator[*Group] {
	return newOffsetPaginator(s.listPages(opts))
}
