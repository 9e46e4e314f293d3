package persist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The stored dump (the check mode's side of its comparison) reports a
// value of the commit log it cannot read back as an error: taking it for
// a missing record would report a difference that is not there, or hide
// one that is.
func TestStoredReportsUnreadableLogValues(t *testing.T) {
	t.Parallel()
	d := loggedDB(t, &DB{NoSync: true, CheckpointBytes: 1 << 40, cfg: Config{Kinds: []Kind{{Bucket: "items"}}}})
	require.NoError(t, d.appendLog([]logOp{{"items", "1", []byte(`{"name":"one"}`)}, {"items", "2", nil}}))
	got, err := d.Stored()
	require.NoError(t, err)
	assert.Equal(t, map[string]map[string]string{"items": {"1": `{"name":"one"}`}}, got)

	require.NoError(t, d.log.f.Close()) // its values can no longer be read
	_, err = d.Stored()
	assert.ErrorContains(t, err, "items/1")
}
