package refserver

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newVersion uploads a new version of a file and returns its file record.
func (e *env) newVersion(token, fileID string, data []byte) map[string]any {
	e.t.Helper()
	resp, m := e.uploadRaw(token, e.upload("/files/"+fileID+"/content"), `{}`, data, nil)
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "%v", m)
	return m["entries"].([]any)[0].(map[string]any)
}

func assignTo(policyID, typ string, id any) map[string]any {
	to := map[string]any{"type": typ}
	if id != nil {
		to["id"] = id
	}
	return map[string]any{"policy_id": policyID, "assign_to": to}
}

func TestRetentionAssignmentRules(t *testing.T) {
	t.Parallel()
	md := newMDEnv(t)
	e := md.env
	adm := e.s.AdminToken()
	contract := md.createTemplate("contract", contractFields())
	long := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Long", 100))["id"].(string)
	short := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Short", 10))["id"].(string)
	longer := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Longer", 200))["id"].(string)
	ind := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{"policy_name": "Ind", "policy_type": "indefinite", "disposition_action": "remove_retention"})["id"].(string)
	retired := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Old", 5))["id"].(string)
	e.mustAdmin(200, "PUT", "/retention_policies/"+retired, map[string]any{"status": "retired"})
	folder := e.createFolder(adm, "0", "Records")["id"].(string)
	userFolder := e.createFolder(e.s.UserToken(), "0", "Mine")["id"].(string)
	first := e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(long, "folder", folder))
	assert.Equal(t, "retention_policy_assignment", first["type"])
	assert.Equal(t, map[string]any{"type": "folder", "id": folder}, first["assigned_to"])
	assert.Equal(t, long, str(first, "retention_policy", "id"))
	assert.Equal(t, "100", str(first, "retention_policy", "retention_length"))
	assert.Nil(t, first["filter_fields"])
	assert.Equal(t, e.s.AdminUserID(), str(first, "assigned_by", "id"))
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(ind, "enterprise", nil))
	tmpl := contract["id"].(string)
	status, final := fieldID(t, contract, "status"), optionID(t, contract, "status", "closed")
	signedAt := fieldID(t, contract, "signed")

	withFilter := func(b map[string]any, k string, v any) map[string]any { b[k] = v; return b }
	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"no policy", `{"assign_to":{"type":"enterprise"}}`, 400, "bad_request"},
		{"no assign_to", map[string]any{"policy_id": long}, 400, "bad_request"},
		{"no type", map[string]any{"policy_id": long, "assign_to": map[string]any{"id": folder}}, 400, "bad_request"},
		{"bad type", assignTo(long, "user", "1"), 400, "bad_request"},
		{"enterprise with id", assignTo(short, "enterprise", "123"), 400, "bad_request"},
		{"folder without id", assignTo(short, "folder", nil), 400, "bad_request"},
		{"template without id", assignTo(short, "metadata_template", nil), 400, "bad_request"},
		{"filter on folder", withFilter(assignTo(short, "folder", folder), "filter_fields", []any{map[string]any{"field": "a", "value": "b"}}), 400, "bad_request"},
		{"start date on folder", withFilter(assignTo(short, "folder", folder), "start_date_field", "upload_date"), 400, "bad_request"},
		{"two filters", withFilter(assignTo(short, "metadata_template", tmpl), "filter_fields", []any{map[string]any{"field": "a", "value": "b"}, map[string]any{"field": "c", "value": "d"}}), 400, "bad_request"},
		{"empty filter", withFilter(assignTo(short, "metadata_template", tmpl), "filter_fields", []any{map[string]any{"field": "a"}}), 400, "bad_request"},
		{"start date with indefinite", withFilter(assignTo(ind, "metadata_template", tmpl), "start_date_field", "upload_date"), 400, "bad_request"},
		{"retired policy", assignTo(retired, "folder", folder), 400, "bad_request"},
		{"root folder", assignTo(short, "folder", "0"), 400, "bad_request"},
		{"unknown field", `{"policy_id":"1","assign_to":{"type":"enterprise"},"x":1}`, 400, "bad_request"},
		{"unknown policy", assignTo("999", "folder", folder), 404, "not_found"},
		{"unknown folder", assignTo(short, "folder", "999"), 404, "not_found"},
		{"unknown template", assignTo(short, "metadata_template", "not a template"), 404, "not_found"},
		{"template by scope and key", assignTo(short, "metadata_template", "enterprise_"+e.s.EnterpriseID()+".contract"), 404, "not_found"},
		{"shorter on same folder", assignTo(short, "folder", folder), 409, "conflict"},
		{"same policy again", assignTo(long, "folder", folder), 409, "conflict"},
		{"anything after indefinite on enterprise", assignTo(longer, "enterprise", nil), 409, "conflict"},
	}
	before := govSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.admin("POST", "/retention_policy_assignments", c.body)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, govSnapshot(e.s), "rejected requests changed state")

	// A longer policy on the same folder, any policy on another folder (the
	// admin assigns to a user's folder too), and metadata templates.
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(longer, "folder", folder))
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(short, "folder", userFolder))
	mt := e.mustAdmin(201, "POST", "/retention_policy_assignments", withFilter(withFilter(assignTo(short, "metadata_template", tmpl),
		"filter_fields", []any{map[string]any{"field": status, "value": final}}), "start_date_field", signedAt))
	assert.Equal(t, []any{map[string]any{"field": status, "value": final}}, mt["filter_fields"])
	assert.Equal(t, signedAt, mt["start_date_field"])
	mt2 := e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(long, "metadata_template", tmpl))
	assert.Equal(t, "upload_date", mt2["start_date_field"])
	assert.Equal(t, []any{}, mt2["filter_fields"])

	counts := e.mustAdmin(200, "GET", "/retention_policies/"+short, nil)["assignment_counts"]
	assert.Equal(t, map[string]any{"enterprise": 0.0, "folder": 1.0, "metadata_template": 1.0}, counts)

	// Get, list by type (over pages), delete.
	got := e.mustAdmin(200, "GET", "/retention_policy_assignments/"+first["id"].(string), nil)
	assert.Equal(t, first, got)
	assert.Equal(t, []string{first["id"].(string), mt2["id"].(string)}, e.collectMarker("/retention_policies/"+long+"/assignments", 1, 2))
	assert.Equal(t, []string{mt2["id"].(string)}, ids(e.mustAdmin(200, "GET", "/retention_policies/"+long+"/assignments?type=metadata_template", nil)))
	resp, m := e.admin("GET", "/retention_policies/"+long+"/assignments?type=user", nil)
	requireAPIError(t, resp, m, 400, "bad_request")
	resp, m = e.admin("GET", "/retention_policies/999/assignments", nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.admin("GET", "/retention_policy_assignments/999", nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, _ = e.admin("DELETE", "/retention_policy_assignments/"+mt2["id"].(string), nil)
	assert.Equal(t, 204, resp.StatusCode)
	resp, m = e.admin("DELETE", "/retention_policy_assignments/"+mt2["id"].(string), nil)
	requireAPIError(t, resp, m, 404, "not_found")
}

func TestRetentionNonModifiableAssignment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	non := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{
		"policy_name": "Non", "policy_type": "finite", "retention_length": 5, "disposition_action": "remove_retention", "retention_type": "non_modifiable",
	})["id"].(string)
	folder := e.createFolder(e.s.AdminToken(), "0", "F")["id"].(string)
	a := e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(non, "folder", folder))["id"].(string)
	before := govSnapshot(e.s)
	resp, m := e.admin("DELETE", "/retention_policy_assignments/"+a, nil)
	requireAPIError(t, resp, m, 403, "forbidden")
	assert.Equal(t, before, govSnapshot(e.s))
}

func TestRetentionEffectOnFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	adm, tok := e.s.AdminToken(), e.s.UserToken()
	pol := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Two days", 2))["id"].(string)
	folder := e.createFolder(tok, "0", "Contracts")["id"].(string)
	sub := e.createFolder(tok, folder, "2025")["id"].(string)
	outside := e.uploadFile(tok, "0", "free.txt", []byte("free"))
	existing := e.uploadFile(tok, sub, "old.txt", []byte("old"))

	e.clock.Advance(time.Hour)
	a := e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(pol, "folder", folder))["id"].(string)
	e.clock.Advance(time.Hour)
	fresh := e.uploadFile(tok, sub, "new.txt", []byte("v1"))
	e.clock.Advance(time.Hour)
	v2 := e.newVersion(tok, fresh["id"].(string), []byte("v2"))

	list := e.mustAdmin(200, "GET", "/file_version_retentions", nil)["entries"].([]any)
	require.Len(t, list, 3)
	rec := list[0].(map[string]any)
	assert.Equal(t, "file_version_retention", rec["type"])
	assert.Equal(t, existing["id"], str(rec, "file", "id"))
	assert.Equal(t, str(existing, "file_version", "id"), str(rec, "file_version", "id"))
	assert.Equal(t, "2025-03-01T13:00:00Z", rec["applied_at"])
	assert.Equal(t, "2025-03-03T13:00:00Z", rec["disposition_at"])
	assert.Equal(t, pol, str(rec, "winning_retention_policy", "id"))
	assert.Equal(t, "2", str(rec, "winning_retention_policy", "retention_length"))
	second, third := list[1].(map[string]any), list[2].(map[string]any)
	assert.Equal(t, str(fresh, "file_version", "id"), str(second, "file_version", "id"))
	assert.Equal(t, "2025-03-01T14:00:00Z", second["applied_at"])
	assert.Equal(t, str(v2, "file_version", "id"), str(third, "file_version", "id"))
	assert.Equal(t, "2025-03-03T15:00:00Z", third["disposition_at"])
	got := e.mustAdmin(200, "GET", "/file_version_retentions/"+rec["id"].(string), nil)
	assert.Equal(t, rec, got)
	resp, m := e.admin("GET", "/file_version_retentions/999", nil)
	requireAPIError(t, resp, m, 404, "not_found")

	// files_under_retention: current versions; file_versions_under_retention: earlier ones.
	assert.Equal(t, []string{existing["id"].(string), fresh["id"].(string)}, e.collectMarker("/retention_policy_assignments/"+a+"/files_under_retention", 1, 2))
	old := e.mustAdmin(200, "GET", "/retention_policy_assignments/"+a+"/file_versions_under_retention", nil)["entries"].([]any)
	require.Len(t, old, 1)
	assert.Equal(t, fresh["id"], old[0].(map[string]any)["id"])
	assert.Equal(t, str(fresh, "file_version", "id"), str(old[0].(map[string]any), "file_version", "id"))

	// A retained file (or a folder holding one) goes to the trash but cannot
	// be purged from it; others can.
	paths := []string{"/files/" + fresh["id"].(string), "/folders/" + folder + "?recursive=true"}
	e.trash(tok, paths...)
	before := govSnapshot(e.s)
	for _, path := range paths {
		resp, m := e.purge(tok, path)
		requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
		resp, m = e.purge(adm, path)
		requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
	}
	assert.Equal(t, before, govSnapshot(e.s), "refused purges changed state")
	assert.Len(t, e.mustAdmin(200, "GET", "/file_version_retentions?file_id="+fresh["id"].(string), nil)["entries"], 2, "a trashed file stays retained")
	resp, _ = e.purge(tok, "/files/"+outside["id"].(string))
	assert.Equal(t, 204, resp.StatusCode)

	// After the disposition date of every version, the purge goes through.
	e.clock.Advance(2*24*time.Hour - 2*time.Hour)
	resp, m = e.purge(tok, "/files/"+fresh["id"].(string))
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
	e.clock.Advance(time.Hour)
	resp, m = e.purge(tok, "/files/"+fresh["id"].(string))
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions") // v1 is free, v2 disposes an hour later
	e.clock.Advance(time.Hour)
	resp, _ = e.purge(tok, "/files/"+fresh["id"].(string))
	assert.Equal(t, 204, resp.StatusCode)
}

