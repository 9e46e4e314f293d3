package refserver

import (
	"net/http"
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

var groupAccessLevels = []string{"admins_only", "admins_and_members", "all_managed_users"}

// group is an enterprise group. Fields are guarded by Server.mu.
type group struct {
	id, name                          string
	provenance, externalSyncID, descr string
	invitability, memberViewability   string
	createdAt, modifiedAt             time.Time
}

// groupState is the server's state for groups and group memberships, guarded by Server.mu.
type groupState struct {
	byID        map[string]*group
	byName      map[string]*group // by lower-case name
	memberships map[string]*membership
}

// initGroups prepares the state of groups and group memberships; called once by newServer.
func (s *state) initGroups() {
	s.groups = groupState{byID: map[string]*group{}, byName: map[string]*group{}, memberships: map[string]*membership{}}
}

// groupMini is Group--Mini.
func (g *group) mini() map[string]any {
	return map[string]any{"type": "group", "id": g.id, "name": g.name, "group_type": groupTypeManaged}
}

// renderGroup is a group for a fields parameter: the standard record
// (Group) without fields; with fields, Group--Mini plus the requested ones
// (standard or Full). Callers hold s.mu.
func (s *state) renderGroup(g *group, fields []string, p *principal) map[string]any {
	m := g.mini()
	m["created_at"] = fmtTime(g.createdAt)
	m["modified_at"] = fmtTime(g.modifiedAt)
	if fields == nil {
		return m
	}
	m["provenance"] = g.provenance
	m["external_sync_identifier"] = g.externalSyncID
	m["description"] = g.descr
	m["invitability_level"] = g.invitability
	m["member_viewability_level"] = g.memberViewability
	m["permissions"] = map[string]any{"can_invite_as_collaborator": s.canInviteGroup(g, p)}
	return pickFields(m, fields, "type", "id", "name", "group_type")
}

// canInviteGroup applies invitability_level for p. Callers hold s.mu.
func (s *state) canInviteGroup(g *group, p *principal) bool {
	role := s.groupRole(g, p.user)
	switch {
	case p.isAdmin(), role == roleGroupAdmin:
		return true
	case g.invitability == "admins_and_members":
		return role != ""
	case g.invitability == "all_managed_users":
		return true
	}
	return false
}

// groupRole is u's role in g ("" = not a member). Callers hold s.mu.
func (s *state) groupRole(g *group, u *user) string {
	for _, m := range s.groups.memberships {
		if m.group == g && m.user == u {
			return m.role
		}
	}
	return ""
}

// groupID reads {group_id}; a malformed id is 404.
func groupID(r *http.Request) (string, *wire.Error) { return pathID(r, "group_id", "group") }

// lookupGroup finds a group; 404 when there is none. Callers hold s.mu.
func (s *state) lookupGroup(id string) (*group, *wire.Error) {
	return recordIn(s.groups.byID, id, "group")
}

// groupBody is the body of POST /groups and PUT /groups/{group_id}.
type groupBody struct {
	Name                   *string `json:"name"`
	Provenance             *string `json:"provenance"`
	ExternalSyncIdentifier *string `json:"external_sync_identifier"`
	Description            *string `json:"description"`
	InvitabilityLevel      *string `json:"invitability_level"`
	MemberViewabilityLevel *string `json:"member_viewability_level"`
}

// check applies the value rules (400 invalid_parameter).
func (b *groupBody) check() *wire.Error {
	if b.Name != nil && (strings.TrimSpace(*b.Name) == "" || utf8.RuneCountInString(*b.Name) > maxGroupTextLen) {
		return errInvalidParam("name must be 1 to %d characters", maxGroupTextLen)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"description", b.Description}, {"provenance", b.Provenance}} {
		if f.v != nil && utf8.RuneCountInString(*f.v) > maxGroupTextLen {
			return errInvalidParam("%s must be at most %d characters", f.name, maxGroupTextLen)
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"invitability_level", b.InvitabilityLevel}, {"member_viewability_level", b.MemberViewabilityLevel}} {
		if f.v != nil && !contains(groupAccessLevels, *f.v) {
			return errInvalidParam("%s must be one of %s", f.name, strings.Join(groupAccessLevels, ", "))
		}
	}
	return nil
}

// nameTaken is 409 invalid_parameter when another group has the name.
// Callers hold s.mu.
func (s *state) nameTaken(name string, self *group) *wire.Error {
	if g := s.groups.byName[strings.ToLower(name)]; g != nil && g != self {
		return wire.Errorf(http.StatusConflict, wire.CodeInvalidParameter, "A group with this name already exists in the enterprise")
	}
	return nil
}

// apply writes the fields into g (already checked).
func (b *groupBody) apply(g *group) {
	for _, f := range []struct {
		dst *string
		v   *string
	}{{&g.name, b.Name}, {&g.provenance, b.Provenance}, {&g.externalSyncID, b.ExternalSyncIdentifier},
		{&g.descr, b.Description}, {&g.invitability, b.InvitabilityLevel}, {&g.memberViewability, b.MemberViewabilityLevel}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
}

// readGroupBody decodes and checks a group body.
func readGroupBody(r *http.Request) (*groupBody, *wire.Error) {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return nil, aerr
	}
	var body groupBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter); aerr != nil {
		return nil, aerr
	}
	return &body, body.check()
}

