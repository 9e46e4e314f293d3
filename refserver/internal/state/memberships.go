package state

import (
	"sort"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Group memberships: POST /group_memberships, GET/PUT/DELETE
// /group_memberships/{group_membership_id}, GET /users/{user_id}/memberships
// (a group's list is in groups.go).
//
// Rules: creating is for the enterprise admin; reading, updating and
// deleting for the admin and the group's admins (a member may also read
// their own membership); a user's list for the admin and the user. role is
// member (default) or admin, anything else 400 invalid_parameter.
// configurable_permissions (spec post_group_memberships) count for admins
// only: null turns every permission off, a map sets the keys it names as
// given and the others on; for a member they are ignored. Error codes the
// service does not document:
//   - 409 conflict (the spec's generic code): the user is already in the group.
//   - 404 not_found: the user or the group of a new membership does not
//     exist (or the user is not in the enterprise).
//   - 403 access_denied_insufficient_permissions: a caller the rules leave out.
//   - 400 invalid_parameter: a member other than configurable_permissions
//     sent as null (only that one is nullable in the spec).

// The roles of a group membership.
const (
	RoleGroupMember = "member"
	RoleGroupAdmin  = "admin"
)

// GroupAdminPermissions are the configurable permissions of a group admin
// the service names; all are on unless configured otherwise.
var GroupAdminPermissions = []string{"can_run_reports", "can_instant_login", "can_create_accounts", "can_edit_accounts"}

// Membership is a user's membership of a group. Its fields are read and changed only in a transaction.
type Membership struct {
	ID                    string
	User                  *User
	Group                 *Group
	Role                  string
	Perms                 map[string]bool // admins only
	CreatedAt, ModifiedAt time.Time
}

// renderMembership is a membership for a fields parameter (GroupMembership;
// configurable_permissions for admins only).
func (s *Tx) renderMembership(m *Membership, fields []string) map[string]any {
	rec := map[string]any{
		"type": "group_membership", "id": m.ID, "user": m.User.Mini(), "group": m.Group.Mini(),
		"role": m.Role, "created_at": FmtTime(m.CreatedAt), "modified_at": FmtTime(m.ModifiedAt),
	}
	if m.Role == RoleGroupAdmin {
		perms := make(map[string]bool, len(m.Perms))
		for k, v := range m.Perms {
			perms[k] = v
		}
		rec["configurable_permissions"] = perms
	}
	return PickFields(rec, fields, "type", "id")
}

// membershipsWhere lists the memberships that match, in id order.
func (s *Tx) membershipsWhere(match func(*Membership) bool) []*Membership {
	var out []*Membership
	for _, m := range s.Groups.Memberships.All() {
		if match(m) {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return NumID(out[i].ID) < NumID(out[j].ID) })
	return out
}

// PermsFor is the configurable permissions of a group admin: every known
// one on, then the given ones as given; null turns all known ones off.
func PermsFor(cp wire.Nullable[map[string]bool]) map[string]bool {
	perms := make(map[string]bool, len(GroupAdminPermissions)+len(cp.V))
	for _, k := range GroupAdminPermissions {
		perms[k] = !cp.Null
	}
	for k, v := range cp.V {
		perms[k] = v
	}
	return perms
}

// MembershipBody is the body of POST /group_memberships.
type MembershipBody struct {
	User *struct {
		ID *string `json:"id"`
	} `json:"user"`
	Group *struct {
		ID *string `json:"id"`
	} `json:"group"`
	Role                    *string                        `json:"role"`
	ConfigurablePermissions wire.Nullable[map[string]bool] `json:"configurable_permissions"`
}

// CreateMembership serves POST /group_memberships (refserver's
// createMembership): the enterprise user joins the group (404 for either
// missing, 409 conflict when already in it); 201 with its record.
func (s *Tx) CreateMembership(body MembershipBody, fields []string) (Reply, *wire.Error) {
	u := s.EnterpriseUser(*body.User.ID)
	if u == nil {
		return Reply{}, wire.NotFound("user")
	}
	g, aerr := s.LookupGroup(*body.Group.ID)
	if aerr != nil {
		return Reply{}, aerr
	}
	if s.groupRole(g, u) != "" {
		return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "The user is already a member of the group")
	}
	now := s.NowSec()
	m := &Membership{ID: s.NewID(), User: u, Group: g, Role: RoleGroupMember, CreatedAt: now, ModifiedAt: now}
	if body.Role != nil {
		m.Role = *body.Role
	}
	if m.Role == RoleGroupAdmin {
		m.Perms = PermsFor(body.ConfigurablePermissions)
	}
	s.Groups.Memberships.Put(m.ID, m)
	return Reply{wire.StatusCreated, s.renderMembership(m, fields)}, nil
}

