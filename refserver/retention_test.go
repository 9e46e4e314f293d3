package refserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func finitePolicy(name string, days any) map[string]any {
	return map[string]any{"policy_name": name, "policy_type": "finite", "disposition_action": "permanently_delete", "retention_length": days}
}

func TestGovernanceAdminOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	paths := []struct{ method, path string }{
		{"GET", "/retention_policies"}, {"POST", "/retention_policies"}, {"GET", "/retention_policies/1"},
		{"PUT", "/retention_policies/1"}, {"DELETE", "/retention_policies/1"}, {"GET", "/retention_policies/1/assignments"},
		{"POST", "/retention_policy_assignments"}, {"GET", "/retention_policy_assignments/1"},
		{"DELETE", "/retention_policy_assignments/1"}, {"GET", "/retention_policy_assignments/1/files_under_retention"},
		{"GET", "/retention_policy_assignments/1/file_versions_under_retention"},
		{"GET", "/file_version_retentions"}, {"GET", "/file_version_retentions/1"},
		{"GET", "/legal_hold_policies"}, {"POST", "/legal_hold_policies"}, {"GET", "/legal_hold_policies/1"},
		{"PUT", "/legal_hold_policies/1"}, {"DELETE", "/legal_hold_policies/1"},
		{"GET", "/legal_hold_policy_assignments?policy_id=1"}, {"POST", "/legal_hold_policy_assignments"},
		{"GET", "/legal_hold_policy_assignments/1"}, {"DELETE", "/legal_hold_policy_assignments/1"},
		{"GET", "/legal_hold_policy_assignments/1/files_on_hold"}, {"GET", "/legal_hold_policy_assignments/1/file_versions_on_hold"},
		{"GET", "/file_version_legal_holds?policy_id=1"}, {"GET", "/file_version_legal_holds/1"},
	}
	before := govSnapshot(e.s)
	for _, c := range paths {
		var body any
		if c.method == "POST" || c.method == "PUT" {
			body = finitePolicy("x", 1)
		}
		resp, m := e.doJSON(c.method, e.api(c.path), e.s.UserToken(), body, nil)
		requireAPIError(t, resp, m, http.StatusForbidden, "access_denied_insufficient_permissions")
		resp, m = e.doJSON(c.method, e.api(c.path), e.s.AppToken(), body, nil)
		requireAPIError(t, resp, m, http.StatusForbidden, "insufficient_scope")
	}
	assert.Equal(t, before, govSnapshot(e.s))
}

func TestRetentionPolicyCreateRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Taken", 10))
	long := strings.Repeat("é", 501)
	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"no name", `{"policy_type":"finite","disposition_action":"remove_retention","retention_length":5}`, 400, "bad_request"},
		{"empty name", finitePolicy("", 5), 400, "bad_request"},
		{"no type", `{"policy_name":"a","disposition_action":"remove_retention"}`, 400, "bad_request"},
		{"bad type", `{"policy_name":"a","policy_type":"forever","disposition_action":"remove_retention"}`, 400, "bad_request"},
		{"no disposition", `{"policy_name":"a","policy_type":"indefinite"}`, 400, "bad_request"},
		{"bad disposition", `{"policy_name":"a","policy_type":"indefinite","disposition_action":"shred"}`, 400, "bad_request"},
		{"finite without length", `{"policy_name":"a","policy_type":"finite","disposition_action":"remove_retention"}`, 400, "bad_request"},
		{"finite zero", finitePolicy("a", 0), 400, "bad_request"},
		{"finite negative string", finitePolicy("a", "-3"), 400, "bad_request"},
		{"finite fraction", finitePolicy("a", 1.5), 400, "bad_request"},
		{"finite words", finitePolicy("a", "ten"), 400, "bad_request"},
		{"finite indefinite", finitePolicy("a", "indefinite"), 400, "bad_request"},
		{"finite too long", finitePolicy("a", 1<<40), 400, "bad_request"},
		{"indefinite with length", `{"policy_name":"a","policy_type":"indefinite","disposition_action":"remove_retention","retention_length":30}`, 400, "bad_request"},
		{"bad retention_type", `{"policy_name":"a","policy_type":"indefinite","disposition_action":"remove_retention","retention_type":"frozen"}`, 400, "bad_request"},
		{"description too long", fmt.Sprintf(`{"policy_name":"a","policy_type":"indefinite","disposition_action":"remove_retention","description":%q}`, long), 400, "bad_request"},
		{"extension on remove_retention", `{"policy_name":"a","policy_type":"finite","retention_length":3,"disposition_action":"remove_retention","max_extension_length":5}`, 400, "bad_request"},
		{"extension on indefinite", `{"policy_name":"a","policy_type":"indefinite","disposition_action":"permanently_delete","max_extension_length":"5"}`, 400, "bad_request"},
		{"extension bad", `{"policy_name":"a","policy_type":"finite","retention_length":3,"disposition_action":"permanently_delete","max_extension_length":"lots"}`, 400, "bad_request"},
		{"status on create", `{"policy_name":"a","policy_type":"indefinite","disposition_action":"remove_retention","status":"retired"}`, 400, "bad_request"},
		{"unknown recipient", `{"policy_name":"a","policy_type":"indefinite","disposition_action":"remove_retention","custom_notification_recipients":[{"type":"user","id":"42"}]}`, 400, "bad_request"},
		{"unknown field", `{"policy_name":"a","policy_type":"indefinite","disposition_action":"remove_retention","color":"red"}`, 400, "bad_request"},
		{"not json", `{"policy_name":`, 400, "bad_request"},
		{"name taken, other case", finitePolicy("TAKEN", 3), 409, "conflict"},
	}
	before := govSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.admin("POST", "/retention_policies", c.body)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, govSnapshot(e.s), "rejected requests changed state")

	// retention_length as a number or a string; indefinite with or without "indefinite".
	num := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Number", 365))
	assert.Equal(t, "365", num["retention_length"])
	s := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("String", "30"))
	assert.Equal(t, "30", s["retention_length"])
	ind := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{
		"policy_name": "Forever", "policy_type": "indefinite", "disposition_action": "remove_retention", "retention_length": "indefinite",
		"retention_type": "non_modifiable", "description": strings.Repeat("d", 500), "are_owners_notified": true,
		"custom_notification_recipients": []any{map[string]any{"type": "user", "id": e.s.UserID()}},
	})
	assert.Equal(t, "indefinite", ind["retention_length"])
	assert.Equal(t, "non_modifiable", ind["retention_type"])
	assert.Equal(t, true, ind["are_owners_notified"])
	assert.Equal(t, e.s.UserID(), ind["custom_notification_recipients"].([]any)[0].(map[string]any)["id"])
	e.mustAdmin(201, "POST", "/retention_policies", map[string]any{"policy_name": "Bare", "policy_type": "indefinite", "disposition_action": "remove_retention"})
	ext := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{
		"policy_name": "Ext", "policy_type": "finite", "retention_length": 10, "disposition_action": "permanently_delete",
		"max_extension_length": "20", "can_owner_extend_retention": true,
	})
	assert.Equal(t, "20", ext["max_extension_length"])
	assert.Equal(t, true, ext["can_owner_extend_retention"])

	assert.Equal(t, "retention_policy", num["type"])
	assert.Equal(t, "finite", num["policy_type"])
	assert.Equal(t, "permanently_delete", num["disposition_action"])
	assert.Equal(t, "modifiable", num["retention_type"])
	assert.Equal(t, "active", num["status"])
	assert.Equal(t, "none", num["max_extension_length"])
	assert.Equal(t, e.s.AdminUserID(), str(num, "created_by", "id"))
	assert.Equal(t, "2025-03-01T12:00:00Z", num["created_at"])
	assert.Equal(t, map[string]any{"enterprise": 0.0, "folder": 0.0, "metadata_template": 0.0}, num["assignment_counts"])
}

