package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuickstart runs the README's first command against its in-process
// reference server and checks what it reports.
func TestQuickstart(t *testing.T) {
	t.Setenv("CMS_BASE_URL", "")
	t.Setenv("CMS_TOKEN", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"Connected to a reference server",
		"Uploaded \"hello.txt\"",
		"Upload with a stale etag refused: true",
		"SHA1 verified, content matches: true",
		"part 8/8, 100%",
		"Renamed it to \"greeting.txt\"",
		"Shared link (open access): https://",
		"Invited admin@cms.test as editor (accepted)",
		"Search found file \"greeting.txt\"",
		"(matches source: true)",
		"file   ", "big.bin", "greeting.txt",
		"Events since the start: ITEM_CREATE, ITEM_UPLOAD", "ITEM_RENAME", "COLLAB_ADD_COLLABORATOR",
		"Deleted folder",
	} {
		assert.Contains(t, s, want)
	}
}
