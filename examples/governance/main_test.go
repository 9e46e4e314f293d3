package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGovernance runs the example against its in-process reference server
// and checks what it reports.
func TestGovernance(t *testing.T) {
	t.Setenv("CMS_BASE_URL", "")
	t.Setenv("CMS_TOKEN", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"Connected to a reference server",
		": 30 days, then remove_retention",
		"of \"contract.txt\" retained by \"Contracts ",
		"Permanent delete refused while retained: true",
		"is active",
		"of \"contract.txt\" is on hold",
		"Release accepted: true",
		"is released",
		"Retention lifted, folder deleted",
	} {
		assert.Contains(t, s, want)
	}
}
