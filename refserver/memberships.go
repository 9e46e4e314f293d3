package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func checkGroupRole(role *string) *wire.Error {
	if role != nil && *role != state.RoleGroupMember && *role != state.RoleGroupAdmin {
		return wire.InvalidParam("role must be member or admin")
	}
	return nil
}

// createMembership serves POST /group_memberships: 201. Admin only.
func (s *Server) createMembership(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.MembershipBody
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
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateMembership(body, fields)
	})
}

// getMembership serves GET /group_memberships/{group_membership_id}.
func (s *Server) getMembership(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	fields := parseFields(r)
	membershipID := r.PathValue("group_membership_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetMembership(membershipID, p, fields)
	})
}

// updateMembership serves PUT /group_memberships/{group_membership_id}: 200.
func (s *Server) updateMembership(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.UpdateMembershipBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter, "configurable_permissions"); aerr != nil {
		return aerr
	}
	if aerr := checkGroupRole(body.Role); aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	membershipID := r.PathValue("group_membership_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateMembership(membershipID, p, body, fields)
	})
}

// deleteMembership serves DELETE /group_memberships/{group_membership_id}: 204.
func (s *Server) deleteMembership(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	membershipID := r.PathValue("group_membership_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.DeleteMembership(membershipID, p)
	})
}

// listUserMemberships serves GET /users/{user_id}/memberships: offset pages
// of the user's memberships, for the admin and the user.
func (s *Server) listUserMemberships(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	pq, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListUserMemberships(p, id, pq)
	})
}
