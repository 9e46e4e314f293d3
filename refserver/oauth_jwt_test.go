package refserver

import (
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJWTKid: kid is optional (any registered key may verify an assertion
// without one, as Box's Node SDKs send it); an unknown kid is refused.
func TestJWTKid(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	keyA, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	keyB, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	stranger, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	app := e.registerApp(App{PublicKeys: map[string]*rsa.PublicKey{"ka": &keyA.PublicKey, "kb": &keyB.PublicKey}})

	n := 0
	sign := func(key *rsa.PrivateKey, kid, aud string) string {
		n++
		if aud == "" {
			aud = e.s.TokenURL()
		}
		tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
			"iss": app.ClientID, "aud": aud, "sub": e.s.EnterpriseID(), "box_sub_type": "enterprise",
			"exp": e.clock.Now().Add(30 * time.Second).Unix(), "jti": fmt.Sprintf("jti-0123456789abcdef-%d", n),
		})
		if kid != "" {
			tok.Header["kid"] = kid
		}
		s, err := tok.SignedString(key)
		require.NoError(t, err)
		return s
	}
	grant := func(assertion string) (int, map[string]any) {
		resp, body := e.form("/oauth2/token", url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"},
			"assertion": {assertion}, "client_id": {app.ClientID}, "client_secret": {app.ClientSecret}})
		return resp.StatusCode, body
	}
	for name, c := range map[string]struct {
		key     *rsa.PrivateKey
		kid     string
		aud     string
		status  int
		message string
	}{
		"kid of the signing key":      {keyA, "ka", "", 200, ""},
		"no kid, first key signs":     {keyA, "", "", 200, ""},
		"no kid, second key signs":    {keyB, "", "", 200, ""},
		"no kid, no key verifies":     {stranger, "", "", 400, "Signature verification"},
		"unknown kid":                 {keyA, "nope", "", 400, "'kid'"},
		"kid of another key":          {keyA, "kb", "", 400, "Signature verification"},
		"unknown kid, key registered": {keyB, "nope", "", 400, "'kid'"},
		"the service's audience":      {keyA, "", "https://api.box.com/oauth2/token", 200, ""},
		"another audience":            {keyA, "", "https://example.com/oauth2/token", 400, "'aud'"},
	} {
		status, body := grant(sign(c.key, c.kid, c.aud))
		require.Equal(t, c.status, status, "%s: %v", name, body)
		if c.status == 200 {
			assert.NotEmpty(t, body["access_token"], name)
			continue
		}
		assert.Equal(t, "invalid_grant", body["error"], name)
		assert.Contains(t, body["error_description"], c.message, name)
	}
}
