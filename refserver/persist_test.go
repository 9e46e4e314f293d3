package refserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/oauth"
	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// lockedDump is the live dump of s, taken under its locks.
func lockedDump(s *Server) map[string]map[string]string {
	s.oauth.Lock()
	defer s.oauth.Unlock()
	var dump map[string]map[string]string
	s.st.View(func(tx *state.ReadTx) { dump = s.db.DumpLive(tx) })
	return dump
}

// storedDump is the dump of s's database.
func storedDump(t *testing.T, s *Server) map[string]map[string]string {
	t.Helper()
	dump, err := s.db.Stored()
	require.NoError(t, err)
	return dump
}

// scenario drives a server through every kind of state.
type scenario struct {
	t    *testing.T
	e    *env
	gets [][3]string // token, method, path: answers that must survive a restart
}

func (c *scenario) call(status int, method, path, tok string, body any) map[string]any {
	c.t.Helper()
	resp, m := c.e.doJSON(method, c.e.api(path), tok, body, nil)
	require.Equal(c.t, status, resp.StatusCode, "%s %s: %v", method, path, m)
	return m
}

func (c *scenario) get(tok string, paths ...string) {
	for _, p := range paths {
		c.gets = append(c.gets, [3]string{tok, "GET", p})
	}
}

func (c *scenario) form(path string, v url.Values) map[string]any {
	c.t.Helper()
	resp, m := c.e.form(path, v)
	require.Equal(c.t, 200, resp.StatusCode, "%s: %v", path, m)
	return m
}

