package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReview runs the example against its in-process reference server and
// checks what it reports.
func TestReview(t *testing.T) {
	t.Setenv("CMS_BASE_URL", "")
	t.Setenv("CMS_TOKEN", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"Connected to a reference server",
		"Created review task",
		"Assigned user@cms.test and admin@cms.test",
		"Completing a review refused before sending: true",
		"After the author's approval, completed: false",
		"After the reviewer's answer, completed: true",
		"approved",
		"rejected",
		`"Needs a diagram"`,
		"New assignee on a completed task refused: true",
		"Deleted the task",
		"for good",
	} {
		assert.Contains(t, s, want)
	}
}
