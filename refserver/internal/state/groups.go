package state

import (
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Groups: GET/POST /groups, GET/PUT/DELETE /groups/{group_id},
// GET /groups/{group_id}/memberships. Memberships are in memberships.go.
//
// Rules (spec operation texts): listing, creating and deleting groups is for
// the enterprise admin; a group is read by the admin or its members,
// updated by the admin or its group admins; its members are listed for the
// admin, its group admins, and as member_viewability_level says (members,
// or every managed user). Names are unique in the enterprise, ignoring
// case: 409 invalid_parameter, the code the spec gives. Error codes the
// service does not document:
//   - 403 access_denied_insufficient_permissions for a caller the rules
//     above leave out (a group that exists is not hidden behind 404: every
//     enterprise user may know its groups).
//   - 400 invalid_parameter for a value out of range (an unknown
//     invitability_level or member_viewability_level, description or
//     provenance over 255 characters, an empty name, any member sent as
//     null: no group member is nullable in the spec); 400 bad_request for
//     a missing name.

const (
	maxGroupTextLen  = 255
	groupTypeManaged = "managed_group"
)

// GroupAccessLevels are the values of a group's invitability_level and
// member_viewability_level.
var GroupAccessLevels = []string{"admins_only", "admins_and_members", "all_managed_users"}

// Group is an enterprise group. Its fields are read and changed only in a transaction.
type Group struct {
	ID, Name                          string
	Provenance, ExternalSyncID, Descr string
	Invitability, MemberViewability   string
	CreatedAt, ModifiedAt             time.Time
}

// groupState is the server's state for groups and group memberships, reached only through a transaction.
type groupState struct {
	ByID        Table[*Group]
	ByName      map[string]*Group // by lower-case name
	Memberships Table[*Membership]
}

// InitGroups prepares the (empty) state of groups and group memberships;
// called by InitResources, and to empty the state before a restore.
func (s *Tx) InitGroups() {
	s.Groups = groupState{ByID: newTable[*Group](s.Env, KGroups), ByName: map[string]*Group{}, Memberships: newTable[*Membership](s.Env, KMemberships)}
}

// Mini is the group's Group--Mini record.
func (g *Group) Mini() map[string]any {
	return map[string]any{"type": "group", "id": g.ID, "name": g.Name, "group_type": groupTypeManaged}
}

// renderGroup is a group for a fields parameter: the standard record
// (Group) without fields; with fields, Group--Mini plus the requested ones
// (standard or Full).
func (s *Tx) renderGroup(g *Group, fields []string, p *Principal) map[string]any {
	m := g.Mini()
	m["created_at"] = FmtTime(g.CreatedAt)
	m["modified_at"] = FmtTime(g.ModifiedAt)
	if fields == nil {
		return m
	}
	m["provenance"] = g.Provenance
	m["external_sync_identifier"] = g.ExternalSyncID
	m["description"] = g.Descr
	m["invitability_level"] = g.Invitability
	m["member_viewability_level"] = g.MemberViewability
	m["permissions"] = map[string]any{"can_invite_as_collaborator": s.canInviteGroup(g, p)}
	return PickFields(m, fields, "type", "id", "name", "group_type")
}

// canInviteGroup applies invitability_level for p.
func (s *Tx) canInviteGroup(g *Group, p *Principal) bool {
	role := s.groupRole(g, p.User)
	switch {
	case p.IsAdmin(), role == RoleGroupAdmin:
		return true
	case g.Invitability == "admins_and_members":
		return role != ""
	case g.Invitability == "all_managed_users":
		return true
	}
	return false
}

// groupRole is u's role in g ("" = not a member).
func (s *ReadTx) groupRole(g *Group, u *User) string {
	for _, m := range s.Groups.Memberships.All() {
		if m.Group == g && m.User == u {
			return m.Role
		}
	}
	return ""
}

// LookupGroup finds a group; 404 when there is none.
func (s *Tx) LookupGroup(id string) (*Group, *wire.Error) {
	return TableRecord(&s.Groups.ByID, id, "group")
}

// GroupBody is the body of POST /groups and PUT /groups/{group_id}.
type GroupBody struct {
	Name                   *string `json:"name"`
	Provenance             *string `json:"provenance"`
	ExternalSyncIdentifier *string `json:"external_sync_identifier"`
	Description            *string `json:"description"`
	InvitabilityLevel      *string `json:"invitability_level"`
	MemberViewabilityLevel *string `json:"member_viewability_level"`
}

// Check applies the value rules (400 invalid_parameter).
func (b *GroupBody) Check() *wire.Error {
	if b.Name != nil && (strings.TrimSpace(*b.Name) == "" || utf8.RuneCountInString(*b.Name) > maxGroupTextLen) {
		return wire.InvalidParam("name must be 1 to %d characters", maxGroupTextLen)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"description", b.Description}, {"provenance", b.Provenance}} {
		if f.v != nil && utf8.RuneCountInString(*f.v) > maxGroupTextLen {
			return wire.InvalidParam("%s must be at most %d characters", f.name, maxGroupTextLen)
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"invitability_level", b.InvitabilityLevel}, {"member_viewability_level", b.MemberViewabilityLevel}} {
		if f.v != nil && !slices.Contains(GroupAccessLevels, *f.v) {
			return wire.InvalidParam("%s must be one of %s", f.name, strings.Join(GroupAccessLevels, ", "))
		}
	}
	return nil
}

