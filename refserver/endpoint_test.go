package refserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEndpointRoles: each role's endpoint reaches the server as that
// principal, with the access the Role doc describes; the token never shows
// in the endpoint's text.
func TestEndpointRoles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	for role, want := range map[Role]struct {
		me        int
		templates int
	}{
		RoleAdmin: {http.StatusOK, http.StatusCreated},
		RoleUser:  {http.StatusOK, http.StatusForbidden},
		RoleApp:   {http.StatusForbidden, http.StatusForbidden},
	} {
		ep, err := e.s.Endpoint(role)
		require.NoError(t, err)
		assert.Equal(t, e.s.BaseURL(), ep.BaseURL)
		assert.Equal(t, e.s.UploadURL(), ep.UploadURL)
		assert.NotContains(t, ep.String(), ep.Token)
		assert.NotContains(t, fmt.Sprint(ep), ep.Token)
		resp, _ := e.do("GET", ep.BaseURL+"/users/me", ep.Token, nil, nil)
		assert.Equal(t, want.me, resp.StatusCode, role)
		resp, _ = e.doJSON("POST", ep.BaseURL+"/metadata_templates/schema", ep.Token,
			map[string]any{"scope": "enterprise", "displayName": "T " + string(role)}, nil)
		assert.Equal(t, want.templates, resp.StatusCode, role)
	}
	_, err := e.s.Endpoint("root")
	assert.ErrorContains(t, err, "unknown role")
}