// run touches every kind of record through the wire, and through the Go
// API where the service has no call.
func (c *scenario) run() {
	t, e := c.t, c.e
	A, U := e.s.AdminToken(), e.s.UserToken()

	// Folders, files, versions, web links, the trash, a hidden item.
	docs := e.createFolder(A, "0", "Docs")["id"].(string)
	mine := e.createFolder(U, "0", "Mine")["id"].(string)
	a := e.uploadFile(U, mine, "a.txt", []byte("first"))["id"].(string)
	resp, m := e.uploadRaw(U, e.upload("/files/"+a+"/content"), `{"name":"a2.txt"}`, []byte("second"), nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	wl := e.createWebLink(A, docs, "https://example.com/x", "Example")["id"].(string)
	c.call(200, "PUT", "/web_links/"+wl, A, map[string]any{"shared_link": map[string]any{"access": "open"}, "description": "d"})
	old := e.createFolder(A, "0", "Old")["id"].(string)
	e.uploadFile(A, old, "inside.txt", []byte("in"))
	c.call(204, "DELETE", "/folders/"+old+"?recursive=true", A, nil)
	gone := e.uploadFile(A, docs, "gone.txt", []byte("gone"))["id"].(string)
	c.call(204, "DELETE", "/files/"+gone, A, nil)
	c.call(204, "DELETE", "/files/"+gone+"/trash", A, nil)
	hidden := e.uploadFile(U, mine, "hidden.txt", []byte("h"))["id"].(string)
	require.NoError(t, e.s.HideFromUsers(hidden))
	for _, tok := range []string{A, U} {
		c.get(tok, "/folders/0", "/folders/0/items", "/folders/trash/items",
			"/folders/"+mine+"/items?fields=name,size,modified_at,watermark_info,sha1")
	}
	c.get(A, "/folders/"+docs, "/web_links/"+wl, "/folders/"+old+"/trash", "/files/"+hidden)
	c.get(U, "/files/"+a, "/files/"+a+"/content", "/files/"+a+"?fields=version_number,uploader_display_name")

	// A collaboration: the user views the admin's Docs.
	collab := c.call(201, "POST", "/collaborations", A, map[string]any{"item": map[string]any{"type": "folder", "id": docs},
		"accessible_by": map[string]any{"type": "user", "id": e.s.UserID()}, "role": "viewer"})
	c.get(U, "/collaborations/"+collab["id"].(string), "/folders/"+docs+"/collaborations", "/folders/"+docs)
	comment := c.call(201, "POST", "/comments", U, map[string]any{"message": "noted", "item": map[string]any{"type": "file", "id": a}})
	c.get(U, "/comments/"+comment["id"].(string), "/files/"+a+"/comments")

	// A webhook (the address takes nothing: deliveries fail and are dropped
	// with the server).
	hook := c.call(201, "POST", "/webhooks", U, map[string]any{"target": map[string]any{"id": mine, "type": "folder"},
		"address": "https://example.invalid/hook", "triggers": []string{"FOLDER.RENAMED"}})
	c.get(U, "/webhooks/"+hook["id"].(string), "/webhooks")

	// Upload sessions: one open with a part, one committed, one aborted.
	open := c.session(mine, "big.bin", []byte("0123456789"), false)
	c.session(mine, "done.bin", []byte("abcdefghij"), true)
	aborted := c.session(mine, "aborted.bin", []byte("9876543210"), false)
	resp, _ = e.do("DELETE", e.upload("/files/upload_sessions/"+aborted), U, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	c.gets = append(c.gets, [3]string{U, "UPLOAD", "/files/upload_sessions/" + open}, [3]string{U, "UPLOAD", "/files/upload_sessions/" + open + "/parts"})

	// Metadata: a template, an instance changed after its creation, a query.
	md := &mdEnv{env: e, admin: A, user: U}
	tmpl := md.createTemplate("contract", contractFields())
	c.call(201, "POST", "/files/"+a+"/metadata/enterprise/contract", U, map[string]any{"customer": "Acme", "amount": 12.5, "status": "draft", "regions": []any{"emea"}})
	resp, m = md.patch(e.api("/files/"+a+"/metadata/enterprise/contract"), U, []any{map[string]any{"op": "replace", "path": "/status", "value": "active"}})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	c.call(201, "POST", "/folders/"+mine+"/metadata/global/properties", U, map[string]any{"k": "v"})
	c.get(U, "/files/"+a+"/metadata", "/folders/"+mine+"/metadata", "/files/"+a+"?fields=metadata.enterprise.contract")
	c.get(A, "/metadata_templates/enterprise", "/metadata_templates/global", "/metadata_templates/"+tmpl["id"].(string))
	c.gets = append(c.gets, [3]string{U, "QUERY", fmt.Sprintf(`{"from":"enterprise_1000001.contract","ancestor_folder_id":%q,"query":"amount > :n","query_params":{"n":1},"order_by":[{"field_key":"amount","direction":"asc"}]}`, mine)})

	// Users (one deleted while a token of theirs is kept), groups,
	// memberships, device pins.
	nomad := e.newUser("Nomad", "nomad@cms.test")
	leaver := e.newUser("Leaver", "leaver@cms.test")
	c.call(200, "PUT", "/users/"+nomad, A, map[string]any{"job_title": "Wanderer", "tracking_codes": []any{map[string]any{"name": "dept", "value": "7"}}})
	task := e.createTask(A, a, map[string]any{"action": "review", "message": "check"})["id"].(string)
	asg := e.assign(A, task, map[string]any{"id": e.s.UserID()})["id"].(string)
	resp, m = e.resolve(U, asg, "approved")
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	group := c.call(201, "POST", "/groups", A, map[string]any{"name": "Sales", "description": "s"})["id"].(string)
	c.call(201, "POST", "/group_memberships", A, map[string]any{"user": map[string]any{"id": nomad}, "group": map[string]any{"id": group},
		"role": "admin", "configurable_permissions": map[string]any{"can_run_reports": false}})
	require.NoError(t, e.s.AddDevicePins(3))
	pins := c.call(200, "GET", "/enterprises/"+e.s.EnterpriseID()+"/device_pinners", A, nil)["entries"].([]any)
	c.call(204, "DELETE", "/device_pinners/"+pins[0].(map[string]any)["id"].(string), A, nil)
	c.get(A, "/users", "/users/"+nomad, "/groups", "/groups/"+group+"/memberships", "/users/"+nomad+"/memberships",
		"/enterprises/"+e.s.EnterpriseID()+"/device_pinners", "/tasks/"+task, "/files/"+a+"/tasks", "/tasks/"+task+"/assignments")
	c.get(U, "/users/me")

	// Watermarks.
	c.call(201, "PUT", "/files/"+a+"/watermark", U, map[string]any{"watermark": map[string]any{"imprint": "default"}})
	c.call(201, "PUT", "/folders/"+mine+"/watermark", U, map[string]any{"watermark": map[string]any{"imprint": "default"}})
	c.call(204, "DELETE", "/folders/"+mine+"/watermark", U, nil)
	c.get(U, "/files/"+a+"/watermark")

	// Folder locks, favorites, a zip download sent, recent items.
	c.call(200, "POST", "/folder_locks", U, map[string]any{"folder": map[string]any{"type": "folder", "id": mine}})
	c.get(U, "/folder_locks?folder_id="+mine)
	favs := c.call(200, "GET", "/collections", U, nil)["entries"].([]any)[0].(map[string]any)["id"].(string)
	c.call(200, "PUT", "/files/"+a, U, map[string]any{"collections": []any{map[string]any{"id": favs}}})
	c.get(U, "/collections", "/collections/"+favs+"/items", "/files/"+a+"?fields=collections", "/recent_items?limit=2")
	zipped := c.call(202, "POST", "/zip_downloads", U, map[string]any{"items": []any{map[string]any{"type": "folder", "id": mine}}})
	zresp, err := e.hc.Get(zipped["download_url"].(string))
	require.NoError(t, err)
	_, err = io.Copy(io.Discard, zresp.Body)
	require.NoError(t, err)
	zresp.Body.Close()
	require.Equal(t, 200, zresp.StatusCode)
	c.get(U, strings.TrimPrefix(zipped["status_url"].(string), e.api("")))

	// Retention on a folder, with a file under it.
	rp := c.call(201, "POST", "/retention_policies", A, finitePolicy("Keep", 10))["id"].(string)
	ra := c.call(201, "POST", "/retention_policy_assignments", A, assignTo(rp, "folder", docs))["id"].(string)
	e.uploadFile(A, docs, "kept.txt", []byte("kept"))
	c.get(A, "/retention_policies", "/retention_policies/"+rp, "/retention_policies/"+rp+"/assignments",
		"/retention_policy_assignments/"+ra+"/files_under_retention", "/file_version_retentions")

	// A legal hold on a file, released, and the file purged: the hold's
	// record keeps a copy of it.
	held := e.uploadFile(U, mine, "held.txt", []byte("held"))["id"].(string)
	hp := c.call(201, "POST", "/legal_hold_policies", A, holdPolicy("Case"))["id"].(string)
	c.call(201, "POST", "/legal_hold_policy_assignments", A, assignTo(hp, "file", held))
	hp2 := c.call(201, "POST", "/legal_hold_policies", A, holdPolicy("Open case"))["id"].(string)
	c.call(201, "POST", "/legal_hold_policy_assignments", A, assignTo(hp2, "file", a))
	c.call(202, "DELETE", "/legal_hold_policies/"+hp, A, nil)
	c.call(204, "DELETE", "/files/"+held, A, nil)
	c.call(204, "DELETE", "/files/"+held+"/trash", A, nil)
	c.get(A, "/legal_hold_policies", "/legal_hold_policy_assignments?policy_id="+hp, "/file_version_legal_holds?policy_id="+hp2)

	// OAuth: an app with a key, the code flow (a used and an unused code,
	// a rotated refresh token), client credentials, JWT, a downscoped token.
	key := testRSAKey(t)
	_, app, err := e.s.NewAppConfig(key, "", testRedirect)
	require.NoError(t, err)
	code := func() string {
		q := url.Values{"response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {testRedirect}, "state": {"s"}}
		resp, err := e.hc.Get(e.s.AuthorizeURL() + "?" + q.Encode())
		require.NoError(t, err)
		resp.Body.Close()
		loc, err := url.Parse(resp.Header.Get("Location"))
		require.NoError(t, err)
		return loc.Query().Get("code")
	}
	cred := url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret}}
	with := func(v url.Values) url.Values {
		for k, x := range cred {
			v[k] = x
		}
		return v
	}
	tok := c.form("/oauth2/token", with(url.Values{"grant_type": {"authorization_code"}, "code": {code()}, "redirect_uri": {testRedirect}}))
	tok = c.form("/oauth2/token", with(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}}))
	code()
	ccg := c.form("/oauth2/token", with(url.Values{"grant_type": {"client_credentials"}, "box_subject_type": {"enterprise"}, "box_subject_id": {e.s.EnterpriseID()}}))
	assertion := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": app.ClientID, "aud": e.s.TokenURL(), "sub": e.s.UserID(), "box_sub_type": "user",
		"exp": e.clock.Now().Add(30 * time.Second).Unix(), "jti": "jti-0123456789abcdef-persist",
	})
	signed, err := assertion.SignedString(key)
	require.NoError(t, err)
	viaJWT := c.form("/oauth2/token", with(url.Values{"grant_type": {oauth.GrantJWTBearer}, "assertion": {signed}}))
	down := c.form("/oauth2/token", url.Values{"grant_type": {oauth.GrantTokenExchange}, "subject_token": {tok["access_token"].(string)},
		"subject_token_type": {oauth.TokenTypeAccessToken}, "scope": {"item_preview"}, "resource": {e.api("/files/" + a)}})
	leaverTok := c.form("/oauth2/token", with(url.Values{"grant_type": {"client_credentials"}, "box_subject_type": {"user"}, "box_subject_id": {leaver}}))
	c.call(204, "DELETE", "/users/"+leaver, A, nil)
	for _, x := range []map[string]any{tok, ccg, viaJWT, leaverTok} {
		c.get(x["access_token"].(string), "/users/me")
	}
	c.get(down["access_token"].(string), "/files/"+a)
	c.families(mine)
}

