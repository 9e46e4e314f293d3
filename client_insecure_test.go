package cms

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainHTTPOnlyOnLoopback: a plain http root is accepted on loopback
// hosts, refused elsewhere (the token would travel unencrypted) unless the
// caller opts in with WithInsecureHTTP.
func TestPlainHTTPOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"localhost", "LOCALHOST.", "127.0.0.1", "127.8.9.10", "[::1]", "[::ffff:127.0.0.1]"} {
		_, err := NewClient(WithToken("t"), WithURLs("http://"+host+":8080/2.0", "http://"+host+":8081/api/2.0"))
		assert.NoError(t, err, host)
	}
	for _, roots := range [][2]string{
		{"http://api.example.com/2.0", "https://upload.example.com/api/2.0"},
		{"https://api.example.com/2.0", "http://upload.example.com/api/2.0"},
		{"http://10.0.0.1/2.0", "http://10.0.0.1/api/2.0"},
		{"http://localhost.example.com/2.0", "http://127.0.0.1/api/2.0"},
		{"http://[::2]/2.0", "http://127.0.0.1/api/2.0"},
	} {
		_, err := NewClient(WithToken("secret-token"), WithURLs(roots[0], roots[1]))
		require.Error(t, err, roots)
		assert.Contains(t, err.Error(), "plain http on a host that is not loopback")
		assert.Contains(t, err.Error(), "WithInsecureHTTP")
		assert.NotContains(t, err.Error(), "secret-token")

		c, err := NewClient(WithToken("t"), WithURLs(roots[0], roots[1]), WithInsecureHTTP())
		require.NoError(t, err, roots)
		// A clone keeps the opt-in.
		_, err = c.Clone(WithUserAgent("x"))
		assert.NoError(t, err)
	}
}
