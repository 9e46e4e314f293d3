package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMetadataExample runs the program against its in-process reference
// server and checks what it reports.
func TestMetadataExample(t *testing.T) {
	t.Setenv("CMS_BASE_URL", "")
	t.Setenv("CMS_TOKEN", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"Connected to a reference server",
		"with 5 fields",
		"(equal: true)",
		"Optimistic update applied: 4 operations, version 1",
		"A writer with a stale copy is refused: true",
		"Upserted: amount 999.99, status kept \"signed\"",
		"Page 1: 5 entries", "Page 2: 5 entries", "Page 3: 1 entries",
		"contract-11.txt  Customer 11    12003.00",
		"Query matched 11 items over 3 pages",
		"Deleted template",
	} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "Could not")
}