// lookupMembership finds a membership p may manage (self: p may also be
// its member, for reads).
func (s *Tx) lookupMembership(id string, p *Principal, self bool) (*Membership, *wire.Error) {
	m := s.Groups.Memberships.At(id)
	if !ValidID(id) || m == nil {
		return nil, wire.NotFound("group membership")
	}
	if !p.IsAdmin() && s.groupRole(m.Group, p.User) != RoleGroupAdmin && !(self && m.User == p.User) {
		return nil, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the group's admins and enterprise admins may manage its memberships")
	}
	return m, nil
}

// GetMembership serves GET /group_memberships/{group_membership_id}
// (getMembership): the membership, for the admin, the group's admins and
// its member.
func (s *Tx) GetMembership(membershipID string, p *Principal, fields []string) (Reply, *wire.Error) {
	m, aerr := s.lookupMembership(membershipID, p, true)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, s.renderMembership(m, fields)}, nil
}

// UpdateMembershipBody is the body of PUT /group_memberships/{id}.
type UpdateMembershipBody struct {
	Role                    *string                        `json:"role"`
	ConfigurablePermissions wire.Nullable[map[string]bool] `json:"configurable_permissions"`
}

// UpdateMembership serves PUT /group_memberships/{group_membership_id}
// (updateMembership): the admin or a group admin changes its role and
// configurable permissions.
func (s *Tx) UpdateMembership(membershipID string, p *Principal, body UpdateMembershipBody, fields []string) (Reply, *wire.Error) {
	m, aerr := s.lookupMembership(membershipID, p, false)
	if aerr != nil {
		return Reply{}, aerr
	}
	s.Groups.Memberships.Update(m.ID, func(m *Membership) {
		wasAdmin := m.Role == RoleGroupAdmin
		if body.Role != nil {
			m.Role = *body.Role
		}
		switch {
		case m.Role != RoleGroupAdmin:
			m.Perms = nil
		case !wasAdmin || body.ConfigurablePermissions.Present:
			m.Perms = PermsFor(body.ConfigurablePermissions)
		}
		m.ModifiedAt = s.NowSec()
	})
	return Reply{wire.StatusOK, s.renderMembership(m, fields)}, nil
}

// DeleteMembership serves DELETE /group_memberships/{group_membership_id}
// (deleteMembership): the admin or a group admin removes it (204).
func (s *Tx) DeleteMembership(membershipID string, p *Principal) (Reply, *wire.Error) {
	m, aerr := s.lookupMembership(membershipID, p, false)
	if aerr != nil {
		return Reply{}, aerr
	}
	s.Groups.Memberships.Delete(m.ID)
	return Reply{Status: wire.StatusNoContent}, nil
}

// ListUserMemberships serves GET /users/{user_id}/memberships
// (listUserMemberships): an offset page of the user's memberships, for the
// admin and the user (403 for others).
func (s *Tx) ListUserMemberships(p *Principal, id string, pq wire.Page) (Reply, *wire.Error) {
	if !p.IsAdmin() && id != p.User.ID {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the user and enterprise admins may list the user's groups")
	}
	u := s.EnterpriseUser(id)
	if u == nil {
		return Reply{}, wire.NotFound("user")
	}
	list := s.membershipsWhere(func(m *Membership) bool { return m.User == u })
	return Reply{wire.StatusOK, wire.OffsetEntries(list, pq, s.membershipHidden, func(m *Membership) any { return s.renderMembership(m, nil) })}, nil
}

// groupsUserLeft removes u's memberships.
func (s *Tx) groupsUserLeft(u *User) {
	s.Groups.Memberships.DeleteWhere(func(m *Membership) bool { return m.User == u })
}
