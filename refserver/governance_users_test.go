package refserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGovernanceTakesEveryEnterpriseUser: a user made through POST /users is
// taken wherever the service takes an enterprise user — a legal hold
// custodian, a retention policy's notification recipient, the
// created_by_user_id filter — and a deleted one is not.
func TestGovernanceTakesEveryEnterpriseUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	made := e.newUser("Made", "made@example.com")
	gone := e.newUser("Gone", "gone@example.com")
	e.ok(http.MethodDelete, "/users/"+gone, e.s.AdminToken(), nil, http.StatusNoContent)

	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Custodian"))["id"].(string)
	a := e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", map[string]any{"policy_id": hp, "assign_to": map[string]any{"type": "user", "id": made}})
	assert.Equal(t, made, a["assigned_to"].(map[string]any)["id"])

	body := finitePolicy("Notify", 10)
	body["custom_notification_recipients"] = []any{map[string]any{"type": "user", "id": made}}
	rp := e.mustAdmin(201, "POST", "/retention_policies", body)
	assert.Equal(t, made, rp["custom_notification_recipients"].([]any)[0].(map[string]any)["id"])

	list := e.mustAdmin(200, "GET", "/retention_policies?created_by_user_id="+made, nil)
	assert.Empty(t, list["entries"], "the user made no policy")

	// A deleted user is unknown everywhere.
	resp, m := e.admin("POST", "/legal_hold_policy_assignments", map[string]any{"policy_id": hp, "assign_to": map[string]any{"type": "user", "id": gone}})
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
	body = finitePolicy("Gone", 10)
	body["custom_notification_recipients"] = []any{map[string]any{"type": "user", "id": gone}}
	resp, m = e.admin("POST", "/retention_policies", body)
	requireAPIError(t, resp, m, http.StatusBadRequest, "bad_request")
	resp, m = e.admin("GET", "/retention_policies?created_by_user_id="+gone, nil)
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "%v", m)
}
