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

func holdPolicy(name string) map[string]any {
	return map[string]any{"policy_name": name, "is_ongoing": true}
}

func TestLegalHoldPolicyCreateRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Taken"))
	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"no name", `{"is_ongoing":true}`, 400, "bad_request"},
		{"empty name", holdPolicy(" "), 400, "bad_request"},
		{"name too long", holdPolicy(strings.Repeat("n", 255)), 400, "bad_request"},
		{"description too long", map[string]any{"policy_name": "a", "is_ongoing": true, "description": strings.Repeat("d", 501)}, 400, "bad_request"},
		{"neither ongoing nor dates", `{"policy_name":"a"}`, 400, "bad_request"},
		{"not ongoing, no dates", `{"policy_name":"a","is_ongoing":false}`, 400, "bad_request"},
		{"start only", `{"policy_name":"a","filter_started_at":"2025-01-01T00:00:00Z"}`, 400, "bad_request"},
		{"start after end", `{"policy_name":"a","filter_started_at":"2025-02-01T00:00:00Z","filter_ended_at":"2025-01-01T00:00:00Z"}`, 400, "bad_request"},
		{"bad date", `{"policy_name":"a","filter_started_at":"yesterday","filter_ended_at":"2025-01-01T00:00:00Z"}`, 400, "bad_request"},
		{"release notes on create", `{"policy_name":"a","is_ongoing":true,"release_notes":"x"}`, 400, "bad_request"},
		{"unknown field", `{"policy_name":"a","is_ongoing":true,"x":1}`, 400, "bad_request"},
		{"name taken, other case", holdPolicy("taken"), 409, "conflict"},
	}
	before := govSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.admin("POST", "/legal_hold_policies", c.body)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, govSnapshot(e.s), "rejected requests changed state")

	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", map[string]any{
		"policy_name": strings.Repeat("n", 254), "description": "Case 42",
		"filter_started_at": "2025-01-01T00:00:00-08:00", "filter_ended_at": "2025-02-01T00:00:00Z",
	})
	assert.Equal(t, "legal_hold_policy", hp["type"])
	assert.Equal(t, "applying", hp["status"])
	assert.Equal(t, "Case 42", hp["description"])
	assert.Equal(t, "2025-01-01T08:00:00Z", hp["filter_started_at"])
	assert.Equal(t, "2025-02-01T00:00:00Z", hp["filter_ended_at"])
	assert.Nil(t, hp["deleted_at"])
	assert.Equal(t, "", hp["release_notes"])
	assert.Equal(t, e.s.AdminUserID(), str(hp, "created_by", "id"))
	assert.Equal(t, map[string]any{"user": 0.0, "folder": 0.0, "file": 0.0, "file_version": 0.0, "ownership": 0.0, "interactions": 0.0}, hp["assignment_counts"])
}

func TestLegalHoldPolicyLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{LegalHoldReleaseDelay: 10 * time.Second})
	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Case"))
	id := hp["id"].(string)
	status := func() string { return e.mustAdmin(200, "GET", "/legal_hold_policies/"+id, nil)["status"].(string) }
	assert.Equal(t, "applying", status())
	e.clock.Advance(9 * time.Second)
	assert.Equal(t, "applying", status())
	e.clock.Advance(time.Second)
	assert.Equal(t, "active", status())

	resp, body := e.do("DELETE", e.api("/legal_hold_policies/"+id), e.s.AdminToken(), nil, nil)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Empty(t, body)
	got := e.mustAdmin(200, "GET", "/legal_hold_policies/"+id, nil)
	assert.Equal(t, "releasing", got["status"])
	assert.Equal(t, "2025-03-01T12:00:10Z", got["deleted_at"])
	e.clock.Advance(5 * time.Second)
	resp, _ = e.do("DELETE", e.api("/legal_hold_policies/"+id), e.s.AdminToken(), nil, nil)
	require.Equal(t, http.StatusAccepted, resp.StatusCode, "asking again is accepted")
	e.clock.Advance(5 * time.Second)
	assert.Equal(t, "released", status())
	assert.Equal(t, "2025-03-01T12:00:10Z", e.mustAdmin(200, "GET", "/legal_hold_policies/"+id, nil)["deleted_at"])

	// A released policy frees its name and takes no new assignment.
	e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("case"))
	f := e.uploadFile(e.s.AdminToken(), "0", "f.txt", []byte("f"))
	before := govSnapshot(e.s)
	resp2, m := e.admin("POST", "/legal_hold_policy_assignments", assignTo(id, "file", f["id"]))
	requireAPIError(t, resp2, m, 400, "bad_request")
	resp2, m = e.admin("DELETE", "/legal_hold_policies/999", nil)
	requireAPIError(t, resp2, m, 404, "not_found")
	assert.Equal(t, before, govSnapshot(e.s))
}

