package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdminExample runs the example against its in-process reference server.
func TestAdminExample(t *testing.T) {
	t.Setenv("CMS_BASE_URL", "")
	t.Setenv("CMS_TOKEN", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"Onboarded new.hire.",
		"as admin (can run reports: false, can edit accounts: true)",
		`Uploaded "welcome.txt" as the user`,
		"Removed from group",
		"Removed 1 device pin(s)",
		"Delete without force refused: user_has_content",
		"(user gone: true)",
	} {
		assert.Contains(t, s, want)
	}
	t.Log(s)
}
