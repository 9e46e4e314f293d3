package refserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fieldID is the id of a field of a template record.
func fieldID(t *testing.T, tmpl map[string]any, key string) string {
	t.Helper()
	for _, f := range tmpl["fields"].([]any) {
		if fm := f.(map[string]any); fm["key"] == key {
			return fm["id"].(string)
		}
	}
	t.Fatalf("no field %s", key)
	return ""
}

// optionID is the id of an option of a field of a template record.
func optionID(t *testing.T, tmpl map[string]any, field, key string) string {
	t.Helper()
	for _, f := range tmpl["fields"].([]any) {
		fm := f.(map[string]any)
		if fm["key"] != field {
			continue
		}
		for _, o := range fm["options"].([]any) {
			if om := o.(map[string]any); om["key"] == key {
				return om["id"].(string)
			}
		}
	}
	t.Fatalf("no option %s.%s", field, key)
	return ""
}

// templateAssignment is the body of a metadata_template assignment.
func templateAssignment(policy, template string, filter map[string]any, start string) map[string]any {
	b := assignTo(policy, "metadata_template", template)
	if filter != nil {
		b["filter_fields"] = []any{filter}
	}
	if start != "" {
		b["start_date_field"] = start
	}
	return b
}

// dispositions maps the version ids of a file under retention to their
// disposition_at ("" when indefinite).
func (e *env) dispositions(fileID string) map[string]string {
	e.t.Helper()
	out := map[string]string{}
	for _, x := range e.mustAdmin(200, "GET", "/file_version_retentions?file_id="+fileID, nil)["entries"].([]any) {
		m := x.(map[string]any)
		d, _ := m["disposition_at"].(string)
		out[str(m, "file_version", "id")] = d
	}
	return out
}

func TestRetentionMetadataAssignmentRules(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	tmpl := e.createTemplate("contract", contractFields())
	other := e.createTemplate("other", []any{map[string]any{"type": "date", "key": "due", "displayName": "Due"}})
	tid := tmpl["id"].(string)
	status, active := fieldID(t, tmpl, "status"), optionID(t, tmpl, "status", "active")
	regions, apac := fieldID(t, tmpl, "regions"), optionID(t, tmpl, "regions", "apac")
	signed := fieldID(t, tmpl, "signed")
	short := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Short", 10))["id"].(string)
	long := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Long", 100))["id"].(string)
	ind := e.mustAdmin(201, "POST", "/retention_policies", map[string]any{"policy_name": "Ind", "policy_type": "indefinite", "disposition_action": "remove_retention"})["id"].(string)
	tx, end := beginTx(e.s.st)
	global := tx.Template(state.ScopeGlobal, state.GlobalPropertiesKey).ID
	end()
	first := e.mustAdmin(201, "POST", "/retention_policy_assignments", templateAssignment(long, tid, map[string]any{"field": status, "value": active}, signed))
	assert.Equal(t, map[string]any{"type": "metadata_template", "id": tid}, first["assigned_to"])
	assert.Equal(t, []any{map[string]any{"field": status, "value": active}}, first["filter_fields"])
	assert.Equal(t, signed, first["start_date_field"])

	before := govSnapshot(e.s) + mdSnapshot(e.s)
	for _, c := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"unknown template", templateAssignment(short, "9f0e6a3b-6c1d-4b8e-9a55-0123456789ab", nil, ""), 404, "not_found"},
		{"scope and key instead of the id", templateAssignment(short, e.scope+".contract", nil, ""), 404, "not_found"},
		{"global template", templateAssignment(short, global, nil, ""), 400, "bad_request"},
		{"filter by field key", templateAssignment(short, tid, map[string]any{"field": "status", "value": active}, ""), 400, "bad_request"},
		{"filter on a string field", templateAssignment(short, tid, map[string]any{"field": fieldID(t, tmpl, "customer"), "value": active}, ""), 400, "bad_request"},
		{"option of another field", templateAssignment(short, tid, map[string]any{"field": status, "value": apac}, ""), 400, "bad_request"},
		{"option by key", templateAssignment(short, tid, map[string]any{"field": status, "value": "active"}, ""), 400, "bad_request"},
		{"start date by key", templateAssignment(short, tid, nil, "signed"), 400, "bad_request"},
		{"start date not a date field", templateAssignment(short, tid, nil, fieldID(t, tmpl, "amount")), 400, "bad_request"},
		{"start date of another template", templateAssignment(short, tid, nil, fieldID(t, other, "due")), 400, "bad_request"},
		{"start date with an indefinite policy", templateAssignment(ind, tid, nil, signed), 400, "bad_request"},
		{"shorter policy, same template and filter", templateAssignment(short, tid, map[string]any{"field": status, "value": active}, ""), 409, "conflict"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.env.admin("POST", "/retention_policy_assignments", c.body)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, govSnapshot(e.s)+mdSnapshot(e.s), "rejected requests changed state")

	// Another filter (or none) is another target; upload_date is the default.
	e.mustAdmin(201, "POST", "/retention_policy_assignments", templateAssignment(short, tid, map[string]any{"field": regions, "value": apac}, ""))
	plain := e.mustAdmin(201, "POST", "/retention_policy_assignments", templateAssignment(short, tid, nil, state.StartDateUploadDate))
	assert.Equal(t, "upload_date", plain["start_date_field"])
	assert.Equal(t, []any{}, plain["filter_fields"])
	counts := e.mustAdmin(200, "GET", "/retention_policies/"+short, nil)["assignment_counts"]
	assert.Equal(t, map[string]any{"enterprise": 0.0, "folder": 0.0, "metadata_template": 2.0}, counts)
}

