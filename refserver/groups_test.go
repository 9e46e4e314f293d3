package refserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// newGroup creates a group as the admin and returns its id.
func (e *env) newGroup(name string, extra map[string]any) string {
	e.t.Helper()
	body := map[string]any{"name": name}
	for k, v := range extra {
		body[k] = v
	}
	return e.ok(http.MethodPost, "/groups", e.s.AdminToken(), body, http.StatusCreated)["id"].(string)
}

// join adds a user to a group as the admin and returns the membership.
func (e *env) join(userID, groupID string, extra map[string]any) map[string]any {
	e.t.Helper()
	body := map[string]any{"user": map[string]any{"id": userID}, "group": map[string]any{"id": groupID}}
	for k, v := range extra {
		body[k] = v
	}
	return e.ok(http.MethodPost, "/group_memberships", e.s.AdminToken(), body, http.StatusCreated)
}

func TestGroupsCRUD(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	g := e.ok(http.MethodPost, "/groups?fields=name,description,provenance,external_sync_identifier,invitability_level,member_viewability_level,permissions", admin, map[string]any{
		"name": "Support", "description": "Helpdesk", "provenance": "Okta", "external_sync_identifier": "okta-1",
		"invitability_level": "admins_and_members", "member_viewability_level": "all_managed_users",
	}, http.StatusCreated)
	id := g["id"].(string)
	assert.Equal(t, "group", g["type"])
	assert.Equal(t, "managed_group", g["group_type"])
	assert.Equal(t, "Helpdesk", g["description"])
	assert.Equal(t, "okta-1", g["external_sync_identifier"])
	assert.Equal(t, "all_managed_users", g["member_viewability_level"])
	assert.Equal(t, map[string]any{"can_invite_as_collaborator": true}, g["permissions"])
	assert.NotContains(t, g, "created_at")

	std := e.ok(http.MethodGet, "/groups/"+id, admin, nil, http.StatusOK)
	assert.Contains(t, std, "created_at")
	assert.NotContains(t, std, "description", "Full fields only on request")

	// A managed user outside the group may not read it; a member may.
	e.rejects(http.MethodGet, "/groups/"+id, user, nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.join(e.s.UserID(), id, nil)
	e.ok(http.MethodGet, "/groups/"+id, user, nil, http.StatusOK)
	// A member is no group admin: no update, no delete.
	e.rejects(http.MethodPut, "/groups/"+id, user, map[string]any{"name": "Mine"}, http.StatusForbidden, wire.CodeAccessDenied)

	up := e.ok(http.MethodPut, "/groups/"+id+"?fields=name,description", admin, map[string]any{"name": "Support Team", "description": ""}, http.StatusOK)
	assert.Equal(t, "Support Team", up["name"])
	assert.Equal(t, "", up["description"])
	// The old name is free again.
	e.newGroup("support", nil)

	e.newGroup("Sales", nil)
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"create as user", "POST", "/groups", user, map[string]any{"name": "X"}, 403, wire.CodeAccessDenied},
		{"create as app", "POST", "/groups", e.s.AppToken(), map[string]any{"name": "X"}, 403, wire.CodeInsufficientScope},
		{"create without name", "POST", "/groups", admin, map[string]any{"description": "d"}, 400, wire.CodeBadRequest},
		{"create empty name", "POST", "/groups", admin, map[string]any{"name": " "}, 400, wire.CodeInvalidParameter},
		{"create name taken", "POST", "/groups", admin, map[string]any{"name": "SALES"}, 409, wire.CodeInvalidParameter},
		{"create bad level", "POST", "/groups", admin, map[string]any{"name": "X", "invitability_level": "everyone"}, 400, wire.CodeInvalidParameter},
		{"create bad viewability", "POST", "/groups", admin, map[string]any{"name": "X", "member_viewability_level": "nobody"}, 400, wire.CodeInvalidParameter},
		{"create long description", "POST", "/groups", admin, map[string]any{"name": "X", "description": strings.Repeat("d", 256)}, 400, wire.CodeInvalidParameter},
		{"create unknown field", "POST", "/groups", admin, map[string]any{"name": "X", "color": "red"}, 400, wire.CodeBadRequest},
		{"update name taken", "PUT", "/groups/" + id, admin, map[string]any{"name": "sales"}, 409, wire.CodeInvalidParameter},
		{"update missing", "PUT", "/groups/424242", admin, map[string]any{"name": "Y"}, 404, wire.CodeNotFound},
		{"get missing", "GET", "/groups/424242", admin, nil, 404, wire.CodeNotFound},
		{"get malformed", "GET", "/groups/abc", admin, nil, 404, wire.CodeNotFound},
		{"delete as member", "DELETE", "/groups/" + id, user, nil, 403, wire.CodeAccessDenied},
		{"list as user", "GET", "/groups", user, nil, 403, wire.CodeAccessDenied},
		{"list bad offset", "GET", "/groups?offset=10001", admin, nil, 400, wire.CodeBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) { e.rejects(c.method, c.path, c.token, c.body, c.status, c.code) })
	}

	e.ok(http.MethodDelete, "/groups/"+id, admin, nil, http.StatusNoContent)
	e.rejects(http.MethodGet, "/groups/"+id, admin, nil, http.StatusNotFound, wire.CodeNotFound)
	list := e.ok(http.MethodGet, "/users/"+e.s.UserID()+"/memberships", user, nil, http.StatusOK)
	assert.Empty(t, list["entries"], "a deleted group's memberships go with it")
}

