package refserver

import (
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// groupID reads {group_id}; a malformed id is 404.
func groupID(r *http.Request) (string, *wire.Error) { return pathID(r, "group_id", "group") }

// readGroupBody decodes and checks a group body.
func readGroupBody(r *http.Request) (*state.GroupBody, *wire.Error) {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return nil, aerr
	}
	var body state.GroupBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter); aerr != nil {
		return nil, aerr
	}
	return &body, body.Check()
}

// createGroup serves POST /groups: 201 with the new group.
func (s *Server) createGroup(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	body, aerr := readGroupBody(r)
	if aerr != nil {
		return aerr
	}
	if body.Name == nil {
		return wire.BadRequest("Missing required field: name")
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateGroup(body, fields, p)
	})
}

// getGroup serves GET /groups/{group_id}: for the admin and the group's members.
func (s *Server) getGroup(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetGroup(id, p, fields)
	})
}

// updateGroup serves PUT /groups/{group_id}: for the admin and the group's admins.
func (s *Server) updateGroup(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	body, aerr := readGroupBody(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateGroup(id, p, body, fields)
	})
}

// deleteGroup serves DELETE /groups/{group_id}: 204; its memberships go too.
func (s *Server) deleteGroup(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "group_id", http.StatusNoContent, (*state.Tx).LookupGroup, (*state.Tx).RemoveGroup)
}

// listGroups serves GET /groups: offset pages of the groups by name
// (filter_term: names starting with it, any case). Admin only.
func (s *Server) listGroups(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	pq, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	filter := strings.ToLower(r.URL.Query().Get("filter_term"))
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListGroups(filter, pq, fields, p)
	})
}

// listGroupMemberships serves GET /groups/{group_id}/memberships: offset
// pages of the group's memberships in id order.
func (s *Server) listGroupMemberships(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	pq, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListGroupMemberships(id, p, pq)
	})
}
