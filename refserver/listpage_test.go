package refserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHideFromPages: hidden groups, memberships and users keep their place
// in offset pages (total_count, the offset/limit window) but are left out,
// so pages come short or empty while more follow; reading them by id is
// unchanged.
func TestHideFromPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	admin := e.s.AdminToken()
	var groups []string
	for i := range 5 {
		groups = append(groups, e.newGroup(fmt.Sprintf("Team %d", i), nil))
	}
	m := e.join(e.s.UserID(), groups[0], nil)
	require.NoError(t, e.s.HideFromPages(groups[0], groups[1], groups[3], m["id"].(string)))

	ids := func(page map[string]any) []string {
		var out []string
		for _, en := range page["entries"].([]any) {
			out = append(out, en.(map[string]any)["id"].(string))
		}
		return out
	}
	first := e.ok(http.MethodGet, "/groups?limit=2", admin, nil, http.StatusOK)
	assert.Empty(t, ids(first), "both entries of the first page are hidden")
	assert.EqualValues(t, 5, first["total_count"])
	second := e.ok(http.MethodGet, "/groups?limit=2&offset=2", admin, nil, http.StatusOK)
	assert.Equal(t, []string{groups[2]}, ids(second), "a short page")
	third := e.ok(http.MethodGet, "/groups?limit=2&offset=4", admin, nil, http.StatusOK)
	assert.Equal(t, []string{groups[4]}, ids(third))
	e.ok(http.MethodGet, "/groups/"+groups[0], admin, nil, http.StatusOK)

	ms := e.ok(http.MethodGet, "/groups/"+groups[0]+"/memberships", admin, nil, http.StatusOK)
	assert.Empty(t, ids(ms))
	assert.EqualValues(t, 1, ms["total_count"])
	e.ok(http.MethodGet, "/group_memberships/"+m["id"].(string), admin, nil, http.StatusOK)

	require.NoError(t, e.s.HideFromPages(e.s.UserID()))
	users := e.ok(http.MethodGet, "/users?limit=1000", admin, nil, http.StatusOK)
	assert.NotContains(t, ids(users), e.s.UserID())
	assert.EqualValues(t, len(ids(users))+1, users["total_count"], "the hidden user still counts")

	assert.Error(t, e.s.HideFromPages("999999"), "an unknown id changes nothing")
}

// TestTrashHiddenKeepPlace: items of the managed user that the user may not
// see (HideFromUsers) keep their place in the user's trash pages, as in a
// folder listing.
func TestTrashHiddenKeepPlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	user := e.s.UserToken()
	var ids []string
	for i := range 3 {
		f := e.uploadFile(user, "0", fmt.Sprintf("t%d.txt", i), []byte("x"))
		ids = append(ids, f["id"].(string))
		e.ok(http.MethodDelete, "/files/"+ids[i], user, nil, http.StatusNoContent)
	}
	require.NoError(t, e.s.HideFromUsers(ids[0]))
	page := e.ok(http.MethodGet, "/folders/trash/items?limit=1&sort=name&direction=ASC", user, nil, http.StatusOK)
	assert.Empty(t, page["entries"], "the hidden file keeps its place")
	assert.EqualValues(t, 3, page["total_count"])
	page = e.ok(http.MethodGet, "/folders/trash/items?limit=2&offset=1&sort=name&direction=ASC", user, nil, http.StatusOK)
	assert.Len(t, page["entries"], 2)
	e.rejects(http.MethodGet, "/files/"+ids[0]+"/trash", user, nil, http.StatusNotFound, "not_found")
}
