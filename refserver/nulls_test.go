package refserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allSnapshot fingerprints every resource's state.
func allSnapshot(s *Server) string {
	return adminSnapshot(s) + "\n" + collabSnapshot(s) + "\n" + govSnapshot(s) + "\n" + mdSnapshot(s)
}

// TestExplicitNullRefused: a member sent as null where the service gives
// null no meaning is 400 (bad_request, or invalid_parameter for users,
// groups and memberships) and changes nothing; it is not taken as absent.
func TestExplicitNullRefused(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	admin, user := e.admin, e.user
	wl := e.createWebLink(user, "0", "https://example.com/", "L")["id"].(string)
	file := e.uploadFile(user, "0", "f.txt", []byte("f"))["id"].(string)
	task := e.createTask(user, file, nil)["id"].(string)
	ta := e.assign(user, task, map[string]any{"id": e.s.UserID()})["id"].(string)
	e.createTemplate("contract", contractFields())
	schema := e.api("/metadata_templates/enterprise/contract/schema")
	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Case"))["id"].(string)
	group := e.newGroup("G", nil)
	other := e.newUser("Other", "other@example.com")
	member := e.join(other, group, nil)["id"].(string)
	const bad, invalid = "bad_request", "invalid_parameter"

	rp := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Kept", 10))["id"].(string)

	before := allSnapshot(e.s)
	// A body that is just null changes nothing: 400 bad_request, as an
	// empty body is.
	for _, c := range []struct{ name, url, token string }{
		{"web link", e.api("/web_links/" + wl), user},
		{"task", e.api("/tasks/" + task), user},
		{"task assignment", e.api("/task_assignments/" + ta), user},
		{"retention policy", e.api("/retention_policies/" + rp), admin},
		{"legal hold policy", e.api("/legal_hold_policies/" + hp), admin},
		{"user", e.api("/users/" + other), admin},
		{"group", e.api("/groups/" + group), admin},
		{"membership", e.api("/group_memberships/" + member), admin},
	} {
		for _, body := range []string{"null", " null \n", ""} {
			t.Run(c.name+" body "+body, func(t *testing.T) {
				resp, raw := e.do("PUT", c.url, c.token, strings.NewReader(body), hdr{"Content-Type": "application/json"})
				requireAPIError(t, resp, decodeMap(t, raw), http.StatusBadRequest, bad)
			})
		}
	}
	for _, c := range []struct {
		name, method, url, token string
		body                     any
		code                     string
	}{
		{"web link create description", "POST", e.api("/web_links"), user, `{"url":"https://x.test","parent":{"id":"0"},"description":null}`, bad},
		{"web link description", "PUT", e.api("/web_links/" + wl), user, `{"description":null}`, bad},
		{"web link name", "PUT", e.api("/web_links/" + wl), user, `{"name":null}`, bad},
		{"web link shared_link access", "PUT", e.api("/web_links/" + wl), user, `{"shared_link":{"access":null}}`, bad},
		{"web link shared_link unshared_at", "PUT", e.api("/web_links/" + wl), user, `{"shared_link":{"unshared_at":null}}`, bad},
		{"task create message", "POST", e.api("/tasks"), user, `{"item":{"id":"` + file + `","type":"file"},"message":null}`, bad},
		{"task message", "PUT", e.api("/tasks/" + task), user, `{"message":null}`, bad},
		{"task action", "PUT", e.api("/tasks/" + task), user, `{"action":null,"due_at":null}`, bad},
		{"task assignment message", "PUT", e.api("/task_assignments/" + ta), user, `{"message":null}`, bad},
		{"task assignment state", "PUT", e.api("/task_assignments/" + ta), user, `{"resolution_state":null}`, bad},
		{"editTemplate displayName", "PUT", schema, admin, `[{"op":"editTemplate","data":{"displayName":null}}]`, bad},
		{"editTemplate hidden", "PUT", schema, admin, `[{"op":"editTemplate","data":{"hidden":null}}]`, bad},
		{"editTemplate copyInstanceOnItemCopy", "PUT", schema, admin, `[{"op":"editTemplate","data":{"copyInstanceOnItemCopy":null}}]`, bad},
		{"editField description", "PUT", schema, admin, `[{"op":"editField","fieldKey":"customer","data":{"description":null}}]`, bad},
		{"editField hidden", "PUT", schema, admin, `[{"op":"editField","fieldKey":"customer","data":{"hidden":null}}]`, bad},
		{"editField key", "PUT", schema, admin, `[{"op":"editField","fieldKey":"customer","data":{"key":null}}]`, bad},
		{"legal hold policy_name", "PUT", e.api("/legal_hold_policies/" + hp), admin, `{"policy_name":null}`, bad},
		{"legal hold description", "PUT", e.api("/legal_hold_policies/" + hp), admin, `{"description":null}`, bad},
		{"legal hold release_notes", "PUT", e.api("/legal_hold_policies/" + hp), admin, `{"release_notes":null}`, bad},
		{"legal hold create description", "POST", e.api("/legal_hold_policies"), admin, `{"policy_name":"N","is_ongoing":true,"description":null}`, bad},
		{"group name", "PUT", e.api("/groups/" + group), admin, `{"name":null}`, invalid},
		{"group description", "PUT", e.api("/groups/" + group), admin, `{"description":null}`, invalid},
		{"group invitability_level", "PUT", e.api("/groups/" + group), admin, `{"invitability_level":null}`, invalid},
		{"group create provenance", "POST", e.api("/groups"), admin, `{"name":"H","provenance":null}`, invalid},
		{"user name", "PUT", e.api("/users/" + other), admin, `{"name":null}`, invalid},
		{"user job_title", "PUT", e.api("/users/" + other), admin, `{"job_title":null,"enterprise":null}`, invalid},
		{"user create language", "POST", e.api("/users"), admin, `{"name":"N","login":"n@example.com","language":null}`, invalid},
		{"membership role", "PUT", e.api("/group_memberships/" + member), admin, `{"role":null}`, invalid},
		{"membership create role", "POST", e.api("/group_memberships"), admin, `{"user":{"id":"` + e.s.UserID() + `"},"group":{"id":"` + group + `"},"role":null}`, invalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := hdr{"Content-Type": "application/json"}
			if c.url == schema {
				h["Content-Type"] = state.ContentTypeJSONPatch
			}
			resp, m := e.doJSON(c.method, c.url, c.token, c.body, h)
			requireAPIError(t, resp, m, http.StatusBadRequest, c.code)
			assert.Contains(t, m["message"], "null")
		})
	}
	assert.Equal(t, before, allSnapshot(e.s), "rejected requests changed state")

	// Where null has a meaning it is honoured.
	resp, m := e.doJSON("PUT", e.api("/web_links/"+wl), user, `{"shared_link":{"access":"open","password":"Secret123!"}}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, true, m["shared_link"].(map[string]any)["is_password_enabled"])
	resp, m = e.doJSON("PUT", e.api("/web_links/"+wl), user, `{"shared_link":{"password":null}}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, false, m["shared_link"].(map[string]any)["is_password_enabled"], "password null removes the password")
	resp, m = e.doJSON("PUT", e.api("/web_links/"+wl), user, `{"shared_link":null}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Nil(t, m["shared_link"], "shared_link null removes the link")
	resp, m = e.doJSON("POST", e.api("/tasks"), user, `{"item":{"id":"`+file+`","type":"file"},"due_at":null}`, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Nil(t, m["due_at"])
	m = e.ok("PUT", "/group_memberships/"+member, admin, `{"role":"admin","configurable_permissions":null}`, 200)
	assert.Equal(t, "admin", m["role"])
	m = e.ok("PUT", "/users/"+other, admin, `{"notification_email":null}`, 200)
	assert.Nil(t, m["notification_email"])
}
