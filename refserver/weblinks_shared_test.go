package refserver

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shareWebLink sets a web link's shared link and returns its record.
func (e *env) shareWebLink(token, id string, link map[string]any) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("PUT", e.api("/web_links/"+id), token, map[string]any{"shared_link": link}, nil)
	require.Equal(e.t, http.StatusOK, resp.StatusCode, "%v", m)
	return m["shared_link"].(map[string]any)
}

// TestWebLinkSharedLinkAccess: GET /web_links/{id} with the boxapi header
// reads a link the caller cannot see otherwise, as its shared link allows.
func TestWebLinkSharedLinkAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin, user := e.s.AdminToken(), e.s.UserToken()
	id := e.createWebLink(admin, "0", "https://example.com/doc", "Doc")["id"].(string)
	const pw = "Secret123!"
	link := e.shareWebLink(admin, id, map[string]any{"access": "open", "password": pw, "vanity_name": "a-vanity-name-1"})
	url := link["url"].(string)
	boxapi := func(v string) hdr { return hdr{"boxapi": v} }
	get := func(token string, h hdr) (*http.Response, map[string]any) {
		return e.doJSON("GET", e.api("/web_links/"+id), token, nil, h)
	}

	resp, m := get(user, nil)
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
	resp, m = get(user, boxapi("shared_link="+url+"&shared_link_password="+pw))
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	assert.Equal(t, id, m["id"])
	assert.Equal(t, "https://example.com/doc", m["url"])
	resp, m = get(user, boxapi("shared_link="+link["vanity_url"].(string)+"&shared_link_password="+pw))
	require.Equal(t, http.StatusOK, resp.StatusCode, "the vanity URL names the link too: %v", m)

	before := collabSnapshot(e.s)
	for _, c := range []struct {
		name, token, header string
		status              int
		code                string
	}{
		{"no password", user, "shared_link=" + url, 403, "incorrect_shared_item_password"},
		{"wrong password", user, "shared_link=" + url + "&shared_link_password=Secret124!", 403, "incorrect_shared_item_password"},
		{"owner, wrong password", admin, "shared_link=" + url + "&shared_link_password=x", 403, "incorrect_shared_item_password"},
		{"other link", user, "shared_link=https://app.cms.test/s/nope&shared_link_password=" + pw, 404, "not_found"},
		{"not a shared_link value", user, url, 400, "bad_request"},
		{"empty link", user, "shared_link=", 400, "bad_request"},
	} {
		resp, m := get(c.token, boxapi(c.header))
		requireAPIError(t, resp, m, c.status, c.code)
	}
	assert.Equal(t, before, collabSnapshot(e.s), "rejected requests changed state")

	// company: any user of the enterprise; collaborators: no one more.
	e.shareWebLink(admin, id, map[string]any{"access": "company", "password": nil})
	resp, m = get(user, boxapi("shared_link="+url))
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	e.shareWebLink(admin, id, map[string]any{"access": "collaborators"})
	resp, m = get(user, boxapi("shared_link="+url))
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
	resp, m = get(admin, boxapi("shared_link="+url))
	require.Equal(t, http.StatusOK, resp.StatusCode, "the owner reads it anyway: %v", m)

	// An expired, removed or trashed link gives no access.
	e.shareWebLink(admin, id, map[string]any{"access": "open", "unshared_at": e.clock.Now().Add(time.Hour).Format(time.RFC3339)})
	resp, _ = get(user, boxapi("shared_link="+url))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	e.clock.Advance(time.Hour)
	resp, m = get(user, boxapi("shared_link="+url))
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
	e.shareWebLink(admin, id, map[string]any{"access": "open", "unshared_at": e.clock.Now().Add(time.Hour).Format(time.RFC3339)})
	e.deleteOK(admin, "/web_links/"+id)
	resp, m = get(user, boxapi("shared_link="+url))
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
	resp, m = e.doJSON("POST", e.api("/web_links/"+id), admin, nil, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	resp, m = e.doJSON("PUT", e.api("/web_links/"+id), admin, map[string]any{"shared_link": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	resp, m = get(user, boxapi("shared_link="+url))
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")

	// company access is for users of the enterprise: not one rolled out.
	url = e.shareWebLink(admin, id, map[string]any{"access": "company"})["url"].(string)
	resp, _ = get(user, boxapi("shared_link="+url))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, m = e.doJSON("PUT", e.api("/users/"+e.s.UserID()), admin, map[string]any{"enterprise": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	resp, m = get(user, boxapi("shared_link="+url))
	requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
}

// TestSecretsNotLogged: the request log keeps a boxapi header without its
// password (as it keeps no Authorization value), and Options.Logger sees
// no token, password or signed URL.
func TestSecretsNotLogged(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	e := newEnv(t, Options{Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	admin := e.s.AdminToken()
	id := e.createWebLink(admin, "0", "https://example.com/doc", "Doc")["id"].(string)
	const pw = "Pass&word123!"
	url := e.shareWebLink(admin, id, map[string]any{"access": "open", "password": pw})["url"].(string)
	resp, m := e.doJSON("GET", e.api("/web_links/"+id), e.s.UserToken(), nil, hdr{"boxapi": "shared_link=" + url + "&shared_link_password=" + pw})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	f := e.uploadFile(admin, "0", "f.txt", []byte("data"))
	resp, _ = e.do("GET", e.api("/files/"+f["id"].(string)+"/content"), admin, nil, nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc := resp.Header.Get("Location")
	resp, _ = e.do("GET", loc, "", nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	signed := loc[strings.LastIndexByte(loc, '/')+1:]

	var saw bool
	for _, rec := range e.s.Requests() {
		if v := rec.Header.Get("Boxapi"); v != "" {
			saw = true
			assert.Equal(t, "shared_link="+url+"&shared_link_password=[redacted]", v)
		}
		if rec.HasAuthorization {
			assert.Equal(t, "[redacted]", rec.Header.Get("Authorization"))
		}
	}
	assert.True(t, saw, "the boxapi request is in the log")
	log := buf.String()
	require.Contains(t, log, "/d/[redacted]", "the download is logged")
	for name, secret := range map[string]string{"password": pw, "admin token": admin, "user token": e.s.UserToken(), "signed URL": signed} {
		assert.NotContains(t, log, secret, "the logger saw the %s", name)
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