func TestLegalHoldPolicyUpdateAndList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	var all []string
	for i := range 5 {
		all = append(all, e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy(fmt.Sprintf("Case %d", i)))["id"].(string))
	}
	other := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Audit"))["id"].(string)
	assert.Equal(t, append(append([]string{}, all...), other), e.collectMarker("/legal_hold_policies", 2, 3))
	assert.Equal(t, all, e.collectMarker("/legal_hold_policies?policy_name=case", 2, 3), "case-insensitive prefix")
	got := e.mustAdmin(200, "GET", "/legal_hold_policies?policy_name=aud&fields=status", nil)["entries"].([]any)
	require.Len(t, got, 1)
	assert.Equal(t, map[string]any{"type": "legal_hold_policy", "id": other, "status": "applying"}, got[0])

	cases := []struct {
		name, id string
		body     any
		status   int
		code     string
	}{
		{"name taken", other, map[string]any{"policy_name": "CASE 1"}, 409, "conflict"},
		{"empty name", other, map[string]any{"policy_name": ""}, 400, "bad_request"},
		{"notes too long", other, map[string]any{"release_notes": strings.Repeat("r", 501)}, 400, "bad_request"},
		{"filter dates", other, map[string]any{"filter_started_at": "2025-01-01T00:00:00Z"}, 400, "bad_request"},
		{"is_ongoing", other, map[string]any{"is_ongoing": false}, 400, "bad_request"},
		{"unknown", "999", map[string]any{"description": "x"}, 404, "not_found"},
	}
	before := govSnapshot(e.s)
	for _, c := range cases {
		resp, m := e.admin("PUT", "/legal_hold_policies/"+c.id, c.body)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	assert.Equal(t, before, govSnapshot(e.s))
	e.clock.Advance(time.Minute)
	up := e.mustAdmin(200, "PUT", "/legal_hold_policies/"+other, map[string]any{"policy_name": "Audit 2026", "description": "d", "release_notes": "done"})
	assert.Equal(t, "Audit 2026", up["policy_name"])
	assert.Equal(t, "d", up["description"])
	assert.Equal(t, "done", up["release_notes"])
	assert.Equal(t, "2025-03-01T12:01:00Z", up["modified_at"])
	assert.Equal(t, "active", up["status"])
}

func TestLegalHoldAssignmentRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{LegalHoldReleaseDelay: 10 * time.Second})
	tok := e.s.UserToken()
	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Case"))["id"].(string)
	folder := e.createFolder(tok, "0", "F")["id"].(string)
	f := e.uploadFile(tok, folder, "a.txt", []byte("a"))
	fid, vid := f["id"].(string), str(f, "file_version", "id")
	targets := []struct{ typ, id string }{
		{"file", fid}, {"file_version", vid}, {"folder", folder},
		{"user", e.s.UserID()}, {"ownership", e.s.UserID()}, {"interactions", e.s.AdminUserID()},
	}
	var made []string
	for _, tg := range targets {
		a := e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", assignTo(hp, tg.typ, tg.id))
		assert.Equal(t, "legal_hold_policy_assignment", a["type"])
		assert.Equal(t, map[string]any{"type": tg.typ, "id": tg.id}, a["assigned_to"])
		assert.Equal(t, hp, str(a, "legal_hold_policy", "id"))
		assert.Equal(t, e.s.AdminUserID(), str(a, "assigned_by", "id"))
		assert.Nil(t, a["deleted_at"])
		made = append(made, a["id"].(string))
	}
	counts := e.mustAdmin(200, "GET", "/legal_hold_policies/"+hp, nil)["assignment_counts"]
	assert.Equal(t, map[string]any{"user": 1.0, "folder": 1.0, "file": 1.0, "file_version": 1.0, "ownership": 1.0, "interactions": 1.0}, counts)

	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"no policy", `{"assign_to":{"type":"file","id":"1"}}`, 400, "bad_request"},
		{"no assign_to", map[string]any{"policy_id": hp}, 400, "bad_request"},
		{"no id", assignTo(hp, "file", nil), 400, "bad_request"},
		{"bad type", assignTo(hp, "enterprise", "1"), 400, "bad_request"},
		{"singular interaction", assignTo(hp, "interaction", e.s.UserID()), 400, "bad_request"},
		{"unknown field", `{"policy_id":"1","assign_to":{"type":"file","id":"1"},"x":1}`, 400, "bad_request"},
		{"unknown policy", assignTo("999", "file", fid), 404, "not_found"},
		{"unknown file", assignTo(hp, "file", "999"), 404, "not_found"},
		{"folder as file", assignTo(hp, "file", folder), 404, "not_found"},
		{"unknown version", assignTo(hp, "file_version", "999"), 404, "not_found"},
		{"unknown folder", assignTo(hp, "folder", "999"), 404, "not_found"},
		{"root folder", assignTo(hp, "folder", "0"), 404, "not_found"},
		{"unknown user", assignTo(hp, "user", "999"), 404, "not_found"},
		{"already assigned", assignTo(hp, "file", fid), 409, "conflict"},
	}
	before := govSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.admin("POST", "/legal_hold_policy_assignments", c.body)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, govSnapshot(e.s), "rejected requests changed state")

	// List (pages, filters), get, delete (202, listed with deleted_at until gone).
	assert.Equal(t, made, e.collectMarker("/legal_hold_policy_assignments?policy_id="+hp, 4, 2))
	assert.Equal(t, made[1:2], ids(e.mustAdmin(200, "GET", "/legal_hold_policy_assignments?policy_id="+hp+"&assign_to_type=file_version", nil)))
	assert.Equal(t, []string{made[3], made[4]}, ids(e.mustAdmin(200, "GET", "/legal_hold_policy_assignments?policy_id="+hp+"&assign_to_id="+e.s.UserID(), nil)))
	for _, c := range []struct {
		q      string
		status int
		code   string
	}{{"", 400, "bad_request"}, {"?policy_id=" + hp + "&assign_to_type=group", 400, "bad_request"}, {"?policy_id=999", 404, "not_found"}} {
		resp, m := e.admin("GET", "/legal_hold_policy_assignments"+c.q, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	got := e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+made[0], nil)
	assert.Equal(t, fid, str(got, "assigned_to", "id"))
	resp, body := e.do("DELETE", e.api("/legal_hold_policy_assignments/"+made[0]), e.s.AdminToken(), nil, nil)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Empty(t, body)
	got = e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+made[0], nil)
	assert.Equal(t, "2025-03-01T12:00:00Z", got["deleted_at"])
	e.clock.Advance(10 * time.Second)
	resp, m := e.admin("GET", "/legal_hold_policy_assignments/"+made[0], nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.admin("DELETE", "/legal_hold_policy_assignments/"+made[0], nil)
	requireAPIError(t, resp, m, 404, "not_found")
	assert.Len(t, e.mustAdmin(200, "GET", "/legal_hold_policy_assignments?policy_id="+hp, nil)["entries"], 5)
	assert.EqualValues(t, 0, e.mustAdmin(200, "GET", "/legal_hold_policies/"+hp, nil)["assignment_counts"].(map[string]any)["file"])
	e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", assignTo(hp, "file", fid)) // assignable again
}

func TestLegalHoldEffectOnFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{LegalHoldReleaseDelay: 10 * time.Second})
	tok := e.s.UserToken()
	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Case"))["id"].(string)
	folder := e.createFolder(tok, "0", "F")["id"].(string)
	held := e.uploadFile(tok, folder, "held.txt", []byte("v1"))
	free := e.uploadFile(tok, folder, "free.txt", []byte("free"))
	a := e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", assignTo(hp, "file", held["id"]))["id"].(string)

	// A new version is held too (ongoing policy), and the old one stays held.
	e.clock.Advance(time.Second)
	v2 := e.newVersion(tok, held["id"].(string), []byte("v2"))
	e.clock.Advance(time.Second)
	v3 := e.newVersion(tok, held["id"].(string), []byte("v3"))
	list := e.mustAdmin(200, "GET", "/file_version_legal_holds?policy_id="+hp, nil)["entries"].([]any)
	require.Len(t, list, 3)
	rec := list[0].(map[string]any)
	assert.Equal(t, "file_version_legal_hold", rec["type"])
	assert.Equal(t, str(held, "file_version", "id"), str(rec, "file_version", "id"))
	assert.Equal(t, held["id"], str(rec, "file", "id"))
	assert.Nil(t, rec["deleted_at"])
	assigns := rec["legal_hold_policy_assignments"].([]any)
	require.Len(t, assigns, 1)
	assert.Equal(t, a, assigns[0].(map[string]any)["id"])
	assert.Equal(t, rec, e.mustAdmin(200, "GET", "/file_version_legal_holds/"+rec["id"].(string), nil))
	assert.Equal(t, []string{held["id"].(string)}, ids(e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+a+"/files_on_hold", nil)))
	old := e.collectMarker("/legal_hold_policy_assignments/"+a+"/file_versions_on_hold", 1, 2)
	assert.Equal(t, []string{str(held, "file_version", "id"), str(v2, "file_version", "id")}, old)
	fv := e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+a+"/file_versions_on_hold", nil)["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "file_version", fv["type"])
	assert.Equal(t, "1", fv["version_number"])
	assert.Equal(t, str(v3, "file_version", "id"), str(list[2].(map[string]any), "file_version", "id"))
	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/file_version_legal_holds", 400, "bad_request"},
		{"/file_version_legal_holds?policy_id=999", 404, "not_found"},
		{"/file_version_legal_holds/999", 404, "not_found"},
		{"/legal_hold_policy_assignments/999/files_on_hold", 404, "not_found"},
		{"/legal_hold_policy_assignments/999/file_versions_on_hold", 404, "not_found"},
		{"/file_version_legal_holds?policy_id=" + hp + "&marker=bogus", 400, "bad_request"},
	} {
		resp, m := e.admin("GET", c.path, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}

	// A held file, or a folder holding one, goes to the trash but cannot be
	// purged from it.
	resp, _ := e.purge(tok, "/files/"+free["id"].(string))
	assert.Equal(t, 204, resp.StatusCode)
	paths := []string{"/files/" + held["id"].(string), "/folders/" + folder + "?recursive=true"}
	e.trash(tok, paths[1]) // the held file goes with its folder
	before := govSnapshot(e.s)
	for _, path := range paths[1:] {
		resp, m := e.purge(tok, path)
		requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions")
		assert.NotNil(t, m["context_info"].(map[string]any)["file_version_legal_hold"])
	}
	assert.Equal(t, before, govSnapshot(e.s))

	// Releasing the policy lifts the holds once it is released.
	resp, _ = e.do("DELETE", e.api("/legal_hold_policies/"+hp), e.s.AdminToken(), nil, nil)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	resp, m := e.purge(tok, paths[1])
	requireAPIError(t, resp, m, 403, "access_denied_insufficient_permissions") // releasing
	e.clock.Advance(10 * time.Second)
	assert.Empty(t, e.mustAdmin(200, "GET", "/file_version_legal_holds?policy_id="+hp, nil)["entries"])
	resp, m = e.admin("GET", "/file_version_legal_holds/"+rec["id"].(string), nil)
	requireAPIError(t, resp, m, 404, "not_found")
	assert.Empty(t, e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+a+"/files_on_hold", nil)["entries"])
	resp, _ = e.purge(tok, "/folders/"+folder+"?recursive=true")
	assert.Equal(t, 204, resp.StatusCode)
}