// families adds the records of issue 34's families: an email alias, an
// invite of an external user (Options.ExternalUsers), a file request.
func (c *scenario) families(folder string) {
	A := c.e.s.AdminToken()
	alias := c.call(201, "POST", "/users/"+c.e.s.UserID()+"/email_aliases", A, map[string]any{"email": "alias@cms.test"})
	c.call(204, "DELETE", "/users/"+c.e.s.UserID()+"/email_aliases/"+alias["id"].(string), A, nil)
	c.call(201, "POST", "/users/"+c.e.s.UserID()+"/email_aliases", A, map[string]any{"email": "kept@cms.test"})
	c.get(A, "/users/"+c.e.s.UserID()+"/email_aliases")
	in := c.call(200, "POST", "/invites", A, map[string]any{"enterprise": map[string]any{"id": c.e.s.EnterpriseID()},
		"actionable_by": map[string]any{"login": "guest@partner.test"}})
	c.get(A, "/invites/"+in["id"].(string))
	fr, err := c.e.s.AddFileRequest(folder)
	require.NoError(c.t, err)
	c.call(200, "PUT", "/file_requests/"+fr, A, map[string]any{"description": "receipts", "status": "inactive"})
	c.get(A, "/file_requests/"+fr)
	// The classification template: labels keep their staticConfig.
	c.call(201, "POST", "/metadata_templates/schema", A, map[string]any{"scope": "enterprise", "templateKey": "securityClassification-6VMVochwUWo",
		"displayName": "Classification", "fields": []any{map[string]any{"type": "enum", "key": "Box__Security__Classification__Key",
			"displayName": "Classification", "options": []any{map[string]any{"key": "Secret",
				"staticConfig": map[string]any{"classification": map[string]any{"classificationDefinition": "Few", "colorID": 3}}}}}}})
	c.get(A, "/metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema")
	// A cascade policy, applied.
	c.call(201, "POST", "/metadata_templates/schema", A, map[string]any{"scope": "enterprise", "templateKey": "cascaded", "displayName": "Cascaded",
		"fields": []any{map[string]any{"type": "string", "key": "k", "displayName": "K"}}})
	c.call(201, "POST", "/folders/"+folder+"/metadata/enterprise/cascaded", A, map[string]any{"k": "v"})
	pol := c.call(201, "POST", "/metadata_cascade_policies", A, map[string]any{"folder_id": folder, "scope": "enterprise", "templateKey": "cascaded"})
	c.call(202, "POST", "/metadata_cascade_policies/"+pol["id"].(string)+"/apply", A, map[string]any{"conflict_resolution": "overwrite"})
	c.get(A, "/metadata_cascade_policies/"+pol["id"].(string), "/metadata_cascade_policies?folder_id="+folder)
	// An avatar (its image is a blob of the store).
	body, ct := avatarBody(c.t, "me.png", 8, 8)
	resp, m := c.e.do("POST", c.e.api("/users/"+c.e.s.UserID()+"/avatar"), A, body, hdr{"Content-Type": ct})
	require.Equal(c.t, 201, resp.StatusCode, "%s", m)
	c.get(A, "/users/"+c.e.s.UserID()+"/avatar")
}