func TestRetentionEnterpriseAndWinningPolicy(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "a.txt", []byte("a"))
	folder := e.createFolder(tok, "0", "F")["id"].(string)
	short := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Short", 1))["id"].(string)
	ind := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{"policy_name": "Ind", "policy_type": "indefinite", "disposition_action": "remove_retention"})["id"].(string)
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(short, "enterprise", nil))
	rec := e.mustAdmin(200, "GET", "/file_version_retentions?file_id="+f["id"].(string), nil)["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, short, str(rec, "winning_retention_policy", "id"))
	assert.Equal(t, "2025-03-02T12:00:00Z", rec["disposition_at"])

	// An indefinite policy on a folder wins for the files in it, and keeps them forever.
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(ind, "folder", folder))
	g := e.uploadFile(tok, folder, "g.txt", []byte("g"))
	rec = e.mustAdmin(200, "GET", "/file_version_retentions?file_id="+g["id"].(string), nil)["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, ind, str(rec, "winning_retention_policy", "id"))
	assert.Nil(t, rec["disposition_at"])
	e.clock.Advance(1000 * 24 * time.Hour)
	resp, _ := e.purge(tok, "/files/"+f["id"].(string))
	assert.Equal(t, 204, resp.StatusCode)
	resp, m := e.purge(tok, "/files/"+g["id"].(string))
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")

	// Retiring stops new retention but keeps what is retained.
	e.mustAdmin(200, "PUT", "/retention_policies/"+ind, map[string]any{"status": "retired"})
	h := e.uploadFile(tok, folder, "h.txt", []byte("h"))
	rec = e.mustAdmin(200, "GET", "/file_version_retentions?file_id="+h["id"].(string), nil)["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, short, str(rec, "winning_retention_policy", "id"), "only the enterprise policy applies")
	resp, m = e.purge(tok, "/files/"+g["id"].(string))
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
}

func TestFileVersionRetentionFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	del := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Delete", 10))["id"].(string)
	keep := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{"policy_name": "Lift", "policy_type": "finite", "retention_length": 20, "disposition_action": "remove_retention"})["id"].(string)
	fa := e.createFolder(tok, "0", "A")["id"].(string)
	fb := e.createFolder(tok, "0", "B")["id"].(string)
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(del, "folder", fa))
	e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(keep, "folder", fb))
	var inA, inB []string
	var files []map[string]any
	for i := range 3 {
		a := e.uploadFile(tok, fa, fmt.Sprintf("a%d", i), []byte("a"))
		b := e.uploadFile(tok, fb, fmt.Sprintf("b%d", i), []byte("b"))
		files = append(files, a)
		inA = append(inA, a["id"].(string))
		inB = append(inB, b["id"].(string))
	}
	fileIDs := func(m map[string]any) []string {
		var out []string
		for _, x := range m["entries"].([]any) {
			out = append(out, str(x.(map[string]any), "file", "id"))
		}
		return out
	}
	all := e.collectMarker("/file_version_retentions", 2, 3)
	assert.Len(t, all, 6)
	assert.Equal(t, inA, fileIDs(e.mustAdmin(200, "GET", "/file_version_retentions?policy_id="+del, nil)))
	assert.Equal(t, inB, fileIDs(e.mustAdmin(200, "GET", "/file_version_retentions?disposition_action=remove_retention", nil)))
	assert.Equal(t, inA, fileIDs(e.mustAdmin(200, "GET", "/file_version_retentions?disposition_before=2025-03-15T00:00:00Z", nil)))
	assert.Equal(t, inB, fileIDs(e.mustAdmin(200, "GET", "/file_version_retentions?disposition_after=2025-03-15T00:00:00Z", nil)))
	assert.Empty(t, e.mustAdmin(200, "GET", "/file_version_retentions?disposition_after=2025-03-15T00:00:00Z&disposition_before=2025-03-16T00:00:00Z", nil)["entries"])
	assert.Equal(t, inA[1:2], fileIDs(e.mustAdmin(200, "GET", "/file_version_retentions?file_id="+inA[1], nil)))
	assert.Equal(t, inA[2:], fileIDs(e.mustAdmin(200, "GET", "/file_version_retentions?file_version_id="+str(files[2], "file_version", "id"), nil)))
	for _, q := range []string{"disposition_action=shred", "disposition_before=yesterday", "disposition_after=2025-13-01", "marker=bogus"} {
		resp, m := e.admin("GET", "/file_version_retentions?"+q, nil)
		requireAPIError(t, resp, m, 400, "bad_request")
	}
}
