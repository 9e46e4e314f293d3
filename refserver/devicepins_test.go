package refserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

func TestDevicePinsList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	require.NoError(t, e.s.AddDevicePins(5))
	page := e.ok(http.MethodGet, "/enterprises/1000001/device_pinners", admin, nil, http.StatusOK)
	want := ids(page)
	require.Len(t, want, 5)
	assert.Nil(t, page["next_marker"])
	assert.EqualValues(t, 100, page["limit"])
	assert.Equal(t, []any{map[string]any{"by": "id", "direction": "asc"}}, page["order"])
	first := page["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "device_pinner", first["type"])
	assert.Equal(t, "iPhone", first["product_name"])
	assert.Equal(t, e.s.AdminUserID(), first["owned_by"].(map[string]any)["id"])

	// Two at a time; next_marker is an integer, the id of the next pin.
	walk := func(dir string) []string {
		var got []string
		marker := ""
		for range 10 {
			p := e.ok(http.MethodGet, "/enterprises/1000001/device_pinners?limit=2"+dir+marker, admin, nil, http.StatusOK)
			got = append(got, ids(p)...)
			if p["next_marker"] == nil {
				return got
			}
			n, ok := p["next_marker"].(float64)
			require.True(t, ok, "next_marker is a number: %v", p["next_marker"])
			marker = fmt.Sprintf("&marker=%d", int64(n))
		}
		t.Fatal("too many pages")
		return nil
	}
	assert.Equal(t, want, walk(""))
	desc := walk("&direction=DESC")
	for i := range desc {
		assert.Equal(t, want[len(want)-1-i], desc[i])
	}
	big := e.ok(http.MethodGet, "/enterprises/1000001/device_pinners?limit=5000", admin, nil, http.StatusOK)
	assert.EqualValues(t, 1000, big["limit"])
}

func TestDevicePinsRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	id, err := e.s.AddDevicePin(e.s.UserID(), "iPad")
	require.NoError(t, err)
	_, err = e.s.AddDevicePin("999", "iPad")
	require.Error(t, err)
	_, err = e.s.AddDevicePin(e.s.UserID(), " ")
	require.Error(t, err)

	// A downscoped admin token lacks the manage-enterprise scope.
	down := e.downscopedAdmin("root_readwrite")
	for _, c := range []struct {
		name, method, path, token string
		status                    int
		code                      string
	}{
		{"list as user", "GET", "/enterprises/1000001/device_pinners", e.s.UserToken(), 403, wire.CodeAccessDenied},
		{"list as app", "GET", "/enterprises/1000001/device_pinners", e.s.AppToken(), 403, wire.CodeInsufficientScope},
		{"list downscoped", "GET", "/enterprises/1000001/device_pinners", down, 403, wire.CodeInsufficientScope},
		{"get downscoped", "GET", "/device_pinners/" + id, down, 403, wire.CodeInsufficientScope},
		{"delete downscoped", "DELETE", "/device_pinners/" + id, down, 403, wire.CodeInsufficientScope},
		{"list other enterprise", "GET", "/enterprises/42/device_pinners", admin, 403, wire.CodeAccessDenied},
		{"bad marker", "GET", "/enterprises/1000001/device_pinners?marker=abc", admin, 400, wire.CodeBadRequest},
		{"bad direction", "GET", "/enterprises/1000001/device_pinners?direction=up", admin, 400, wire.CodeBadRequest},
		{"bad limit", "GET", "/enterprises/1000001/device_pinners?limit=0", admin, 400, wire.CodeBadRequest},
		{"get as user", "GET", "/device_pinners/" + id, e.s.UserToken(), 403, wire.CodeAccessDenied},
		{"delete as user", "DELETE", "/device_pinners/" + id, e.s.UserToken(), 403, wire.CodeAccessDenied},
		{"get missing", "GET", "/device_pinners/123", admin, 404, wire.CodeNotFound},
		{"delete missing", "DELETE", "/device_pinners/123", admin, 404, wire.CodeNotFound},
	} {
		t.Run(c.name, func(t *testing.T) { e.rejects(c.method, c.path, c.token, nil, c.status, c.code) })
	}

	got := e.ok(http.MethodGet, "/device_pinners/"+id, admin, nil, http.StatusOK)
	assert.Equal(t, "iPad", got["product_name"])
	e.ok(http.MethodDelete, "/device_pinners/"+id, admin, nil, http.StatusNoContent)
	e.rejects(http.MethodGet, "/device_pinners/"+id, admin, nil, http.StatusNotFound, wire.CodeNotFound)

	// A user who leaves takes their pins along.
	u := e.newUser("Pinned", "pinned@cms.test")
	_, err = e.s.AddDevicePin(u, "Android")
	require.NoError(t, err)
	e.ok(http.MethodDelete, "/users/"+u, admin, nil, http.StatusNoContent)
	page := e.ok(http.MethodGet, "/enterprises/1000001/device_pinners", admin, nil, http.StatusOK)
	assert.Empty(t, page["entries"])
}