// session creates an upload session for data (parts of 4 bytes) with its
// first part uploaded, all parts and a commit when commit is set.
func (c *scenario) session(folder, name string, data []byte, commit bool) string {
	t, e := c.t, c.e
	resp, m := e.doJSON("POST", e.upload("/files/upload_sessions"), e.s.UserToken(),
		map[string]any{"folder_id": folder, "file_size": len(data), "file_name": name}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	id := m["id"].(string)
	var parts []any
	for off := 0; off < len(data); off += 4 {
		end := min(off+4, len(data))
		resp, m := e.doJSON("PUT", e.upload("/files/upload_sessions/"+id), e.s.UserToken(), string(data[off:end]), hdr{
			"Content-Type": "application/octet-stream", "Digest": digestOf(data[off:end]),
			"Content-Range": fmt.Sprintf("bytes %d-%d/%d", off, end-1, len(data)),
		})
		require.Equal(t, 200, resp.StatusCode, "%v", m)
		parts = append(parts, m["part"])
		if !commit {
			break
		}
	}
	if commit {
		resp, m := e.doJSON("POST", e.upload("/files/upload_sessions/"+id+"/commit"), e.s.UserToken(),
			map[string]any{"parts": parts}, hdr{"Digest": digestOf(data)})
		require.Equal(t, 201, resp.StatusCode, "%v", m)
	}
	return id
}

var requestIDField = regexp.MustCompile(`"request_id":"[0-9a-f]*"`)

// answers reads the scenario's GETs from e, with e's own origins replaced
// so that two servers on other ports compare equal.
func (c *scenario) answers(e *env) []string {
	var out []string
	for _, g := range c.gets {
		var resp *http.Response
		var body []byte
		switch g[1] {
		case "GET":
			resp, body = e.do("GET", e.api(g[2]), g[0], nil, nil)
		case "UPLOAD":
			resp, body = e.do("GET", e.upload(g[2]), g[0], nil, nil)
		case "QUERY":
			resp, body = e.do("POST", e.api("/metadata_queries/execute_read"), g[0], strings.NewReader(g[2]), hdr{"Content-Type": "application/json"})
		}
		norm := strings.NewReplacer(e.s.st.APIOrigin(), "API", strings.TrimSuffix(e.s.UploadURL(), state.UploadRoot), "UPLOAD", e.s.DownloadURL(), "DL")
		text := requestIDField.ReplaceAllString(norm.Replace(string(body)), "")
		out = append(out, fmt.Sprintf("%s %s -> %d %s %s", g[1], g[2], resp.StatusCode, norm.Replace(resp.Header.Get("Location")), text))
	}
	return out
}

// TestPersistRestartKeepsEverything is the safety net of persistence: a
// scenario that makes a record of every kind, then a second server on the
// same directory must hold the same records and give the same answers.
func TestPersistRestartKeepsEverything(t *testing.T) {
	dir := t.TempDir()
	opts := Options{DataDir: dir, LegalHoldReleaseDelay: -1, ExternalUsers: []string{"guest@partner.test"}}
	e := newEnv(t, opts)
	require.False(t, e.s.Restored())
	c := &scenario{t: t, e: e}
	c.run()

	want := c.answers(e) // first: a download through the API is an event
	before := lockedDump(e.s)
	for _, k := range e.s.recordKinds() {
		assert.NotEmpty(t, before[k.Bucket], "the scenario makes no %s record", k.Bucket)
	}
	assert.Contains(t, strings.Join(mapValues(before["file_version_legal_holds"]), ""), `"Purged":{`, "a hold keeps its purged file")
	assert.Equal(t, before, storedDump(t, e.s), "the database holds the live state")
	for _, a := range want {
		if !strings.Contains(a, "user of this token was deleted") {
			assert.Regexp(t, ` -> [23]\d\d `, a)
		}
	}
	tokens := [3]string{e.s.AdminToken(), e.s.UserToken(), e.s.AppToken()}
	require.NoError(t, e.s.Close())

	e2 := newEnv(t, opts)
	require.True(t, e2.s.Restored())
	assert.Equal(t, tokens, [3]string{e2.s.AdminToken(), e2.s.UserToken(), e2.s.AppToken()}, "random tokens are kept")
	assert.Equal(t, before, lockedDump(e2.s), "the restored state")
	assert.Equal(t, before, storedDump(t, e2.s))
	got := c.answers(e2)
	for i := range want {
		assert.Equal(t, want[i], got[i])
	}

	// The restored server goes on: new ids follow the old ones, the
	// restored indexes take new content.
	f := e2.uploadFile(e2.s.UserToken(), "0", "after.txt", []byte("after"))
	var meta persist.RecMeta
	require.NoError(t, json.Unmarshal([]byte(before["meta"][state.MetaKey]), &meta))
	assert.Greater(t, state.NumID(f["id"].(string)), meta.NextID)
	resp, m := e2.doJSON("POST", e2.api("/folders"), e2.s.AdminToken(), map[string]any{"name": "DOCS", "parent": map[string]any{"id": "0"}}, nil)
	requireAPIError(t, resp, m, 409, wire.CodeItemNameInUse)
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// Tokens that Options give replace the stored ones; a second server cannot
// open a directory in use; a state of another schema is refused; an
// in-memory store cannot go with DataDir.
func TestPersistOpenRules(t *testing.T) {
	dir := t.TempDir()
	s, err := New(Options{DataDir: dir})
	require.NoError(t, err)
	_, err = New(Options{DataDir: dir})
	require.Error(t, err, "the directory is in use")
	require.NoError(t, s.Close())

	s, err = New(Options{DataDir: dir, AdminToken: "fixed-admin"})
	require.NoError(t, err)
	assert.Equal(t, "fixed-admin", s.AdminToken())
	user := s.UserToken()
	require.NoError(t, s.Close())
	s, err = New(Options{DataDir: dir})
	require.NoError(t, err)
	assert.Equal(t, "fixed-admin", s.AdminToken(), "the given token was stored")
	assert.Equal(t, user, s.UserToken())
	require.NoError(t, s.db.Bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("schema")).Put([]byte("version"), []byte("999")) // the schema bucket and key of internal/persist
	}))
	require.NoError(t, s.Close())
	_, err = New(Options{DataDir: dir})
	require.ErrorIs(t, err, ErrStateSchema)

	_, err = New(Options{DataDir: t.TempDir(), Store: NewMemoryStore()})
	require.Error(t, err)
}

