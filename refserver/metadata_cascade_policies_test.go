package refserver

import (
	"testing"
)

// What the SDK refuses before sending: the root folder (403 forbidden),
// a missing folder_id or member (400), an unknown conflict resolution.
func TestCascadePolicyBadRequests(t *testing.T) {
	e := newEnv(t, Options{})
	A := e.s.AdminToken()
	resp, m := e.doJSON("POST", e.api("/metadata_cascade_policies"), A, map[string]any{"folder_id": "0", "scope": "enterprise", "templateKey": "x"}, nil)
	requireAPIError(t, resp, m, 403, "forbidden")
	resp, m = e.doJSON("GET", e.api("/metadata_cascade_policies?folder_id=0"), A, nil, nil)
	requireAPIError(t, resp, m, 403, "forbidden")
	resp, m = e.doJSON("GET", e.api("/metadata_cascade_policies"), A, nil, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.doJSON("POST", e.api("/metadata_cascade_policies"), A, map[string]any{"folder_id": "12", "scope": "enterprise"}, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.doJSON("POST", e.api("/metadata_cascade_policies"), A, map[string]any{"folder_id": "12", "scope": "elsewhere", "templateKey": "x"}, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.doJSON("POST", e.api("/metadata_cascade_policies/abc/apply"), A, map[string]any{"conflict_resolution": "merge"}, nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.doJSON("POST", e.api("/metadata_cascade_policies/abc/apply"), A, map[string]any{"conflict_resolution": "none"}, nil)
	requireAPIError(t, resp, m, 404, "instance_not_found")
	// Without a resolution the items keep their values (Box's guide).
	resp, m = e.doJSON("POST", e.api("/metadata_cascade_policies/abc/apply"), A, map[string]any{}, nil)
	requireAPIError(t, resp, m, 404, "instance_not_found")
}
