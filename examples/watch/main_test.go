package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWatch runs the example against its in-process reference server: the
// event stream and the verified webhook deliveries both show the upload
// and the rename.
func TestWatch(t *testing.T) {
	t.Setenv("CMS_BASE_URL", "")
	t.Setenv("CMS_TOKEN", "")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	s := out.String()
	for _, want := range []string{
		"Connected to a reference server",
		"Watching \"watched-",
		"event: ITEM_UPLOAD notes.txt",
		"event: ITEM_RENAME minutes.txt",
		"webhook: FILE.UPLOADED notes.txt (verified)",
		"webhook: FILE.RENAMED minutes.txt (verified)",
	} {
		assert.Contains(t, s, want)
	}
}
