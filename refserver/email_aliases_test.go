package refserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The classic box-node-sdk sends is_confirmed false: the admin's alias
// then stays unconfirmed; a user's own is never confirmed by the request.
func TestEmailAliasIsConfirmed(t *testing.T) {
	e := newEnv(t, Options{})
	url := e.api("/users/" + e.s.UserID() + "/email_aliases")
	resp, m := e.doJSON("POST", url, e.s.AdminToken(), map[string]any{"email": "a@cms.test", "is_confirmed": false}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, false, m["is_confirmed"])
	resp, m = e.doJSON("POST", url, e.s.AdminToken(), map[string]any{"email": "b@cms.test"}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, true, m["is_confirmed"])
	resp, m = e.doJSON("POST", url, e.s.UserToken(), map[string]any{"email": "c@cms.test", "is_confirmed": true}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, false, m["is_confirmed"])
}