// A crash (the process dies: no Close) loses nothing that was answered,
// and blobs that no record names (a write whose commit never came) are
// swept at the next start.
func TestPersistCrashKeepsAnsweredState(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	f := e.uploadFile(U, "0", "a.txt", []byte("hello"))["id"].(string)
	c := &scenario{t: t, e: e}
	sid := c.session("0", "big.bin", []byte("0123456789"), false)
	orphan := filepath.Join(dir, strings.Repeat("ab", 16)+".blob")
	require.NoError(t, os.WriteFile(orphan, []byte("orphan"), 0o600))
	crash(t, e.s)

	e2 := newEnv(t, Options{DataDir: dir})
	resp, body := e2.do("GET", e2.api("/files/"+f+"/content"), U, nil, nil)
	require.Equal(t, 302, resp.StatusCode, "%s", body)
	resp, body = e2.do("GET", resp.Header.Get("Location"), "", nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "hello", string(body))
	info, ok := e2.s.UploadSession(sid)
	require.True(t, ok)
	assert.Len(t, info.Parts, 1)
	assert.NoFileExists(t, orphan)
}

// A directory closed cleanly is not swept at the next start (every blob
// file of it is named or deleted, and building the set of named blobs
// was an eighth of a restart at a million files); the start takes the
// clean mark away, so a crash after it sweeps again. Content that could
// not be deleted keeps a close from being clean.
func TestPersistCleanCloseSkipsTheSweep(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	f := e.uploadFile(U, "0", "a.txt", []byte("hello"))["id"].(string)
	require.NoError(t, e.s.Close())
	closed := func(s *Server) (mark bool) {
		require.NoError(t, s.db.Bolt.View(func(tx *bolt.Tx) error {
			mark = tx.Bucket([]byte("schema")).Get([]byte("closed-cleanly")) != nil // internal/persist's closedKey
			return nil
		}))
		return mark
	}
	// Put by hand where no server would leave it after a clean close: the
	// next start does not look.
	byHand := filepath.Join(dir, strings.Repeat("ab", 16)+".blob")
	require.NoError(t, os.WriteFile(byHand, []byte("by hand"), 0o600))

	e2 := newEnv(t, Options{DataDir: dir})
	assert.FileExists(t, byHand, "a clean directory is not swept")
	assert.False(t, closed(e2.s), "the start takes the clean mark away")
	assert.Equal(t, "hello", string(e2.download(U, "/files/"+f+"/content")))
	crash(t, e2.s)

	e3 := newEnv(t, Options{DataDir: dir})
	assert.NoFileExists(t, byHand, "swept after a crash")
	require.NoError(t, os.WriteFile(byHand, []byte("by hand"), 0o600))
	e3.s.st.ContentLeft("deleting blob", errors.New("the disk said no"), "blob", "x")
	require.NoError(t, e3.s.Close())

	e4 := newEnv(t, Options{DataDir: dir})
	assert.NoFileExists(t, byHand, "swept after a close that left content behind")
	require.NoError(t, e4.s.Close())
	e5 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, "hello", string(e5.download(U, "/files/"+f+"/content")))
}