// TestRetentionMetadataCoverage: the assignment retains the versions of the
// files carrying a matching instance, at once and when an instance comes
// to match later; an instance that stops matching leaves the retention.
func TestRetentionMetadataCoverage(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	tmpl := e.createTemplate("contract", contractFields())
	tid := tmpl["id"].(string)
	pol := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Ten", 10))["id"].(string)
	upload := func(name string) string { return e.uploadFile(e.user, "0", name, []byte(name))["id"].(string) }
	a, b, c, d := upload("a.txt"), upload("b.txt"), upload("c.txt"), upload("d.txt")
	dir := e.createFolder(e.user, "0", "Dir")["id"].(string)
	e.createInstance("file", a, "enterprise", "contract", map[string]any{"status": "active"})
	e.createInstance("file", b, "enterprise", "contract", map[string]any{"status": "draft"})
	e.createInstance("file", d, "enterprise", "contract", map[string]any{"regions": []string{"emea", "apac"}})
	e.createInstance("folder", dir, "enterprise", "contract", map[string]any{"status": "active"})

	asg := e.mustAdmin(201, "POST", "/retention_policy_assignments",
		templateAssignment(pol, tid, map[string]any{"field": fieldID(t, tmpl, "status"), "value": optionID(t, tmpl, "status", "active")}, ""))["id"].(string)
	under := func() []string {
		return ids(e.mustAdmin(200, "GET", "/retention_policy_assignments/"+asg+"/files_under_retention", nil))
	}
	assert.Equal(t, []string{a}, under(), "only the file whose instance matches; not the folder")

	// An instance that comes to match: updated, or created.
	resp, m := e.patch(e.instanceURL("file", b, "enterprise", "contract"), e.user, []any{map[string]any{"op": "replace", "path": "/status", "value": "active"}})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	e.createInstance("file", c, "enterprise", "contract", map[string]any{"status": "active"})
	assert.Equal(t, []string{a, b, c}, under())
	assert.Empty(t, e.dispositions(d))

	// A multiSelect filter matches a list holding the option.
	apac := e.mustAdmin(201, "POST", "/retention_policy_assignments",
		templateAssignment(pol, tid, map[string]any{"field": fieldID(t, tmpl, "regions"), "value": optionID(t, tmpl, "regions", "apac")}, ""))["id"].(string)
	assert.Equal(t, []string{d}, ids(e.mustAdmin(200, "GET", "/retention_policy_assignments/"+apac+"/files_under_retention", nil)))

	// No longer matching, or the instance deleted: the retention stays (it
	// never shortens), the file cannot be purged; versions that come later
	// are not covered.
	resp, m = e.patch(e.instanceURL("file", b, "enterprise", "contract"), e.user, []any{map[string]any{"op": "replace", "path": "/status", "value": "closed"}})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	resp, _ = e.do("DELETE", e.instanceURL("file", a, "enterprise", "contract"), e.user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, []string{a, b, c}, under())
	resp, m = e.purge(e.user, "/files/"+a)
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
	resp, m = e.doJSON("POST", e.api("/files/"+a), e.user, nil, nil) // back from the trash
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	e.clock.Advance(time.Minute)
	aV2 := str(e.newVersion(e.user, a, []byte("a2")), "file_version", "id")
	cV2 := str(e.newVersion(e.user, c, []byte("c2")), "file_version", "id")
	assert.NotContains(t, e.dispositions(a), aV2, "a new version of a file that no longer matches is not retained")
	assert.Contains(t, e.dispositions(c), cV2, "a new version of a matching file is retained")
	assert.Len(t, e.dispositions(a), 1)
}

