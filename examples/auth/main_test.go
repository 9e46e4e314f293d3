package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuthExample runs the example against its in-process reference server.
func TestAuthExample(t *testing.T) {
	t.Setenv("CMS_APP_CONFIG", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"secrets: REDACTED",
		"CCG: service account created folder",
		"JWT: service account reads folder",
		"JWT user token: folder",
		"As-User 2000002: reads the user's folder",
		"write refused: true",
		"Revoked downscoped token refused: true",
		"Deleted folder",
	} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "PRIVATE KEY")
	t.Log(s)
}