// crash stops s as a killed process would: listeners and connections go,
// the database is closed without a last flush.
func crash(t *testing.T, s *Server) {
	t.Helper()
	s.life.closeOnce.Do(func() {
		close(s.life.closed)
		s.life.cancel()
		for _, srv := range s.life.servers {
			_ = srv.Close()
		}
		require.NoError(t, s.db.Abandon())
	})
}

// When the state cannot be committed, the client gets 500 instead of the
// answer, and the change stays marked for the next commit.
func TestPersistFailedCommitAnswers500(t *testing.T) {
	e := newEnv(t, Options{DataDir: t.TempDir()})
	e.s.db.BeforeCommit = func() error { return errors.New("the disk is gone") }
	resp, m := e.doJSON("POST", e.api("/folders"), e.s.AdminToken(), map[string]any{"name": "Lost", "parent": map[string]any{"id": "0"}}, nil)
	requireAPIError(t, resp, m, 500, wire.CodeInternalServerError)
	assert.Empty(t, resp.Header.Get("Location"))
	assert.True(t, e.s.st.Persist.Pending(), "the change waits for the next commit")
}

// Concurrent changes are all committed: after a restart every file that
// was answered is there, and the records are the live ones.
func TestPersistConcurrentRequests(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	const workers, each = 4, 8
	ids := uploadFromWorkers(e, workers, each, func(w int) string {
		if w%2 == 0 {
			return e.s.AdminToken()
		}
		return e.s.UserToken()
	})
	before := lockedDump(e.s)
	require.NoError(t, e.s.Close())

	e2 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, before, lockedDump(e2.s))
	n := 0
	for id := range ids {
		resp, _ := e2.do("GET", e2.api("/files/"+id), e2.s.AdminToken(), nil, nil)
		assert.Equal(t, 200, resp.StatusCode)
		n++
	}
	assert.Equal(t, workers*each, n)
}