func TestLegalHoldCoverage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	adm, tok := e.s.AdminToken(), e.s.UserToken()
	notOngoing := e.mustAdmin(201, "POST", "/legal_hold_policies", map[string]any{
		"policy_name": "Window", "filter_started_at": "2025-03-01T00:00:00Z", "filter_ended_at": "2025-03-01T23:59:59Z",
	})["id"].(string)
	ongoing := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Ongoing"))["id"].(string)
	folder := e.createFolder(tok, "0", "F")["id"].(string)
	sub := e.createFolder(tok, folder, "S")["id"].(string)
	inSub := e.uploadFile(tok, sub, "in.txt", []byte("1"))
	byAdmin := e.uploadFile(adm, "0", "admin.txt", []byte("2"))
	held := func(policy string) []string {
		var out []string
		for _, x := range e.mustAdmin(200, "GET", "/file_version_legal_holds?policy_id="+policy, nil)["entries"].([]any) {
			out = append(out, str(x.(map[string]any), "file", "name"))
		}
		return out
	}
	// A folder assignment holds what is below it; a custodian (ownership) assignment what the user owns
	// inside the policy's date window; a policy that is not ongoing holds no later versions.
	e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", assignTo(notOngoing, "folder", folder))
	e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", assignTo(ongoing, "ownership", e.s.AdminUserID()))
	assert.Equal(t, []string{"in.txt"}, held(notOngoing))
	assert.Equal(t, []string{"admin.txt"}, held(ongoing))
	e.clock.Advance(24 * time.Hour)
	e.newVersion(tok, inSub["id"].(string), []byte("later"))
	e.uploadFile(tok, sub, "later.txt", []byte("3"))
	e.uploadFile(adm, "0", "admin2.txt", []byte("4"))
	assert.Equal(t, []string{"in.txt"}, held(notOngoing), "not ongoing: nothing new")
	assert.Equal(t, []string{"admin.txt", "admin2.txt"}, held(ongoing))
	_ = byAdmin

	// Custodian filter dates: versions outside the window are not held.
	late := e.mustAdmin(201, "POST", "/legal_hold_policy_assignments", assignTo(notOngoing, "interactions", e.s.UserID()))["id"].(string)
	onHold := ids(e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+late+"/files_on_hold", nil))
	assert.Empty(t, onHold, "current versions are outside the window")
	versions := ids(e.mustAdmin(200, "GET", "/legal_hold_policy_assignments/"+late+"/file_versions_on_hold", nil))
	assert.Equal(t, []string{str(inSub, "file_version", "id")}, versions)
}
