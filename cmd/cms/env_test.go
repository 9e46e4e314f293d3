package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnvironmentRules: the command reads its environment by the SDK's
// rules (cms.ConfigFromLookup), through the environment the test gives:
// both roots or neither, a token or an app config, with the SDK's messages
// under one "cms:" prefix and never the token.
func TestEnvironmentRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		code int
		msg  string
	}{
		{"base without upload", map[string]string{"CMS_BASE_URL": "http://127.0.0.1:1/2.0", "CMS_TOKEN": "tok-secret"}, exitFailed,
			"cms: ls: set both CMS_BASE_URL and CMS_UPLOAD_URL"},
		{"upload without base", map[string]string{"CMS_UPLOAD_URL": "http://127.0.0.1:1/api/2.0", "CMS_TOKEN": "tok-secret"}, exitFailed,
			"cms: ls: set both CMS_BASE_URL and CMS_UPLOAD_URL"},
		{"upload set to empty", map[string]string{"CMS_BASE_URL": "http://127.0.0.1:1/2.0", "CMS_UPLOAD_URL": "", "CMS_TOKEN": "tok-secret"}, exitFailed,
			"cms: ls: set both CMS_BASE_URL and CMS_UPLOAD_URL"},
		{"no token", map[string]string{"CMS_BASE_URL": "http://127.0.0.1:1/2.0", "CMS_UPLOAD_URL": "http://127.0.0.1:2/api/2.0"}, exitAuth,
			"cms: ls: set CMS_TOKEN, or give --app-config FILE"},
		{"nothing", map[string]string{}, exitAuth, "cms: ls: set CMS_TOKEN, or give --app-config FILE"},
		{"plain http off loopback", map[string]string{"CMS_BASE_URL": "http://cms.example/2.0", "CMS_UPLOAD_URL": "http://cms.example/api/2.0", "CMS_TOKEN": "tok-secret"}, exitFailed,
			"plain http on a host that is not loopback"},
	} {
		c := &cli{t: t, env: tc.env}
		code, _, errOut := c.run("ls", "/")
		assert.Equal(t, tc.code, code, "%s: %s", tc.name, errOut)
		assert.Contains(t, errOut, tc.msg, tc.name)
		assert.NotContains(t, errOut, "tok-secret", tc.name)
		assert.NotContains(t, errOut, "cms: cms:", tc.name)
	}
}
