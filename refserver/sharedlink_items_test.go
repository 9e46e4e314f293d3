package refserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func TestSharedLinksOnFilesAndFolders(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin := e.s.UserToken(), e.s.AdminToken()
	stranger := e.ok(http.MethodPost, "/users", admin, map[string]any{"name": "S", "login": "s@cms.test"}, http.StatusCreated)["id"].(string)
	as := func(h hdr) hdr { h["As-User"] = stranger; return h }
	dir := e.createFolder(user, "0", "published")["id"].(string)
	f := e.uploadFile(user, dir, "report.txt", []byte("report"))["id"].(string)

	resp, m := e.put(user, "/files/"+f+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "open", "password": "Secret-123"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	link := m["shared_link"].(map[string]any)
	require.Equal(t, true, link["is_password_enabled"])
	require.Equal(t, true, link["permissions"].(map[string]any)["can_download"], "open links download by default")
	fileURL := link["url"].(string)
	boxapi := func(u, pw string) string {
		v := "shared_link=" + u
		if pw != "" {
			v += "&shared_link_password=" + pw
		}
		return v
	}

	// The stranger reads the file through the link, with its password.
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/files/"+f, as(hdr{})))
	resp, m = e.doJSON("GET", e.api("/shared_items"), admin, nil, as(hdr{"boxapi": boxapi(fileURL, "")}))
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeIncorrectSharedItemPassword)
	resp, m = e.doJSON("GET", e.api("/shared_items"), admin, nil, as(hdr{"boxapi": boxapi(fileURL, "wrong")}))
	requireAPIError(t, resp, m, http.StatusForbidden, state.CodeIncorrectSharedItemPassword)
	resp, m = e.doJSON("GET", e.api("/shared_items?fields=name,etag"), admin, nil, as(hdr{"boxapi": boxapi(fileURL, "Secret-123")}))
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Equal(t, "report.txt", m["name"])
	resp, _ = e.do("GET", e.api("/shared_items"), admin, nil, as(hdr{"boxapi": boxapi(fileURL, "Secret-123"), "If-None-Match": m["etag"].(string)}))
	require.Equal(t, http.StatusNotModified, resp.StatusCode)
	resp, _ = e.do("GET", e.api("/files/"+f+"/content"), admin, nil, as(hdr{"boxapi": boxapi(fileURL, "Secret-123")}))
	require.Equal(t, http.StatusFound, resp.StatusCode, "downloads through the link")
	resp, m = e.doJSON("GET", e.api("/shared_items"), admin, nil, as(hdr{}))
	requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
	resp, m = e.doJSON("GET", e.api("/shared_items"), admin, nil, as(hdr{"boxapi": "https://nope"}))
	requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)

	// A link without downloads.
	resp, _ = e.put(user, "/files/"+f, map[string]any{"shared_link": map[string]any{"access": "open", "password": nil, "permissions": map[string]any{"can_download": false}}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, m = e.doJSON("GET", e.api("/files/"+f+"/content"), admin, nil, as(hdr{"boxapi": boxapi(fileURL, "")}))
	requireAPIError(t, resp, m, http.StatusForbidden, wire.CodeAccessDenied)

	// A folder's link reaches what is inside it.
	resp, m = e.put(user, "/folders/"+dir+"?fields=shared_link", map[string]any{"shared_link": map[string]any{"access": "company", "vanity_name": "published-reports"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	vanity := m["shared_link"].(map[string]any)["vanity_url"].(string)
	h := as(hdr{"boxapi": boxapi(vanity, "")})
	resp, m = e.doJSON("GET", e.api("/folders/"+dir+"/items"), admin, nil, h)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	require.Len(t, m["entries"], 1, "the whole folder shows through its link")
	require.Equal(t, http.StatusOK, e.statusWith(admin, "/files/"+f, as(hdr{"boxapi": boxapi(vanity, "")})))
	other := e.uploadFile(user, "0", "outside.txt", []byte("x"))["id"].(string)
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/files/"+other, as(hdr{"boxapi": boxapi(vanity, "")})), "not what is outside the folder")

	// Collaborators-only links and removed or expired links.
	resp, _ = e.put(user, "/folders/"+dir, map[string]any{"shared_link": map[string]any{"access": "collaborators"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/shared_items", as(hdr{"boxapi": boxapi(vanity, "")})))
	exp := e.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	resp, _ = e.put(user, "/folders/"+dir, map[string]any{"shared_link": map[string]any{"access": "open", "unshared_at": exp}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, http.StatusOK, e.statusWith(admin, "/shared_items", as(hdr{"boxapi": boxapi(vanity, "")})))
	e.clock.Advance(2 * time.Hour)
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/shared_items", as(hdr{"boxapi": boxapi(vanity, "")})))
	resp, _ = e.put(user, "/folders/"+dir, map[string]any{"shared_link": nil}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, http.StatusNotFound, e.statusWith(admin, "/shared_items", as(hdr{"boxapi": boxapi(vanity, "")})))

	// Rules of the permissions.
	for _, bad := range []map[string]any{
		{"access": "collaborators", "permissions": map[string]any{"can_download": true}},
		{"access": "open", "permissions": map[string]any{"can_edit": true}},
		{"access": "open", "permissions": map[string]any{"can_preview": false}},
	} {
		resp, m := e.put(user, "/files/"+f, map[string]any{"shared_link": bad}, nil)
		requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
	}
	resp, m = e.put(user, "/folders/"+dir, map[string]any{"shared_link": map[string]any{"access": "open", "permissions": map[string]any{"can_download": true, "can_edit": true}}}, nil)
	requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest)
}
