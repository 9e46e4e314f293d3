package cms

import (
	"bytes"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigFromEnv: the cms command's rules — both roots or neither, a
// token always — with errors naming the variables and never the token, and
// a config that never prints or logs its token.
func TestConfigFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	for name, m := range map[string]map[string]string{
		"base without upload": {EnvBaseURL: "http://127.0.0.1:1/2.0", EnvToken: "tok-secret"},
		"upload without base": {EnvUploadURL: "http://127.0.0.1:1/api/2.0", EnvToken: "tok-secret"},
	} {
		_, err := ConfigFromLookup(env(m))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "set both CMS_BASE_URL and CMS_UPLOAD_URL", name)
		assert.NotContains(t, err.Error(), "tok-secret", name)
	}
	e, err := ConfigFromLookup(env(map[string]string{EnvBaseURL: "http://127.0.0.1:1/2.0", EnvUploadURL: "http://127.0.0.1:2/api/2.0"}))
	assert.ErrorContains(t, err, "CMS_TOKEN is not set")
	require.ErrorIs(t, err, ErrEnvTokenUnset)
	assert.Equal(t, EnvConfig{BaseURL: "http://127.0.0.1:1/2.0", UploadURL: "http://127.0.0.1:2/api/2.0"}, e,
		"without a token the roots are still read, for credentials of another kind")
	_, err = ConfigFromLookup(env(map[string]string{EnvBaseURL: "http://127.0.0.1:1/2.0", EnvUploadURL: "", EnvToken: "tok-secret"}))
	assert.ErrorContains(t, err, "set both", "a variable set to \"\" is unset")
	_, err = ConfigFromLookup(nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)

	e, err = ConfigFromLookup(env(map[string]string{EnvToken: "tok-secret"}))
	require.NoError(t, err)
	c, err := NewClient(e.Options()...)
	require.NoError(t, err)
	assert.Equal(t, DefaultBaseURL, c.BaseURL(), "neither root: the public service")

	e, err = ConfigFromLookup(env(map[string]string{EnvBaseURL: "http://127.0.0.1:1/2.0", EnvUploadURL: "http://127.0.0.1:2/api/2.0", EnvToken: "tok-secret"}))
	require.NoError(t, err)
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("env", "config", e)
	for _, s := range []string{fmt.Sprint(e), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e), logged.String()} {
		assert.NotContains(t, s, "tok-secret")
		assert.Contains(t, s, "127.0.0.1:1")
	}

	t.Setenv(EnvBaseURL, "http://127.0.0.1:1/2.0")
	t.Setenv(EnvUploadURL, "http://127.0.0.1:2/api/2.0")
	t.Setenv(EnvToken, "tok-secret")
	c, err = NewClientFromEnv(WithUserAgent("probe"))
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:1/2.0", c.BaseURL())
	assert.Equal(t, "http://127.0.0.1:2/api/2.0", c.UploadURL())
	assert.Contains(t, c.header.Get("User-Agent"), "probe")

	t.Setenv(EnvUploadURL, "")
	_, err = NewClientFromEnv()
	assert.ErrorContains(t, err, "CMS_UPLOAD_URL")
}
