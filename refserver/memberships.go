package refserver

import (
	"net/http"
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

const (
	roleGroupMember = "member"
	roleGroupAdmin  = "admin"
)

// groupAdminPermissions are the configurable permissions of a group admin
// the service names; all are on unless configured otherwise.
var groupAdminPermissions = []string{"can_run_reports", "can_instant_login", "can_create_accounts", "can_edit_accounts"}

// membership is a user's membership of a group. Fields are guarded by Server.mu.
type membership struct {
	id                    string
	user                  *user
	group                 *group
	role                  string
	perms                 map[string]bool // admins only
	createdAt, modifiedAt time.Time
}

// renderMembership is a membership for a fields parameter (GroupMembership;
// configurable_permissions for admins only). Callers hold s.mu.
func (s *state) renderMembership(m *membership, fields []string) map[string]any {
	rec := map[string]any{
		"type": "group_membership", "id": m.id, "user": m.user.mini(), "group": m.group.mini(),
		"role": m.role, "created_at": fmtTime(m.createdAt), "modified_at": fmtTime(m.modifiedAt),
	}
	if m.role == roleGroupAdmin {
		perms := make(map[string]bool, len(m.perms))
		for k, v := range m.perms {
			perms[k] = v
		}
		rec["configurable_permissions"] = perms
	}
	return pickFields(rec, fields, "type", "id")
}

// membershipsWhere lists the memberships that match, in id order. Callers hold s.mu.
func (s *state) membershipsWhere(match func(*membership) bool) []*membership {
	var out []*membership
	for _, m := range s.groups.memberships {
		if match(m) {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return numID(out[i].id) < numID(out[j].id) })
	return out
}

// permsFor is the configurable permissions of a group admin: every known
// one on, then the given ones as given; null turns all known ones off.
func permsFor(cp wire.Nullable[map[string]bool]) map[string]bool {
	perms := make(map[string]bool, len(groupAdminPermissions)+len(cp.V))
	for _, k := range groupAdminPermissions {
		perms[k] = !cp.Null
	}
	for k, v := range cp.V {
		perms[k] = v
	}
	return perms
}

func checkGroupRole(role *string) *wire.Error {
	if role != nil && *role != roleGroupMember && *role != roleGroupAdmin {
		return errInvalidParam("role must be member or admin")
	}
	return nil
}

// membershipBody is the body of POST /group_memberships.
type membershipBody struct {
	User *struct {
		ID *string `json:"id"`
	} `json:"user"`
	Group *struct {
		ID *string `json:"id"`
	} `json:"group"`
	Role                    *string                        `json:"role"`
	ConfigurablePermissions wire.Nullable[map[string]bool] `json:"configurable_permissions"`
}

// createMembership serves POST /group_memberships: 201. Admin only.
func (s *Server) createMembership(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body membershipBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter, "configurable_permissions"); aerr != nil {
		return aerr
	}
	switch {
	case body.User == nil || body.User.ID == nil:
		return wire.BadRequest("Missing required field: user.id")
	case body.Group == nil || body.Group.ID == nil:
		return wire.BadRequest("Missing required field: group.id")
	}
	if aerr := checkGroupRole(body.Role); aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.createMembershipTx(body, fields)
	})
}

// createMembershipTx is the transaction of POST /group_memberships
// (createMembership): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) createMembershipTx(body membershipBody, fields []string) (reply, *wire.Error) {
	u := s.enterpriseUser(*body.User.ID)
	if u == nil {
		return reply{}, wire.NotFound("user")
	}
	g, aerr := s.lookupGroup(*body.Group.ID)
	if aerr != nil {
		return reply{}, aerr
	}
	if s.groupRole(g, u) != "" {
		return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "The user is already a member of the group")
	}
	now := s.nowSec()
	m := &membership{id: s.newID(), user: u, group: g, role: roleGroupMember, createdAt: now, modifiedAt: now}
	if body.Role != nil {
		m.role = *body.Role
	}
	if m.role == roleGroupAdmin {
		m.perms = permsFor(body.ConfigurablePermissions)
	}
	s.groups.memberships[m.id] = m
	s.dirty(kMemberships, m.id)
	return reply{http.StatusCreated, s.renderMembership(m, fields)}, nil
}