// TestRetentionMetadataStartDate: with start_date_field the retention of a
// version counts from the date in that field (from the upload without
// one); a later date extends it, an earlier one does not shorten it.
func TestRetentionMetadataStartDate(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	tmpl := e.createTemplate("contract", contractFields())
	tid := tmpl["id"].(string)
	pol := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Thirty", 30))["id"].(string)
	x := e.uploadFile(e.user, "0", "x.txt", []byte("x"))
	y := e.uploadFile(e.user, "0", "y.txt", []byte("y"))
	old := e.uploadFile(e.user, "0", "old.txt", []byte("old"))
	xv, yv := str(x, "file_version", "id"), str(y, "file_version", "id")
	e.createInstance("file", x["id"].(string), "enterprise", "contract", map[string]any{"signed": "2025-01-10T00:00:00Z"})
	e.createInstance("file", y["id"].(string), "enterprise", "contract", map[string]any{"customer": "no date"})
	e.createInstance("file", old["id"].(string), "enterprise", "contract", map[string]any{"signed": "2020-01-01T00:00:00Z"})
	e.mustAdmin(201, "POST", "/retention_policy_assignments", templateAssignment(pol, tid, nil, fieldID(t, tmpl, "signed")))

	assert.Equal(t, map[string]string{xv: "2025-02-09T00:00:00Z"}, e.dispositions(x["id"].(string)), "signed + 30 days")
	upload := e.clock.Now().UTC()
	assert.Equal(t, map[string]string{yv: upload.AddDate(0, 0, 30).Format(time.RFC3339)}, e.dispositions(y["id"].(string)), "no date: from the upload")

	url := e.instanceURL("file", x["id"].(string), "enterprise", "contract")
	resp, m := e.patch(url, e.user, []any{map[string]any{"op": "replace", "path": "/signed", "value": "2025-03-01T00:00:00Z"}})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, map[string]string{xv: "2025-03-31T00:00:00Z"}, e.dispositions(x["id"].(string)), "a later date extends")
	resp, m = e.patch(url, e.user, []any{map[string]any{"op": "replace", "path": "/signed", "value": "2024-01-01T00:00:00Z"}})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, map[string]string{xv: "2025-03-31T00:00:00Z"}, e.dispositions(x["id"].(string)), "an earlier date does not shorten")

	// A retention whose disposition has passed no longer blocks a purge.
	resp, m = e.purge(e.user, "/files/"+old["id"].(string))
	require.Equal(t, http.StatusNoContent, resp.StatusCode, "%v", m)
	resp, m = e.purge(e.user, "/files/"+x["id"].(string))
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
}

// TestGovernanceListsKeepTrashed: a file in the trash stays listed under
// the retention and the legal hold that cover it (governance follows the
// content into the trash; only the item endpoints answer 404).
func TestGovernanceListsKeepTrashed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	folder := e.createFolder(tok, "0", "Records")["id"].(string)
	f := e.uploadFile(tok, folder, "r.txt", []byte("r"))["id"].(string)
	pol := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Keep", 5))["id"].(string)
	ra := e.mustAdmin(201, "POST", "/retention_policy_assignments", assignTo(pol, "folder", folder))["id"].(string)
	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Case"))["id"].(string)
	ha := e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", assignTo(hp, "folder", folder))["id"].(string)
	e.trash(tok, "/folders/"+folder+"?recursive=true")
	assert.Equal(t, 404, e.getStatus(tok, "/files/"+f))
	assert.Equal(t, []string{f}, ids(e.mustAdmin(200, "GET", "/retention_policy_assignments/"+ra+"/files_under_retention", nil)))
	e.clock.Advance(3 * time.Second) // past "applying"
	assert.Equal(t, []string{f}, ids(e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+ha+"/files_on_hold", nil)))
}