func TestGroupsGroupAdminUpdates(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	id := e.newGroup("Ops", nil)
	e.join(e.s.UserID(), id, map[string]any{"role": "admin"})
	up := e.ok(http.MethodPut, "/groups/"+id, e.s.UserToken(), map[string]any{"name": "Ops Team"}, http.StatusOK)
	assert.Equal(t, "Ops Team", up["name"])
	e.rejects(http.MethodDelete, "/groups/"+id, e.s.UserToken(), nil, http.StatusForbidden, wire.CodeAccessDenied)
}

func TestGroupsList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	for i := range 7 {
		e.newGroup(fmt.Sprintf("Team %02d", 6-i), nil)
	}
	e.newGroup("Other", nil)
	p := e.ok(http.MethodGet, "/groups?filter_term=team&limit=3", e.s.AdminToken(), nil, http.StatusOK)
	assert.EqualValues(t, 7, p["total_count"])
	var names []string
	for off := 0; off < 7; off += 3 {
		p := e.ok(http.MethodGet, fmt.Sprintf("/groups?filter_term=team&limit=3&offset=%d", off), e.s.AdminToken(), nil, http.StatusOK)
		for _, g := range p["entries"].([]any) {
			names = append(names, g.(map[string]any)["name"].(string))
		}
	}
	assert.Equal(t, []string{"Team 00", "Team 01", "Team 02", "Team 03", "Team 04", "Team 05", "Team 06"}, names, "by name")
}