// lookupMembership finds a membership p may manage (self: p may also be
// its member, for reads). Callers hold s.mu.
func (s *state) lookupMembership(id string, p *principal, self bool) (*membership, *wire.Error) {
	m := s.groups.memberships[id]
	if !validID(id) || m == nil {
		return nil, wire.NotFound("group membership")
	}
	if !p.isAdmin() && s.groupRole(m.group, p.user) != roleGroupAdmin && !(self && m.user == p.user) {
		return nil, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Only the group's admins and enterprise admins may manage its memberships")
	}
	return m, nil
}

// getMembership serves GET /group_memberships/{group_membership_id}.
func (s *Server) getMembership(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	membershipID := r.PathValue("group_membership_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.getMembershipTx(membershipID, p, fields)
	})
}

// getMembershipTx is the transaction of GET
// /group_memberships/{group_membership_id}. (getMembership): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) getMembershipTx(membershipID string, p *principal, fields []string) (reply, *wire.Error) {
	m, aerr := s.lookupMembership(membershipID, p, true)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusOK, s.renderMembership(m, fields)}, nil
}

// updateMembershipBody is the body of PUT /group_memberships/{id}.
type updateMembershipBody struct {
	Role                    *string                        `json:"role"`
	ConfigurablePermissions wire.Nullable[map[string]bool] `json:"configurable_permissions"`
}

// updateMembership serves PUT /group_memberships/{group_membership_id}: 200.
func (s *Server) updateMembership(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body updateMembershipBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter, "configurable_permissions"); aerr != nil {
		return aerr
	}
	if aerr := checkGroupRole(body.Role); aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	membershipID := r.PathValue("group_membership_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateMembershipTx(membershipID, p, body, fields)
	})
}

// updateMembershipTx is the transaction of PUT
// /group_memberships/{group_membership_id} (updateMembership): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) updateMembershipTx(membershipID string, p *principal, body updateMembershipBody, fields []string) (reply, *wire.Error) {
	m, aerr := s.lookupMembership(membershipID, p, false)
	if aerr != nil {
		return reply{}, aerr
	}
	wasAdmin := m.role == roleGroupAdmin
	if body.Role != nil {
		m.role = *body.Role
	}
	switch {
	case m.role != roleGroupAdmin:
		m.perms = nil
	case !wasAdmin || body.ConfigurablePermissions.Present:
		m.perms = permsFor(body.ConfigurablePermissions)
	}
	m.modifiedAt = s.nowSec()
	s.dirty(kMemberships, m.id)
	return reply{http.StatusOK, s.renderMembership(m, fields)}, nil
}

// deleteMembership serves DELETE /group_memberships/{group_membership_id}: 204.
func (s *Server) deleteMembership(w http.ResponseWriter, r *http.Request, p *principal) error {
	membershipID := r.PathValue("group_membership_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.deleteMembershipTx(membershipID, p)
	})
}

// deleteMembershipTx is the transaction of DELETE
// /group_memberships/{group_membership_id} (deleteMembership): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) deleteMembershipTx(membershipID string, p *principal) (reply, *wire.Error) {
	m, aerr := s.lookupMembership(membershipID, p, false)
	if aerr != nil {
		return reply{}, aerr
	}
	delete(s.groups.memberships, m.id)
	s.dirty(kMemberships, m.id)
	return reply{status: http.StatusNoContent}, nil
}

// listUserMemberships serves GET /users/{user_id}/memberships: offset pages
// of the user's memberships, for the admin and the user.
func (s *Server) listUserMemberships(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	pq, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.listUserMembershipsTx(p, id, pq)
	})
}

// listUserMembershipsTx is the transaction of GET /users/{user_id}/memberships
// (listUserMemberships): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) listUserMembershipsTx(p *principal, id string, pq wire.Page) (reply, *wire.Error) {
	if !p.isAdmin() && id != p.user.id {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Only the user and enterprise admins may list the user's groups")
	}
	u := s.enterpriseUser(id)
	if u == nil {
		return reply{}, wire.NotFound("user")
	}
	list := s.membershipsWhere(func(m *membership) bool { return m.user == u })
	return reply{http.StatusOK, wire.OffsetEntries(list, pq, s.membershipHidden, func(m *membership) any { return s.renderMembership(m, nil) })}, nil
}

// groupsUserLeft removes u's memberships. Callers hold s.mu.
func (s *state) groupsUserLeft(u *user) {
	dropWhere(s, kMemberships, s.groups.memberships, func(m *membership) bool { return m.user == u })
}