// uploadFromWorkers has workers goroutines each make a folder and upload
// each files into it at once, with the token token(w) of worker w, and
// returns the ids of the files (closed channel).
func uploadFromWorkers(e *env, workers, each int, token func(w int) string) chan string {
	ids := make(chan string, workers*each)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok := token(w)
			folder := e.createFolder(tok, "0", fmt.Sprintf("w%d", w))["id"].(string)
			for i := range each {
				ids <- e.uploadFile(tok, folder, fmt.Sprintf("f%d.txt", i), []byte(fmt.Sprint(w, i)))["id"].(string)
			}
		}()
	}
	wg.Wait()
	close(ids)
	return ids
}

// A busy server syncs the commit log asynchronously (diskio.Syncer):
// every change answered then survives a crash (no last flush) as with the
// blocking sync.
func TestPersistBusySyncSurvivesACrash(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	e.s.db.Clients = func() int { return e.s.db.BusyClients } // busy: the asynchronous sync
	e.s.db.BusyCommitDelay = 0                                // no full wait (the test's speed)
	const workers, each = 4, 5
	ids := uploadFromWorkers(e, workers, each, func(int) string { return e.s.UserToken() })
	crash(t, e.s)

	e2 := newEnv(t, Options{DataDir: dir})
	n := 0
	for id := range ids {
		resp, body := e2.do("GET", e2.api("/files/"+id+"/content"), e2.s.UserToken(), nil, nil)
		require.Equal(t, 302, resp.StatusCode, "%s", body)
		n++
	}
	assert.Equal(t, workers*each, n)
}

// Kinds whose orders are rebuilt after a later kind's records (policies
// after file version retentions and legal holds) are restored without any
// record of that later kind.
func TestPersistPoliciesWithoutVersions(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	rp := e.mustAdmin(201, "POST", "/retention_policies", finitePolicy("Keep", 10))["id"].(string)
	hp := e.mustAdmin(201, "POST", "/legal_hold_policies", holdPolicy("Case"))["id"].(string)
	require.NoError(t, e.s.Close())
	e2 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, []string{rp}, ids(e2.mustAdmin(200, "GET", "/retention_policies", nil)))
	assert.Equal(t, []string{hp}, ids(e2.mustAdmin(200, "GET", "/legal_hold_policies", nil)))
}