// nameTaken is 409 invalid_parameter when another group has the name.
func (s *Tx) nameTaken(name string, self *Group) *wire.Error {
	if g := s.Groups.ByName[strings.ToLower(name)]; g != nil && g != self {
		return wire.Errorf(wire.StatusConflict, wire.CodeInvalidParameter, "A group with this name already exists in the enterprise")
	}
	return nil
}

// Apply writes the fields into g (already checked).
func (b *GroupBody) Apply(g *Group) {
	for _, f := range []struct {
		dst *string
		v   *string
	}{{&g.Name, b.Name}, {&g.Provenance, b.Provenance}, {&g.ExternalSyncID, b.ExternalSyncIdentifier},
		{&g.Descr, b.Description}, {&g.Invitability, b.InvitabilityLevel}, {&g.MemberViewability, b.MemberViewabilityLevel}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
}

// CreateGroup serves POST /groups (refserver's createGroup): a new group
// with body's fields (already checked), 409 invalid_parameter for a name
// taken; 201 with its record.
func (s *Tx) CreateGroup(body *GroupBody, fields []string, p *Principal) (Reply, *wire.Error) {
	if aerr := s.nameTaken(*body.Name, nil); aerr != nil {
		return Reply{}, aerr
	}
	now := s.NowSec()
	g := &Group{ID: s.NewID(), Invitability: "admins_only", MemberViewability: "admins_only", CreatedAt: now, ModifiedAt: now}
	body.Apply(g)
	s.Groups.ByID.Put(g.ID, g)
	s.Groups.ByName[strings.ToLower(g.Name)] = g
	return Reply{wire.StatusCreated, s.renderGroup(g, fields, p)}, nil
}

// GetGroup serves GET /groups/{group_id} (getGroup): the group for the
// admin and its members (403 for others).
func (s *Tx) GetGroup(id string, p *Principal, fields []string) (Reply, *wire.Error) {
	g, aerr := s.LookupGroup(id)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !p.IsAdmin() && s.groupRole(g, p.User) == "" {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the group's members and admins may read it")
	}
	return Reply{wire.StatusOK, s.renderGroup(g, fields, p)}, nil
}

// UpdateGroup serves PUT /groups/{group_id} (updateGroup): the admin or
// a group admin writes body's fields (403 for others, 409 for a name
// taken); 200 with its record.
func (s *Tx) UpdateGroup(id string, p *Principal, body *GroupBody, fields []string) (Reply, *wire.Error) {
	g, aerr := s.LookupGroup(id)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !p.IsAdmin() && s.groupRole(g, p.User) != RoleGroupAdmin {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the group's admins and enterprise admins may update it")
	}
	if body.Name != nil {
		if aerr := s.nameTaken(*body.Name, g); aerr != nil {
			return Reply{}, aerr
		}
	}
	delete(s.Groups.ByName, strings.ToLower(g.Name))
	s.Groups.ByID.Update(g.ID, func(g *Group) {
		body.Apply(g)
		g.ModifiedAt = s.NowSec()
	})
	s.Groups.ByName[strings.ToLower(g.Name)] = g
	return Reply{wire.StatusOK, s.renderGroup(g, fields, p)}, nil
}

// RemoveGroup deletes g and its memberships (DELETE /groups/{group_id});
// it never fails.
func (s *Tx) RemoveGroup(g *Group) *wire.Error {
	s.Groups.Memberships.DeleteWhere(func(m *Membership) bool { return m.Group == g })
	s.collabsCollaboratorGone(nil, g)
	s.Groups.ByID.Delete(g.ID)
	delete(s.Groups.ByName, strings.ToLower(g.Name))
	return nil
}

// ListGroups serves GET /groups (listGroups): an offset page of the
// groups whose lower-cased name starts with filter, by name.
func (s *Tx) ListGroups(filter string, pq wire.Page, fields []string, p *Principal) (Reply, *wire.Error) {
	var list []*Group
	for _, g := range s.Groups.ByID.All() {
		if strings.HasPrefix(strings.ToLower(g.Name), filter) {
			list = append(list, g)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := strings.ToLower(list[i].Name), strings.ToLower(list[j].Name)
		return a < b || a == b && NumID(list[i].ID) < NumID(list[j].ID)
	})
	return Reply{wire.StatusOK, wire.OffsetEntries(list, pq, s.groupHidden, func(g *Group) any { return s.renderGroup(g, fields, p) })}, nil
}

// ListGroupMemberships serves GET /groups/{group_id}/memberships
// (listGroupMemberships): an offset page of the group's memberships, for
// who its member_viewability_level lets see them (403 for others).
func (s *Tx) ListGroupMemberships(id string, p *Principal, pq wire.Page) (Reply, *wire.Error) {
	g, aerr := s.LookupGroup(id)
	if aerr != nil {
		return Reply{}, aerr
	}
	role := s.groupRole(g, p.User)
	allowed := p.IsAdmin() || role == RoleGroupAdmin ||
		g.MemberViewability == "admins_and_members" && role != "" ||
		g.MemberViewability == "all_managed_users"
	if !allowed {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The group's member_viewability_level does not let this user see its members")
	}
	list := s.membershipsWhere(func(m *Membership) bool { return m.Group == g })
	return Reply{wire.StatusOK, wire.OffsetEntries(list, pq, s.membershipHidden, func(m *Membership) any { return s.renderMembership(m, nil) })}, nil
}