// createGroup serves POST /groups: 201 with the new group.
func (s *Server) createGroup(w http.ResponseWriter, r *http.Request, p *principal) error {
	body, aerr := readGroupBody(r)
	if aerr != nil {
		return aerr
	}
	if body.Name == nil {
		return wire.BadRequest("Missing required field: name")
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.createGroupTx(body, fields, p)
	})
}

// createGroupTx is the transaction of POST /groups (createGroup): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) createGroupTx(body *groupBody, fields []string, p *principal) (reply, *wire.Error) {
	if aerr := s.nameTaken(*body.Name, nil); aerr != nil {
		return reply{}, aerr
	}
	now := s.nowSec()
	g := &group{id: s.newID(), invitability: "admins_only", memberViewability: "admins_only", createdAt: now, modifiedAt: now}
	body.apply(g)
	s.groups.byID[g.id] = g
	s.groups.byName[strings.ToLower(g.name)] = g
	s.dirty(kGroups, g.id)
	return reply{http.StatusCreated, s.renderGroup(g, fields, p)}, nil
}

// getGroup serves GET /groups/{group_id}: for the admin and the group's members.
func (s *Server) getGroup(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.getGroupTx(id, p, fields)
	})
}

// getGroupTx is the transaction of GET /groups/{group_id} (getGroup): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) getGroupTx(id string, p *principal, fields []string) (reply, *wire.Error) {
	g, aerr := s.lookupGroup(id)
	if aerr != nil {
		return reply{}, aerr
	}
	if !p.isAdmin() && s.groupRole(g, p.user) == "" {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Only the group's members and admins may read it")
	}
	return reply{http.StatusOK, s.renderGroup(g, fields, p)}, nil
}

// updateGroup serves PUT /groups/{group_id}: for the admin and the group's admins.
func (s *Server) updateGroup(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	body, aerr := readGroupBody(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateGroupTx(id, p, body, fields)
	})
}

// updateGroupTx is the transaction of PUT /groups/{group_id} (updateGroup):
// what it checks, reads and changes under the state's lock, and its reply.
// Callers hold mu.
func (s *state) updateGroupTx(id string, p *principal, body *groupBody, fields []string) (reply, *wire.Error) {
	g, aerr := s.lookupGroup(id)
	if aerr != nil {
		return reply{}, aerr
	}
	if !p.isAdmin() && s.groupRole(g, p.user) != roleGroupAdmin {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Only the group's admins and enterprise admins may update it")
	}
	if body.Name != nil {
		if aerr := s.nameTaken(*body.Name, g); aerr != nil {
			return reply{}, aerr
		}
	}
	delete(s.groups.byName, strings.ToLower(g.name))
	body.apply(g)
	s.groups.byName[strings.ToLower(g.name)] = g
	g.modifiedAt = s.nowSec()
	s.dirty(kGroups, g.id)
	return reply{http.StatusOK, s.renderGroup(g, fields, p)}, nil
}

// deleteGroup serves DELETE /groups/{group_id}: 204; its memberships go too.
func (s *Server) deleteGroup(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "group_id", http.StatusNoContent, s.lookupGroup, s.removeGroup)
}

// removeGroup deletes g and its memberships. Callers hold mu.
func (s *state) removeGroup(g *group) *wire.Error {
	dropWhere(s, kMemberships, s.groups.memberships, func(m *membership) bool { return m.group == g })
	delete(s.groups.byID, g.id)
	s.dirty(kGroups, g.id)
	delete(s.groups.byName, strings.ToLower(g.name))
	return nil
}

// listGroups serves GET /groups: offset pages of the groups by name
// (filter_term: names starting with it, any case). Admin only.
func (s *Server) listGroups(w http.ResponseWriter, r *http.Request, p *principal) error {
	pq, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	filter := strings.ToLower(r.URL.Query().Get("filter_term"))
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.listGroupsTx(filter, pq, fields, p)
	})
}

// listGroupsTx is the transaction of GET /groups (listGroups): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) listGroupsTx(filter string, pq wire.Page, fields []string, p *principal) (reply, *wire.Error) {
	var list []*group
	for _, g := range s.groups.byID {
		if strings.HasPrefix(strings.ToLower(g.name), filter) {
			list = append(list, g)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := strings.ToLower(list[i].name), strings.ToLower(list[j].name)
		return a < b || a == b && numID(list[i].id) < numID(list[j].id)
	})
	return reply{http.StatusOK, wire.OffsetEntries(list, pq, s.groupHidden, func(g *group) any { return s.renderGroup(g, fields, p) })}, nil
}

// listGroupMemberships serves GET /groups/{group_id}/memberships: offset
// pages of the group's memberships in id order.
func (s *Server) listGroupMemberships(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	pq, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.listGroupMembershipsTx(id, p, pq)
	})
}

// listGroupMembershipsTx is the transaction of GET
// /groups/{group_id}/memberships (listGroupMemberships): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) listGroupMembershipsTx(id string, p *principal, pq wire.Page) (reply, *wire.Error) {
	g, aerr := s.lookupGroup(id)
	if aerr != nil {
		return reply{}, aerr
	}
	role := s.groupRole(g, p.user)
	allowed := p.isAdmin() || role == roleGroupAdmin ||
		g.memberViewability == "admins_and_members" && role != "" ||
		g.memberViewability == "all_managed_users"
	if !allowed {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The group's member_viewability_level does not let this user see its members")
	}
	list := s.membershipsWhere(func(m *membership) bool { return m.group == g })
	return reply{http.StatusOK, wire.OffsetEntries(list, pq, s.membershipHidden, func(m *membership) any { return s.renderMembership(m, nil) })}, nil
}
