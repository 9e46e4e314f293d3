package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSharing runs the example against its in-process reference server and
// checks what it reports.
func TestSharing(t *testing.T) {
	t.Setenv("CMS_BASE_URL", "")
	t.Setenv("CMS_TOKEN", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"Connected to a reference server",
		"with colleague@cms.test as editor (accepted)",
		"The colleague uploaded \"proposal.md\" and two new versions",
		"version 2: 8 bytes by colleague@cms.test",
		"version 1: 8 bytes by colleague@cms.test",
		"The colleague's rename while locked refused: true",
		"Promoted version 2: the file is now version 4",
		"Commented:",
		"Shared link with a password: true",
		"Read through the link: proposal.md",
		"After the collaboration ends, the colleague finds the file: false",
		"for good",
	} {
		assert.Contains(t, s, want)
	}
}
