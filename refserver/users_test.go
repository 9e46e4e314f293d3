package refserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func TestUsersMe(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.uploadFile(e.s.UserToken(), "0", "a.txt", []byte("hello"))

	me := e.ok(http.MethodGet, "/users/me", e.s.UserToken(), nil, http.StatusOK)
	assert.Equal(t, e.s.UserID(), me["id"])
	assert.Equal(t, "user", me["type"])
	assert.Equal(t, "user@cms.test", me["login"])
	assert.EqualValues(t, 5, me["space_used"], "space_used counts the stored content")
	assert.Equal(t, "active", me["status"])
	assert.Nil(t, me["notification_email"])
	assert.NotContains(t, me, "enterprise", "Full fields only on request")

	me = e.ok(http.MethodGet, "/users/me?fields=enterprise,role", e.s.AdminToken(), nil, http.StatusOK)
	assert.Equal(t, map[string]any{"id": "1000001", "type": "enterprise", "name": state.EnterpriseName}, me["enterprise"])
	assert.Equal(t, "admin", me["role"])
	assert.Equal(t, "admin@cms.test", me["login"], "mini fields come with fields")
	assert.NotContains(t, me, "created_at")

	// As-User acts as the named user.
	resp, m := e.doJSON(http.MethodGet, e.api("/users/me"), e.s.AdminToken(), nil, hdr{"As-User": e.s.UserID()})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, e.s.UserID(), m["id"])

	// The app token may not call it.
	e.rejects(http.MethodGet, "/users/me", e.s.AppToken(), nil, http.StatusForbidden, wire.CodeInsufficientScope)
}

func TestUsersCreateAndGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	u := e.ok(http.MethodPost, "/users?fields=role,job_title,tracking_codes,is_platform_access_only,enterprise", admin, map[string]any{
		"name": "Nia New", "login": "nia@cms.test", "role": "coadmin", "job_title": "Engineer",
		"tracking_codes": []any{map[string]any{"type": "tracking_code", "name": "dept", "value": "R&D"}},
	}, http.StatusCreated)
	id := u["id"].(string)
	assert.Equal(t, "coadmin", u["role"])
	assert.Equal(t, "Engineer", u["job_title"])
	assert.Equal(t, false, u["is_platform_access_only"])
	assert.Equal(t, []any{map[string]any{"type": "tracking_code", "name": "dept", "value": "R&D"}}, u["tracking_codes"])
	assert.Equal(t, "1000001", u["enterprise"].(map[string]any)["id"])

	got := e.ok(http.MethodGet, "/users/"+id, admin, nil, http.StatusOK)
	for _, k := range []string{"created_at", "modified_at", "language", "timezone", "space_amount", "space_used", "max_upload_size", "status", "job_title", "phone", "address", "avatar_url", "notification_email"} {
		assert.Contains(t, got, k)
	}
	assert.EqualValues(t, 0, got["space_used"])

	// An app user needs no login and gets a generated one.
	app := e.ok(http.MethodPost, "/users?fields=is_platform_access_only,external_app_user_id", admin,
		map[string]any{"name": "Bot", "is_platform_access_only": true, "external_app_user_id": "ext-1"}, http.StatusCreated)
	assert.Equal(t, true, app["is_platform_access_only"])
	assert.Equal(t, "ext-1", app["external_app_user_id"])
	assert.Contains(t, app["login"], "@")

	// The managed user reads others (can_see_managed_users) but not after
	// the admin takes that away.
	e.ok(http.MethodGet, "/users/"+id, e.s.UserToken(), nil, http.StatusOK)
	e.ok(http.MethodPut, "/users/"+e.s.UserID(), admin, map[string]any{"can_see_managed_users": false}, http.StatusOK)
	e.rejects(http.MethodGet, "/users/"+id, e.s.UserToken(), nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.rejects(http.MethodGet, "/users", e.s.UserToken(), nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.ok(http.MethodGet, "/users/"+e.s.UserID(), e.s.UserToken(), nil, http.StatusOK)

	e.rejects(http.MethodGet, "/users/999", admin, nil, http.StatusNotFound, wire.CodeNotFound)
	e.rejects(http.MethodGet, "/users/x1", admin, nil, http.StatusNotFound, wire.CodeNotFound)
	e.rejects(http.MethodGet, "/users/"+id, e.s.AppToken(), nil, http.StatusForbidden, wire.CodeInsufficientScope)
}

func TestUsersCreateRejections(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, c := range []struct {
		name   string
		token  string
		body   any
		status int
		code   string
	}{
		{"managed user", e.s.UserToken(), map[string]any{"name": "A", "login": "a@cms.test"}, 403, wire.CodeAccessDenied},
		{"app token", e.s.AppToken(), map[string]any{"name": "A", "login": "a@cms.test"}, 403, wire.CodeInsufficientScope},
		{"downscoped admin", e.downscopedAdmin("root_readwrite"), map[string]any{"name": "A", "login": "a@cms.test"}, 403, wire.CodeInsufficientScope},
		{"no name", admin, map[string]any{"login": "a@cms.test"}, 400, wire.CodeBadRequest},
		{"no login", admin, map[string]any{"name": "A"}, 400, wire.CodeBadRequest},
		{"unknown field", admin, map[string]any{"name": "A", "login": "a@cms.test", "shoe_size": 9}, 400, wire.CodeBadRequest},
		{"login taken", admin, map[string]any{"name": "A", "login": "USER@cms.test"}, 409, state.CodeUserLoginInUse},
		{"login not an e-mail", admin, map[string]any{"name": "A", "login": "nobody"}, 400, wire.CodeInvalidParameter},
		{"name too long", admin, map[string]any{"name": long(51), "login": "a@cms.test"}, 400, wire.CodeInvalidParameter},
		{"empty name", admin, map[string]any{"name": "", "login": "a@cms.test"}, 400, wire.CodeInvalidParameter},
		{"job_title too long", admin, map[string]any{"name": "A", "login": "a@cms.test", "job_title": long(101)}, 400, wire.CodeInvalidParameter},
		{"phone too long", admin, map[string]any{"name": "A", "login": "a@cms.test", "phone": long(101)}, 400, wire.CodeInvalidParameter},
		{"address too long", admin, map[string]any{"name": "A", "login": "a@cms.test", "address": long(256)}, 400, wire.CodeInvalidParameter},
		{"role admin", admin, map[string]any{"name": "A", "login": "a@cms.test", "role": "admin"}, 400, wire.CodeInvalidParameter},
		{"bad status", admin, map[string]any{"name": "A", "login": "a@cms.test", "status": "gone"}, 400, wire.CodeInvalidParameter},
		{"bad timezone", admin, map[string]any{"name": "A", "login": "a@cms.test", "timezone": "Mars/Olympus"}, 400, wire.CodeInvalidParameter},
		{"bad language", admin, map[string]any{"name": "A", "login": "a@cms.test", "language": "English"}, 400, wire.CodeInvalidParameter},
		{"space below -1", admin, map[string]any{"name": "A", "login": "a@cms.test", "space_amount": -2}, 400, wire.CodeInvalidParameter},
		{"tracking code without name", admin, map[string]any{"name": "A", "login": "a@cms.test", "tracking_codes": []any{map[string]any{"value": "v"}}}, 400, wire.CodeInvalidParameter},
		{"external id on a managed user", admin, map[string]any{"name": "A", "login": "a@cms.test", "external_app_user_id": "x"}, 400, wire.CodeInvalidParameter},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.rejects(http.MethodPost, "/users", c.token, c.body, c.status, c.code)
		})
	}
	// Limits are inclusive.
	e.ok(http.MethodPost, "/users", admin, map[string]any{"name": long(50), "login": "a@cms.test", "job_title": long(100), "phone": long(100), "address": long(255)}, http.StatusCreated)
}

func TestUsersUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	id := e.newUser("Ola", "ola@cms.test")
	path := "/users/" + id + "?fields=name,login,role,language,timezone,job_title,phone,address,status,space_amount,notification_email,tracking_codes,can_see_managed_users,is_sync_enabled,is_external_collab_restricted,is_exempt_from_device_limits,is_exempt_from_login_verification,enterprise"
	u := e.ok(http.MethodPut, path, admin, map[string]any{
		"name": "Ola Nordmann", "login": "ola.n@cms.test", "role": "coadmin", "language": "fr", "timezone": "Europe/Paris",
		"job_title": "Lead", "phone": "+33 1", "address": "1 rue", "status": "inactive", "space_amount": -1,
		"notification_email":    map[string]any{"email": "ola@home.test"},
		"tracking_codes":        []any{map[string]any{"type": "tracking_code", "name": "dept", "value": "Ops"}},
		"can_see_managed_users": false, "is_sync_enabled": false, "is_external_collab_restricted": true,
		"is_exempt_from_device_limits": true, "is_exempt_from_login_verification": true, "is_password_reset_required": true,
	}, http.StatusOK)
	assert.Equal(t, "Ola Nordmann", u["name"])
	assert.Equal(t, "ola.n@cms.test", u["login"])
	assert.Equal(t, "coadmin", u["role"])
	assert.Equal(t, "fr", u["language"])
	assert.Equal(t, "Europe/Paris", u["timezone"])
	assert.Equal(t, "inactive", u["status"])
	assert.EqualValues(t, -1, u["space_amount"])
	assert.Equal(t, map[string]any{"email": "ola@home.test", "is_confirmed": false}, u["notification_email"])
	assert.Equal(t, false, u["can_see_managed_users"])
	assert.Equal(t, true, u["is_exempt_from_login_verification"])

	// The old login is free again, the new one is taken.
	e.ok(http.MethodPost, "/users", admin, map[string]any{"name": "B", "login": "ola@cms.test"}, http.StatusCreated)
	e.rejects(http.MethodPost, "/users", admin, map[string]any{"name": "B", "login": "Ola.N@cms.test"}, http.StatusConflict, state.CodeUserLoginInUse)

	// notification_email: null removes it; clearing a text field with "".
	u = e.ok(http.MethodPut, path, admin, map[string]any{"notification_email": nil, "job_title": ""}, http.StatusOK)
	assert.Nil(t, u["notification_email"])
	assert.Equal(t, "", u["job_title"])

	other := e.newUser("Other", "other@cms.test")
	long := strings.Repeat("y", 256)
	for _, c := range []struct {
		name   string
		token  string
		path   string
		body   any
		status int
		code   string
	}{
		{"managed user", e.s.UserToken(), "/users/" + id, map[string]any{"name": "X"}, 403, wire.CodeAccessDenied},
		{"managed user on self", e.s.UserToken(), "/users/" + e.s.UserID(), map[string]any{"name": "X"}, 403, wire.CodeAccessDenied},
		{"no such user", admin, "/users/12345", map[string]any{"name": "X"}, 404, wire.CodeNotFound},
		{"login taken", admin, "/users/" + id, map[string]any{"login": "other@cms.test"}, 409, state.CodeUserLoginInUse},
		{"bad notification e-mail", admin, "/users/" + id, map[string]any{"notification_email": map[string]any{"email": "not-an-address"}}, 400, wire.CodeInvalidParameter},
		{"notification e-mail unknown key", admin, "/users/" + id, map[string]any{"notification_email": map[string]any{"email": "a@b.test", "is_confirmed": true}}, 400, wire.CodeBadRequest},
		{"name too long", admin, "/users/" + id, map[string]any{"name": long[:51]}, 400, wire.CodeInvalidParameter},
		{"job_title too long", admin, "/users/" + id, map[string]any{"job_title": long[:101]}, 400, wire.CodeInvalidParameter},
		{"phone too long", admin, "/users/" + id, map[string]any{"phone": long[:101]}, 400, wire.CodeInvalidParameter},
		{"address too long", admin, "/users/" + id, map[string]any{"address": long}, 400, wire.CodeInvalidParameter},
		{"other enterprise", admin, "/users/" + id, map[string]any{"enterprise": "42"}, 400, wire.CodeInvalidParameter},
		{"external id on a managed user", admin, "/users/" + other, map[string]any{"external_app_user_id": "x"}, 400, wire.CodeInvalidParameter},
		{"admin's role", admin, "/users/" + e.s.AdminUserID(), map[string]any{"role": "user"}, 403, wire.CodeAccessDenied},
		{"roll out the admin", admin, "/users/" + e.s.AdminUserID(), map[string]any{"enterprise": nil}, 403, wire.CodeAccessDenied},
		{"roll out the service account", admin, "/users/" + e.s.AppUserID(), map[string]any{"enterprise": nil}, 403, wire.CodeAccessDenied},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.rejects(http.MethodPut, c.path, c.token, c.body, c.status, c.code)
		})
	}
}

func TestUsersRollOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	id := e.newUser("Leaver", "leaver@cms.test")
	// While in the enterprise, the admin can act as them.
	resp, _ := e.doJSON(http.MethodGet, e.api("/users/me"), admin, nil, hdr{"As-User": id})
	require.Equal(t, http.StatusOK, resp.StatusCode)

	u := e.ok(http.MethodPut, "/users/"+id+"?fields=enterprise,role,space_amount,max_upload_size", admin,
		map[string]any{"enterprise": nil, "notify": true}, http.StatusOK)
	assert.Contains(t, u, "enterprise")
	assert.Nil(t, u["enterprise"], "a free user has no enterprise")
	assert.EqualValues(t, state.FreeMaxUploadSize, u["max_upload_size"])

	// Gone from the enterprise: not listed, not found, not an As-User target.
	e.rejects(http.MethodGet, "/users/"+id, admin, nil, http.StatusNotFound, wire.CodeNotFound)
	e.rejects(http.MethodPut, "/users/"+id, admin, map[string]any{"name": "X"}, http.StatusNotFound, wire.CodeNotFound)
	list := e.ok(http.MethodGet, "/users?limit=1000", admin, nil, http.StatusOK)
	assert.NotContains(t, ids(list), id)
	resp, m := e.doJSON(http.MethodGet, e.api("/users/me"), admin, nil, hdr{"As-User": id})
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)
}

func TestUsersDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	id := e.newUser("Del", "del@cms.test")
	// Give them content through As-User.
	attrs := `{"name":"mine.txt","parent":{"id":"0"}}`
	resp, m := e.uploadRaw(admin, e.upload("/files/content"), attrs, []byte("abc"), hdr{"As-User": id})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	fileID := m["entries"].([]any)[0].(map[string]any)["id"].(string)
	u := e.ok(http.MethodGet, "/users/"+id, admin, nil, http.StatusOK)
	assert.EqualValues(t, 3, u["space_used"])

	e.rejects(http.MethodDelete, "/users/"+id, e.s.UserToken(), nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.rejects(http.MethodDelete, "/users/"+id, admin, nil, http.StatusConflict, state.CodeUserHasContent)
	e.rejects(http.MethodDelete, "/users/"+id+"?force=maybe", admin, nil, http.StatusBadRequest, wire.CodeBadRequest)
	e.rejects(http.MethodDelete, "/users/"+e.s.AdminUserID()+"?force=true", admin, nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.rejects(http.MethodDelete, "/users/"+e.s.AppUserID()+"?force=true", admin, nil, http.StatusForbidden, wire.CodeAccessDenied)
	e.rejects(http.MethodDelete, "/users/777", admin, nil, http.StatusNotFound, wire.CodeNotFound)

	e.ok(http.MethodDelete, "/users/"+id+"?force=true&notify=false", admin, nil, http.StatusNoContent)
	e.rejects(http.MethodGet, "/files/"+fileID, admin, nil, http.StatusNotFound, wire.CodeNotFound)
	e.rejects(http.MethodGet, "/users/"+id, admin, nil, http.StatusNotFound, wire.CodeNotFound)
	// The login can be used again.
	e.newUser("Del again", "del@cms.test")

	// A user without content goes without force.
	empty := e.newUser("Empty", "empty@cms.test")
	e.ok(http.MethodDelete, "/users/"+empty, admin, nil, http.StatusNoContent)
}

func TestUsersDeletedUserTokenStops(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.ok(http.MethodGet, "/users/me", e.s.UserToken(), nil, http.StatusOK)
	e.ok(http.MethodDelete, "/users/"+e.s.UserID(), e.s.AdminToken(), nil, http.StatusNoContent)
	resp, m := e.doJSON(http.MethodGet, e.api("/users/me"), e.s.UserToken(), nil, nil)
	requireAPIError(t, resp, m, http.StatusUnauthorized, wire.CodeUnauthorized)
}

func TestUsersList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	var made []string
	for i := range 5 {
		made = append(made, e.newUser(fmt.Sprintf("Zed %d", i), fmt.Sprintf("zed%d@cms.test", i)))
	}
	e.ok(http.MethodPost, "/users", admin, map[string]any{"name": "Robot", "is_platform_access_only": true, "external_app_user_id": "robot-7"}, http.StatusCreated)

	// Offset pages: 3 fixed users + 5 + 1 app user.
	p1 := e.ok(http.MethodGet, "/users?limit=4", admin, nil, http.StatusOK)
	assert.EqualValues(t, 9, p1["total_count"])
	assert.EqualValues(t, 4, p1["limit"])
	assert.EqualValues(t, 0, p1["offset"])
	assert.Len(t, p1["entries"], 4)
	p3 := e.ok(http.MethodGet, "/users?limit=4&offset=8", admin, nil, http.StatusOK)
	assert.Len(t, p3["entries"], 1)
	assert.EqualValues(t, 9, p3["total_count"])

	// Filters.
	z := e.ok(http.MethodGet, "/users?filter_term=zed&limit=100", admin, nil, http.StatusOK)
	assert.Equal(t, made, ids(z))
	z = e.ok(http.MethodGet, "/users?filter_term=ZED3@", admin, nil, http.StatusOK)
	assert.Equal(t, made[3:4], ids(z), "login prefix, any case")
	ext := e.ok(http.MethodGet, "/users?external_app_user_id=robot-7", admin, nil, http.StatusOK)
	assert.Len(t, ext["entries"], 1)
	none := e.ok(http.MethodGet, "/users?user_type=external", admin, nil, http.StatusOK)
	assert.Empty(t, none["entries"])
	all := e.ok(http.MethodGet, "/users?user_type=managed&fields=name", admin, nil, http.StatusOK)
	assert.EqualValues(t, 9, all["total_count"])
	assert.NotContains(t, all["entries"].([]any)[0], "created_at")

	// Marker pages walk everything once, in order.
	var walked []string
	marker := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 10)
		q := "/users?usemarker=true&limit=4"
		if marker != "" {
			q += "&marker=" + marker
		}
		p := e.ok(http.MethodGet, q, admin, nil, http.StatusOK)
		assert.NotContains(t, p, "total_count")
		walked = append(walked, ids(p)...)
		if p["next_marker"] == nil {
			break
		}
		marker = p["next_marker"].(string)
	}
	assert.Len(t, walked, 9)
	assert.Equal(t, made, walked[3:8])

	for _, q := range []string{"user_type=robots", "offset=10001", "limit=0", "offset=-1", "usemarker=perhaps", "marker=%21%21"} {
		e.rejects(http.MethodGet, "/users?"+q, admin, nil, http.StatusBadRequest, wire.CodeBadRequest)
	}
	// Limit above the maximum is lowered.
	big := e.ok(http.MethodGet, "/users?limit=5000", admin, nil, http.StatusOK)
	assert.EqualValues(t, 1000, big["limit"])
}

// TestRefusedUserCreateTakesNoID: a POST /users refused for its login (409)
// changes nothing, not even the next id: the next user gets the id after
// the last one.
func TestRefusedUserCreateTakesNoID(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	first := e.newUser("A", "a@cms.test")
	e.rejects(http.MethodPost, "/users", admin, map[string]any{"name": "A2", "login": "A@cms.test"}, http.StatusConflict, state.CodeUserLoginInUse)
	second := e.newUser("B", "b@cms.test")
	a, err := strconv.ParseInt(first, 10, 64)
	require.NoError(t, err)
	assert.Equal(t, strconv.FormatInt(a+1, 10), second, "the refused request took no id")
}
