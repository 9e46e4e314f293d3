package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

func (e *env) createWebLink(token, parent, url, name string) map[string]any {
	e.t.Helper()
	body := map[string]any{"url": url, "parent": map[string]any{"id": parent}}
	if name != "" {
		body["name"] = name
	}
	resp, m := e.doJSON("POST", e.api("/web_links"), token, body, nil)
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "%v", m)
	return m
}

func TestWebLinkCreateRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	dir := e.createFolder(tok, "0", "Links")
	dirID := dir["id"].(string)
	e.uploadFile(tok, dirID, "report.pdf", []byte("r"))

	wl := e.createWebLink(tok, dirID, "https://example.com/a?b=c", "")
	assert.Equal(t, "web_link", wl["type"])
	assert.Equal(t, "https://example.com/a?b=c", wl["name"], "the name defaults to the URL")
	assert.Equal(t, "https://example.com/a?b=c", wl["url"])
	assert.Equal(t, dirID, wl["parent"].(map[string]any)["id"])
	assert.EqualValues(t, 2, wl["path_collection"].(map[string]any)["total_count"])
	assert.Equal(t, "active", wl["item_status"])
	assert.Equal(t, e.s.UserID(), wl["owned_by"].(map[string]any)["id"])
	assert.Nil(t, wl["shared_link"])
	assert.NotContains(t, wl, "size")

	cases := []struct {
		name   string
		token  string
		body   any
		status int
		code   string
	}{
		{"ftp url", tok, fmt.Sprintf(`{"url":"ftp://x","parent":{"id":%q}}`, dirID), 400, "bad_request"},
		{"no scheme", tok, fmt.Sprintf(`{"url":"example.com","parent":{"id":%q}}`, dirID), 400, "bad_request"},
		{"bare scheme", tok, fmt.Sprintf(`{"url":"https://","parent":{"id":%q}}`, dirID), 400, "bad_request"},
		{"missing url", tok, fmt.Sprintf(`{"parent":{"id":%q}}`, dirID), 400, "bad_request"},
		{"missing parent", tok, `{"url":"https://x.test"}`, 400, "bad_request"},
		{"unknown field", tok, fmt.Sprintf(`{"url":"https://x.test","parent":{"id":%q},"x":1}`, dirID), 400, "bad_request"},
		{"bad name", tok, fmt.Sprintf(`{"url":"https://x.test","name":"..","parent":{"id":%q}}`, dirID), 400, "item_name_invalid"},
		{"long name", tok, fmt.Sprintf(`{"url":"https://x.test","name":%q,"parent":{"id":%q}}`, strings.Repeat("n", 256), dirID), 400, "item_name_too_long"},
		{"long description", tok, fmt.Sprintf(`{"url":"https://x.test","description":%q,"parent":{"id":%q}}`, strings.Repeat("d", 257), dirID), 400, "bad_request"},
		{"missing folder", tok, `{"url":"https://x.test","parent":{"id":"999999"}}`, 404, "not_found"},
		{"name of a file", tok, fmt.Sprintf(`{"url":"https://x.test","name":"REPORT.pdf","parent":{"id":%q}}`, dirID), 409, "item_name_in_use"},
		{"name of a web link", tok, fmt.Sprintf(`{"url":"https://example.com/a?b=c","parent":{"id":%q}}`, dirID), 409, "item_name_in_use"},
		{"app token", e.s.AppToken(), fmt.Sprintf(`{"url":"https://x.test","parent":{"id":%q}}`, dirID), 403, "insufficient_scope"},
	}
	before := collabSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("POST", e.api("/web_links"), c.token, c.body, nil)
			requireAPIError(t, resp, m, c.status, c.code)
			if c.status == 409 {
				conflicts := m["context_info"].(map[string]any)["conflicts"].([]any)
				require.Len(t, conflicts, 1)
			}
		})
	}
	assert.Equal(t, before, collabSnapshot(e.s), "rejected creates changed state")

	// A folder or a file cannot take a web link's name either.
	e.createWebLink(tok, dirID, "http://example.org", "Bookmark")
	resp, m := e.doJSON("POST", e.api("/folders"), tok, map[string]any{"name": "bookmark", "parent": map[string]any{"id": dirID}}, nil)
	requireAPIError(t, resp, m, 409, "item_name_in_use")
	assert.Equal(t, "web_link", m["context_info"].(map[string]any)["conflicts"].([]any)[0].(map[string]any)["type"])
}

func TestWebLinkGetUpdateDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	a := e.createFolder(tok, "0", "A")
	b := e.createFolder(tok, "0", "B")
	e.uploadFile(tok, b["id"].(string), "taken", []byte("t"))
	wl := e.createWebLink(tok, a["id"].(string), "https://example.com", "Site")
	id := wl["id"].(string)

	resp, m := e.doJSON("GET", e.api("/web_links/"+id), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "Site", m["name"])
	resp, m = e.doJSON("GET", e.api("/web_links/"+id+"?fields=url"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "https://example.com", m["url"])
	assert.NotContains(t, m, "owned_by")
	resp, m = e.doJSON("GET", e.api("/web_links/"+id), e.s.AppToken(), nil, nil)
	requireAPIError(t, resp, m, 403, "insufficient_scope")
	adminLink := e.createWebLink(e.s.AdminToken(), "0", "https://admin.test", "")
	resp, m = e.doJSON("GET", e.api("/web_links/"+adminLink["id"].(string)), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")

	future := e.clock.Now().Add(48 * time.Hour).Format(time.RFC3339)
	bad := []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"bad url", `{"url":"mailto:x@y"}`, 400, "bad_request"},
		{"bad name", `{"name":""}`, 400, "item_name_invalid"},
		{"parent without id", `{"parent":{}}`, 400, "bad_request"},
		{"missing parent", `{"parent":{"id":"999999"}}`, 404, "not_found"},
		{"name taken in destination", fmt.Sprintf(`{"name":"TAKEN","parent":{"id":%q}}`, b["id"]), 409, "item_name_in_use"},
		{"bad access", `{"shared_link":{"access":"everyone"}}`, 400, "bad_request"},
		{"weak password", `{"shared_link":{"access":"open","password":"short"}}`, 400, "bad_request"},
		{"password not open", `{"shared_link":{"access":"company","password":"Longer-1234"}}`, 400, "bad_request"},
		{"short vanity", `{"shared_link":{"vanity_name":"short"}}`, 400, "bad_request"},
		{"past unshared_at", `{"shared_link":{"unshared_at":"2001-01-01T00:00:00Z"}}`, 400, "bad_request"},
		{"unknown shared link field", `{"shared_link":{"colour":"red"}}`, 400, "bad_request"},
		{"unknown field", `{"colour":"red"}`, 400, "bad_request"},
	}
	before := collabSnapshot(e.s)
	for _, c := range bad {
		resp, m := e.doJSON("PUT", e.api("/web_links/"+id), tok, c.body, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	assert.Equal(t, before, collabSnapshot(e.s), "rejected updates changed state")

	resp, m = e.doJSON("PUT", e.api("/web_links/"+id), tok, map[string]any{
		"url": "http://example.net", "name": "Net", "description": "a net",
		"parent":      map[string]any{"id": b["id"]},
		"shared_link": map[string]any{"access": "open", "password": "Secret-123", "vanity_name": "example-net-link", "unshared_at": future},
	}, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "http://example.net", m["url"])
	assert.Equal(t, "Net", m["name"])
	assert.Equal(t, "a net", m["description"])
	assert.Equal(t, b["id"], m["parent"].(map[string]any)["id"])
	sl := m["shared_link"].(map[string]any)
	assert.Equal(t, "open", sl["access"])
	assert.Equal(t, true, sl["is_password_enabled"])
	assert.Equal(t, "example-net-link", sl["vanity_name"])
	assert.Equal(t, future, sl["unshared_at"])
	assert.NotEqual(t, wl["etag"], m["etag"])

	// password null removes the password; shared_link null removes the link.
	resp, m = e.doJSON("PUT", e.api("/web_links/"+id), tok, `{"shared_link":{"password":null}}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, false, m["shared_link"].(map[string]any)["is_password_enabled"])
	resp, m = e.doJSON("PUT", e.api("/web_links/"+id), tok, `{"shared_link":null}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Nil(t, m["shared_link"])
	resp, m = e.doJSON("PUT", e.api("/web_links/"+id), tok, `{"shared_link":{}}`, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "open", m["shared_link"].(map[string]any)["access"], "an empty shared_link creates one with the default access")

	// Listings show the link with its path (offset and marker).
	_, items := e.doJSON("GET", e.api("/folders/"+b["id"].(string)+"/items?fields=name,url,path_collection"), tok, nil, nil)
	entries := items["entries"].([]any)
	require.Len(t, entries, 2)
	last := entries[1].(map[string]any)
	assert.Equal(t, "web_link", last["type"], "web links come after files")
	assert.Equal(t, "http://example.net", last["url"])
	assert.EqualValues(t, 2, last["path_collection"].(map[string]any)["total_count"])
	_, items = e.doJSON("GET", e.api("/folders/"+b["id"].(string)+"/items?usemarker=true&limit=1"), tok, nil, nil)
	require.NotNil(t, items["next_marker"])
	_, items = e.doJSON("GET", e.api("/folders/"+b["id"].(string)+"/items?usemarker=true&limit=1&marker="+items["next_marker"].(string)), tok, nil, nil)
	assert.Equal(t, "web_link", items["entries"].([]any)[0].(map[string]any)["type"])

	// Delete goes to the trash; restore brings it back.
	resp, m = e.doJSON("DELETE", e.api("/web_links/"+id), e.s.AppToken(), nil, nil)
	requireAPIError(t, resp, m, 403, "insufficient_scope")
	e.deleteOK(tok, "/web_links/"+id)
	assert.Equal(t, 404, e.getStatus(tok, "/web_links/"+id))
	resp, m = e.doJSON("GET", e.api("/web_links/"+id+"/trash"), tok, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "trashed", m["item_status"])
	assert.Nil(t, m["shared_link"], "no shared link in the trash")
	resp, m = e.doJSON("POST", e.api("/web_links/"+id), tok, nil, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, "Net", m["name"])
	assert.Nil(t, m["shared_link"], "the restored record shows no shared link (TrashWebLinkRestored)")
	_, m = e.doJSON("GET", e.api("/web_links/"+id), tok, nil, nil)
	assert.NotNil(t, m["shared_link"], "the link is active again")
	e.deleteOK(tok, "/web_links/"+id)
	e.deleteOK(tok, "/web_links/"+id+"/trash")
	assert.Equal(t, 404, e.getStatus(tok, "/web_links/"+id+"/trash"))
}

// FuzzWebLinkInput feeds untrusted url and shared_link values to their
// parsers: no panic, and an accepted URL always starts with http(s)://.
func FuzzWebLinkInput(f *testing.F) {
	f.Add("https://example.com", `{"access":"open","password":"Secret-123"}`)
	f.Add("http://", `null`)
	f.Add("HTTPS://x.test/%zz", `{"unshared_at":"2999-01-01T00:00:00Z","vanity_name":"abcdefghijklm"}`)
	f.Add("ftp://x", `{"password":null}`)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, u, link string) {
		if checkWebLinkURL(u) == nil {
			l := strings.ToLower(u)
			if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
				t.Fatalf("accepted %q", u)
			}
		}
		var raw wire.Nullable[json.RawMessage]
		if json.Unmarshal([]byte(link), &raw) != nil {
			return
		}
		upd, remove, aerr := parseSharedLink(raw, now)
		if aerr == nil && !remove && upd != nil {
			l := upd.Merge(nil)
			if l.Password != "" && l.Access != "open" {
				t.Fatalf("password without open access: %q", link)
			}
		}
	})
}