func TestRetentionPolicyGetAndList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	var all []string
	for i := range 5 {
		m := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy(fmt.Sprintf("Keep %d", i), i+1))
		all = append(all, m["id"].(string))
	}
	ind := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{"policy_name": "keep forever", "policy_type": "indefinite", "disposition_action": "remove_retention"})
	all = append(all, ind["id"].(string))

	got := e.mustAdmin(200, "GET", "/retention_policies/"+all[0], nil)
	assert.Equal(t, "Keep 0", got["policy_name"])
	got = e.mustAdmin(200, "GET", "/retention_policies/"+all[0]+"?fields=status", nil)
	assert.Equal(t, "active", got["status"])
	assert.Equal(t, "Keep 0", got["policy_name"])
	assert.NotContains(t, got, "created_at")
	resp, m := e.admin("GET", "/retention_policies/999", nil)
	requireAPIError(t, resp, m, 404, "not_found")

	assert.Equal(t, all, e.collectMarker("/retention_policies", 2, 3))
	assert.Equal(t, all[:5], e.collectMarker("/retention_policies?policy_name=Keep", 2, 3), "case-sensitive prefix")
	assert.Equal(t, all[5:], ids(e.mustAdmin(200, "GET", "/retention_policies?policy_type=indefinite", nil)))
	assert.Equal(t, all, ids(e.mustAdmin(200, "GET", "/retention_policies?created_by_user_id="+e.s.AdminUserID(), nil)))
	assert.Empty(t, e.mustAdmin(200, "GET", "/retention_policies?created_by_user_id="+e.s.UserID(), nil)["entries"])
	for _, c := range []struct {
		q      string
		status int
		code   string
	}{
		{"policy_type=forever", 400, "bad_request"},
		{"created_by_user_id=424242", 404, "not_found"},
		{"marker=bogus", 400, "bad_request"},
		{"limit=0", 400, "bad_request"},
		{"limit=x", 400, "bad_request"},
	} {
		resp, m := e.admin("GET", "/retention_policies?"+c.q, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	page := e.mustAdmin(200, "GET", "/retention_policies?limit=5000", nil)
	assert.EqualValues(t, 1000, page["limit"])
}

func TestRetentionPolicyUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Other", 1))
	mod := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Mod", 30))
	modID := mod["id"].(string)
	non := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{
		"policy_name": "Non", "policy_type": "finite", "retention_length": 30, "disposition_action": "permanently_delete",
		"retention_type": "non_modifiable", "description": "keep",
	})
	nonID := non["id"].(string)
	ind := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{"policy_name": "Ind", "policy_type": "indefinite", "disposition_action": "remove_retention"})
	indID := ind["id"].(string)

	cases := []struct {
		name, id string
		body     any
		status   int
		code     string
	}{
		{"unknown policy", "999", map[string]any{"policy_name": "x"}, 404, "not_found"},
		{"name taken", modID, map[string]any{"policy_name": "other"}, 409, "conflict"},
		{"empty name", modID, map[string]any{"policy_name": " "}, 400, "bad_request"},
		{"bad disposition", modID, map[string]any{"disposition_action": "shred"}, 400, "bad_request"},
		{"policy_type", modID, map[string]any{"policy_type": "indefinite"}, 400, "bad_request"},
		{"modifiable on modifiable", modID, map[string]any{"retention_type": "modifiable"}, 400, "bad_request"},
		{"unknown retention_type", modID, map[string]any{"retention_type": "frozen"}, 400, "bad_request"},
		{"bad status", modID, map[string]any{"status": "paused"}, 400, "bad_request"},
		{"length on indefinite", indID, map[string]any{"retention_length": 5}, 400, "bad_request"},
		{"indefinite on finite", modID, map[string]any{"retention_length": "indefinite"}, 400, "bad_request"},
		{"bad length", modID, map[string]any{"retention_length": 0}, 400, "bad_request"},
		{"description too long", modID, map[string]any{"description": strings.Repeat("x", 501)}, 400, "bad_request"},
		{"shorten non-modifiable", nonID, map[string]any{"retention_length": "29"}, 403, "forbidden"},
		{"non-modifiable back to modifiable", nonID, map[string]any{"retention_type": "modifiable"}, 403, "forbidden"},
		{"rejection is atomic", nonID, map[string]any{"policy_name": "Renamed", "retention_length": 1}, 403, "forbidden"},
		{"unknown field", modID, `{"color":"red"}`, 400, "bad_request"},
	}
	before := govSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.clock.Advance(time.Second)
			resp, m := e.admin("PUT", "/retention_policies/"+c.id, c.body)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, govSnapshot(e.s), "rejected requests changed state")

	// Nulls change nothing, except description (cleared) and recipients (emptied).
	got := e.mustAdmin(200, "PUT", "/retention_policies/"+nonID, map[string]any{
		"policy_name": nil, "disposition_action": nil, "retention_type": nil, "status": nil, "retention_length": nil,
		"description": nil, "can_owner_extend_retention": nil, "are_owners_notified": nil, "custom_notification_recipients": nil,
	})
	assert.Equal(t, "Non", got["policy_name"])
	assert.Equal(t, "", got["description"])
	assert.Equal(t, "30", got["retention_length"])
	assert.Equal(t, "non_modifiable", got["retention_type"])

	// Allowed on a non-modifiable policy: lengthen, disposition, notifications, retire.
	got = e.mustAdmin(200, "PUT", "/retention_policies/"+nonID, map[string]any{
		"retention_length": 60, "disposition_action": "remove_retention", "are_owners_notified": true,
		"custom_notification_recipients": []any{map[string]any{"type": "user", "id": e.s.AdminUserID()}},
	})
	assert.Equal(t, "60", got["retention_length"])
	assert.Equal(t, "remove_retention", got["disposition_action"])
	assert.Len(t, got["custom_notification_recipients"], 1)
	assert.Equal(t, "2025-03-01T12:00:16Z", got["modified_at"])

	// A modifiable policy: shorten, rename, make non-modifiable (both spellings).
	got = e.mustAdmin(200, "PUT", "/retention_policies/"+modID, map[string]any{"retention_length": "7", "policy_name": "MOD", "retention_type": "non-modifiable"})
	assert.Equal(t, "7", got["retention_length"])
	assert.Equal(t, "MOD", got["policy_name"])
	assert.Equal(t, "non_modifiable", got["retention_type"])

	// Retire is one-way.
	got = e.mustAdmin(200, "PUT", "/retention_policies/"+indID, map[string]any{"status": "retired"})
	assert.Equal(t, "retired", got["status"])
	before = govSnapshot(e.s)
	resp, m := e.admin("PUT", "/retention_policies/"+indID, map[string]any{"status": "active"})
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.Equal(t, before, govSnapshot(e.s))
}

func TestRetentionPolicyDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	mod := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Mod", 30))["id"].(string)
	non := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{
		"policy_name": "Non", "policy_type": "indefinite", "disposition_action": "remove_retention", "retention_type": "non_modifiable",
	})["id"].(string)
	folder := e.createFolder(e.s.AdminToken(), "0", "F")["id"].(string)
	file := e.uploadFile(e.s.AdminToken(), folder, "a.txt", []byte("a"))
	e.mustAdmin(201, "POST", "/retention_policy_assignments", map[string]any{"policy_id": mod, "assign_to": map[string]any{"type": "folder", "id": folder}})
	require.Len(t, e.mustAdmin(200, "GET", "/file_version_retentions", nil)["entries"], 1)

	before := govSnapshot(e.s)
	resp, m := e.admin("DELETE", "/retention_policies/"+non, nil)
	requireAPIError(t, resp, m, 403, "forbidden")
	resp, m = e.admin("DELETE", "/retention_policies/999", nil)
	requireAPIError(t, resp, m, 404, "not_found")
	assert.Equal(t, before, govSnapshot(e.s))

	// Deleting a modifiable policy takes its assignments and the retention they gave.
	resp, _ = e.admin("DELETE", "/retention_policies/"+mod, nil)
	require.Equal(t, 204, resp.StatusCode)
	resp, m = e.admin("GET", "/retention_policies/"+mod, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	assert.Empty(t, e.mustAdmin(200, "GET", "/file_version_retentions", nil)["entries"])
	resp, _ = e.admin("DELETE", "/files/"+file["id"].(string), nil)
	assert.Equal(t, 204, resp.StatusCode)
}
