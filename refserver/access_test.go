package refserver

import (
	"net/http"
	"testing"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// TestEndpointAccessRules checks the access rules the route tables declare
// (endpoint.fullToken and endpoint.admin, applied by route before the
// handler runs): on every endpoint for the enterprise admin only, the
// managed user gets 403 access_denied_insufficient_permissions and the app
// token 403 insufficient_scope, even for a record that does not exist or a
// body the handler would refuse; a downscoped admin token (its scopes are
// item scopes, never the enterprise or governance ones) gets 403
// insufficient_scope on every one of them.
func TestEndpointAccessRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	down := e.downscopedAdmin("root_readwrite")
	const missing = "987654321"
	for _, c := range []struct {
		method, path string
		admin, full  bool
	}{
		{"GET", "/users", false, true},
		{"POST", "/users", true, true},
		{"GET", "/users/" + missing, false, true},
		{"PUT", "/users/" + missing, true, true},
		{"DELETE", "/users/" + missing, true, true},
		{"GET", "/users/" + missing + "/memberships", false, true},
		{"GET", "/groups", true, true},
		{"POST", "/groups", true, true},
		{"GET", "/groups/" + missing, false, true},
		{"PUT", "/groups/" + missing, false, true},
		{"DELETE", "/groups/" + missing, true, true},
		{"GET", "/groups/" + missing + "/memberships", false, true},
		{"POST", "/group_memberships", true, true},
		{"GET", "/group_memberships/" + missing, false, true},
		{"PUT", "/group_memberships/" + missing, false, true},
		{"DELETE", "/group_memberships/" + missing, false, true},
		{"GET", "/enterprises/1000001/device_pinners", true, true},
		{"GET", "/device_pinners/" + missing, true, true},
		{"DELETE", "/device_pinners/" + missing, true, true},
		{"POST", "/metadata_templates/schema", true, true},
		{"PUT", "/metadata_templates/enterprise/nothing/schema", true, true},
		{"DELETE", "/metadata_templates/enterprise/nothing/schema", true, true},
		{"GET", "/retention_policies", true, true},
		{"POST", "/retention_policies", true, true},
		{"GET", "/retention_policies/" + missing, true, true},
		{"PUT", "/retention_policies/" + missing, true, true},
		{"DELETE", "/retention_policies/" + missing, true, true},
		{"GET", "/retention_policies/" + missing + "/assignments", true, true},
		{"POST", "/retention_policy_assignments", true, true},
		{"GET", "/retention_policy_assignments/" + missing, true, true},
		{"DELETE", "/retention_policy_assignments/" + missing, true, true},
		{"GET", "/retention_policy_assignments/" + missing + "/files_under_retention", true, true},
		{"GET", "/retention_policy_assignments/" + missing + "/file_versions_under_retention", true, true},
		{"GET", "/file_version_retentions", true, true},
		{"GET", "/file_version_retentions/" + missing, true, true},
		{"GET", "/legal_hold_policies", true, true},
		{"POST", "/legal_hold_policies", true, true},
		{"GET", "/legal_hold_policies/" + missing, true, true},
		{"PUT", "/legal_hold_policies/" + missing, true, true},
		{"DELETE", "/legal_hold_policies/" + missing, true, true},
		{"GET", "/legal_hold_policy_assignments", true, true},
		{"POST", "/legal_hold_policy_assignments", true, true},
		{"GET", "/legal_hold_policy_assignments/" + missing, true, true},
		{"DELETE", "/legal_hold_policy_assignments/" + missing, true, true},
		{"GET", "/legal_hold_policy_assignments/" + missing + "/files_on_hold", true, true},
		{"GET", "/legal_hold_policy_assignments/" + missing + "/file_versions_on_hold", true, true},
		{"GET", "/file_version_legal_holds", true, true},
		{"GET", "/file_version_legal_holds/" + missing, true, true},
	} {
		var body any
		if c.method == http.MethodPost || c.method == http.MethodPut {
			body = []int{1} // no handler takes an array
		}
		if c.admin {
			e.rejects(c.method, c.path, e.s.UserToken(), body, http.StatusForbidden, wire.CodeAccessDenied)
		}
		e.rejects(c.method, c.path, e.s.AppToken(), body, http.StatusForbidden, wire.CodeInsufficientScope)
		if c.full {
			e.rejects(c.method, c.path, down, body, http.StatusForbidden, wire.CodeInsufficientScope)
		}
	}
}
