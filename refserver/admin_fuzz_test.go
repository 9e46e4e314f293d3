package refserver

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// FuzzAdminBodies decodes untrusted bodies of the user, group and
// membership calls: no panic, and a body that passes the checks keeps
// within the limits.
func FuzzAdminBodies(f *testing.F) {
	for _, s := range []string{
		`{"name":"A","login":"a@b.test"}`, `{"enterprise":null,"notify":true}`, `{"enterprise":"1000001"}`,
		`{"notification_email":{"email":"x@y.test"}}`, `{"notification_email":null}`, `{"notification_email":{"email":1}}`,
		`{"tracking_codes":[{"type":"tracking_code","name":"a","value":"b"}]}`, `{"timezone":"Europe/Paris","language":"fr"}`,
		`{"user":{"id":"1"},"group":{"id":"2"},"role":"admin","configurable_permissions":{"can_run_reports":false}}`,
		`{"configurable_permissions":null}`, `{"name":"G","invitability_level":"admins_only"}`, `[]`, `null`, `{"space_amount":-2}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var cu state.CreateUserBody
		if wire.DecodeJSON(strings.NewReader(body), &cu) == nil && cu.Check() == nil && cu.Name != nil {
			if n := utf8.RuneCountInString(*cu.Name); n == 0 || n > state.MaxUserNameLen {
				t.Fatalf("name of %d characters accepted", n)
			}
		}
		var uu state.UpdateUserBody
		if wire.DecodeJSON(strings.NewReader(body), &uu) == nil && uu.Check() == nil && uu.Address != nil && utf8.RuneCountInString(*uu.Address) > state.MaxAddressLen {
			t.Fatal("long address accepted")
		}
		var g state.GroupBody
		if wire.DecodeJSON(strings.NewReader(body), &g) == nil && g.Check() == nil && g.InvitabilityLevel != nil && !slices.Contains(state.GroupAccessLevels, *g.InvitabilityLevel) {
			t.Fatal("bad invitability_level accepted")
		}
		var m state.MembershipBody
		if wire.DecodeJSON(strings.NewReader(body), &m) == nil && checkGroupRole(m.Role) == nil {
			perms := state.PermsFor(m.ConfigurablePermissions)
			for _, k := range state.GroupAdminPermissions {
				if _, ok := perms[k]; !ok {
					t.Fatalf("permission %s missing", k)
				}
			}
		}
	})
}

// FuzzAdminListQueries sends untrusted query strings to the list endpoints
// of users, groups, memberships and device pins: 200 or 400, never a
// server error.
func FuzzAdminListQueries(f *testing.F) {
	for _, q := range []string{"", "limit=2", "usemarker=true&marker=cG9zOjE", "marker=3000&direction=DESC", "offset=10001",
		"limit=-1", "marker=abc", "user_type=external&filter_term=a", "direction=up", "limit=99999999999999999999"} {
		f.Add(q)
	}
	s, err := New(Options{AdminToken: "adm", UserToken: "usr", AppToken: "app"})
	if err != nil {
		f.Fatal(err)
	}
	if err := s.AddDevicePins(3); err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := url.ParseQuery(q); err != nil {
			return
		}
		for _, p := range []string{"/users", "/groups", "/users/2000002/memberships", "/enterprises/1000001/device_pinners"} {
			req := httptest.NewRequest(http.MethodGet, "http://"+state.InProcessAPIHost+state.APIRoot+p, nil)
			req.URL.RawQuery = q
			req.Header.Set("Authorization", "Bearer adm")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
				t.Fatalf("%s?%s: %d %s", p, q, rec.Code, rec.Body)
			}
		}
	})
}
