package refserver

import (
	"fmt"
	"github.com/contentapi/cms/refserver/internal/state"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/oauth"
)

// adminSnapshot is a fingerprint of the users, groups, memberships and
// device pins (plus the items), to check that rejected requests change
// nothing.
func adminSnapshot(s *Server) string {
	items := snapshot(s)
	tx, end := beginTx(s.st)
	defer end()
	var lines []string
	for _, u := range tx.Users.ByID.All() {
		lines = append(lines, fmt.Sprintf("user %s %q %q %s %+v", u.ID, u.Name, u.Login, u.Role, u.UserProfile))
	}
	for _, g := range tx.Groups.ByID.All() {
		lines = append(lines, fmt.Sprintf("group %s %+v", g.ID, *g))
	}
	for _, m := range tx.Groups.Memberships.All() {
		lines = append(lines, fmt.Sprintf("membership %s user=%s group=%s %s %v %v", m.ID, m.User.ID, m.Group.ID, m.Role, m.Perms, m.ModifiedAt))
	}
	lines = append(lines, pinLines(tx)...)
	sort.Strings(lines)
	return items + "\n" + strings.Join(lines, "\n")
}

// rejects checks that a request fails with status and code and changes nothing.
func (e *env) rejects(method, path, token string, body any, status int, code string) map[string]any {
	e.t.Helper()
	before := adminSnapshot(e.s)
	resp, m := e.doJSON(method, e.api(path), token, body, nil)
	requireAPIError(e.t, resp, m, status, code)
	require.Equal(e.t, before, adminSnapshot(e.s), "state changed by a rejected %s %s", method, path)
	return m
}

// ok sends a request and checks its status.
func (e *env) ok(method, path, token string, body any, status int) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON(method, e.api(path), token, body, nil)
	require.Equal(e.t, status, resp.StatusCode, "%s %s: %v", method, path, m)
	return m
}

// newUser creates a managed user as the admin and returns its id.
func (e *env) newUser(name, login string) string {
	e.t.Helper()
	m := e.ok(http.MethodPost, "/users", e.s.AdminToken(), map[string]any{"name": name, "login": login}, http.StatusCreated)
	return m["id"].(string)
}

// pinLines describe the device pins of tx.
func pinLines(tx *state.Tx) []string {
	var out []string
	for _, p := range tx.Pins.ByID.All() {
		out = append(out, fmt.Sprintf("pin %s owner=%s %q", p.ID, p.Owner.ID, p.ProductName))
	}
	return out
}

// downscopedAdmin is a token of the app's service account (which acts as
// the enterprise admin) downscoped to scope.
func (e *env) downscopedAdmin(scope string) string {
	e.t.Helper()
	_, body := e.ccg(e.registerApp(App{}), "enterprise", e.s.EnterpriseID())
	resp, body := e.form("/oauth2/token", url.Values{"grant_type": {oauth.GrantTokenExchange}, "subject_token": {body["access_token"].(string)},
		"subject_token_type": {oauth.TokenTypeAccessToken}, "scope": {scope}})
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "%v", body)
	return body["access_token"].(string)
}