func TestMemberships(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	gid := e.newGroup("Finance", nil)
	other := e.newUser("Olga", "olga@cms.test")

	// A member: no configurable permissions, even when sent.
	m := e.join(e.s.UserID(), gid, map[string]any{"configurable_permissions": map[string]any{"can_run_reports": false}})
	mid := m["id"].(string)
	assert.Equal(t, "group_membership", m["type"])
	assert.Equal(t, "member", m["role"])
	assert.NotContains(t, m, "configurable_permissions")
	assert.Equal(t, e.s.UserID(), m["user"].(map[string]any)["id"])
	assert.Equal(t, map[string]any{"type": "group", "id": gid, "name": "Finance", "group_type": "managed_group"}, m["group"])

	// An admin: omitted keys are on, given ones as given; null turns all off.
	all := map[string]any{"can_run_reports": true, "can_instant_login": true, "can_create_accounts": true, "can_edit_accounts": true}
	a := e.join(other, gid, map[string]any{"role": "admin"})
	assert.Equal(t, all, a["configurable_permissions"])
	aid := a["id"].(string)
	got := e.ok(http.MethodPut, "/group_memberships/"+aid, admin, map[string]any{"configurable_permissions": map[string]any{"can_instant_login": false}}, http.StatusOK)
	assert.Equal(t, map[string]any{"can_run_reports": true, "can_instant_login": false, "can_create_accounts": true, "can_edit_accounts": true}, got["configurable_permissions"])
	got = e.ok(http.MethodPut, "/group_memberships/"+aid, admin, map[string]any{"configurable_permissions": nil}, http.StatusOK)
	assert.Equal(t, map[string]any{"can_run_reports": false, "can_instant_login": false, "can_create_accounts": false, "can_edit_accounts": false}, got["configurable_permissions"])
	got = e.ok(http.MethodPut, "/group_memberships/"+aid, admin, map[string]any{}, http.StatusOK)
	assert.Equal(t, false, got["configurable_permissions"].(map[string]any)["can_run_reports"], "absent keeps them")
	// Demoted to member: no permissions; promoted again: the given ones.
	got = e.ok(http.MethodPut, "/group_memberships/"+aid, admin, map[string]any{"role": "member"}, http.StatusOK)
	assert.NotContains(t, got, "configurable_permissions")
	got = e.ok(http.MethodPut, "/group_memberships/"+mid, admin, map[string]any{"role": "admin", "configurable_permissions": map[string]any{"can_edit_accounts": false}}, http.StatusOK)
	assert.Equal(t, false, got["configurable_permissions"].(map[string]any)["can_edit_accounts"])
	assert.Equal(t, true, got["configurable_permissions"].(map[string]any)["can_run_reports"])

	// The managed user is now a group admin: reads and updates the group's memberships.
	e.ok(http.MethodGet, "/group_memberships/"+aid, user, nil, http.StatusOK)
	e.ok(http.MethodPut, "/group_memberships/"+aid, user, map[string]any{"role": "member"}, http.StatusOK)
	e.ok(http.MethodGet, "/groups/"+gid+"/memberships", user, nil, http.StatusOK)

	nomad := e.newUser("Nomad", "nomad@cms.test")
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"create as user", "POST", "/group_memberships", user, map[string]any{"user": map[string]any{"id": nomad}, "group": map[string]any{"id": gid}}, 403, wire.CodeAccessDenied},
		{"bad role", "POST", "/group_memberships", admin, map[string]any{"user": map[string]any{"id": nomad}, "group": map[string]any{"id": gid}, "role": "owner"}, 400, wire.CodeInvalidParameter},
		{"no user", "POST", "/group_memberships", admin, map[string]any{"group": map[string]any{"id": gid}}, 400, wire.CodeBadRequest},
		{"no group", "POST", "/group_memberships", admin, map[string]any{"user": map[string]any{"id": nomad}}, 400, wire.CodeBadRequest},
		{"unknown user", "POST", "/group_memberships", admin, map[string]any{"user": map[string]any{"id": "999"}, "group": map[string]any{"id": gid}}, 404, wire.CodeNotFound},
		{"unknown group", "POST", "/group_memberships", admin, map[string]any{"user": map[string]any{"id": nomad}, "group": map[string]any{"id": "999"}}, 404, wire.CodeNotFound},
		{"already a member", "POST", "/group_memberships", admin, map[string]any{"user": map[string]any{"id": other}, "group": map[string]any{"id": gid}}, 409, wire.CodeConflict},
		{"permission not a bool", "POST", "/group_memberships", admin, map[string]any{"user": map[string]any{"id": nomad}, "group": map[string]any{"id": gid}, "role": "admin", "configurable_permissions": map[string]any{"can_run_reports": "yes"}}, 400, wire.CodeBadRequest},
		{"update bad role", "PUT", "/group_memberships/" + aid, admin, map[string]any{"role": "coadmin"}, 400, wire.CodeInvalidParameter},
		{"update missing", "PUT", "/group_memberships/999", admin, map[string]any{"role": "member"}, 404, wire.CodeNotFound},
		{"get missing", "GET", "/group_memberships/999", admin, nil, 404, wire.CodeNotFound},
		{"list other user's", "GET", "/users/" + other + "/memberships", user, nil, 403, wire.CodeAccessDenied},
		{"list missing user's", "GET", "/users/999/memberships", admin, nil, 404, wire.CodeNotFound},
	} {
		t.Run(c.name, func(t *testing.T) { e.rejects(c.method, c.path, c.token, c.body, c.status, c.code) })
	}

	// A plain member may read their own membership but not manage others.
	plain := e.newGroup("Plain", map[string]any{"member_viewability_level": "admins_only"})
	pm := e.join(e.s.UserID(), plain, nil)["id"].(string)
	po := e.join(other, plain, nil)["id"].(string)
	e.ok(http.MethodGet, "/group_memberships/"+pm, user, nil, http.StatusOK)
	e.rejects(http.MethodGet, "/group_memberships/"+po, user, nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.rejects(http.MethodDelete, "/group_memberships/"+po, user, nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.rejects(http.MethodGet, "/groups/"+plain+"/memberships", user, nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.ok(http.MethodPut, "/groups/"+plain, admin, map[string]any{"member_viewability_level": "admins_and_members"}, http.StatusOK)
	e.ok(http.MethodGet, "/groups/"+plain+"/memberships", user, nil, http.StatusOK)

	// Lists by user.
	mine := e.ok(http.MethodGet, "/users/"+e.s.UserID()+"/memberships", user, nil, http.StatusOK)
	assert.Equal(t, []string{mid, pm}, ids(mine))

	e.ok(http.MethodDelete, "/group_memberships/"+po, admin, nil, http.StatusNoContent)
	e.rejects(http.MethodGet, "/group_memberships/"+po, admin, nil, http.StatusNotFound, wire.CodeNotFound)

	// A user who is deleted or rolled out leaves their groups.
	e.ok(http.MethodPut, "/users/"+other, admin, map[string]any{"enterprise": nil}, http.StatusOK)
	left := e.ok(http.MethodGet, "/groups/"+gid+"/memberships", admin, nil, http.StatusOK)
	assert.Equal(t, []string{mid}, ids(left))
}

func TestMembershipsListPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	gid := e.newGroup("Big", nil)
	var want []string
	for i := range 5 {
		u := e.newUser(fmt.Sprintf("M%d", i), fmt.Sprintf("m%d@cms.test", i))
		want = append(want, e.join(u, gid, nil)["id"].(string))
	}
	var got []string
	for off := 0; off < 5; off += 2 {
		p := e.ok(http.MethodGet, fmt.Sprintf("/groups/%s/memberships?limit=2&offset=%d", gid, off), e.s.AdminToken(), nil, http.StatusOK)
		require.EqualValues(t, 5, p["total_count"])
		got = append(got, ids(p)...)
	}
	assert.Equal(t, want, got)
}
