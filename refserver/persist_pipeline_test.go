package refserver

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// TestPersistRestoreInBatches: a state with more items, versions and
// events than a batch of the load's pipeline holds (records decoded on a
// goroutine of their own, restored in key order) comes back whole, its
// derived indexes as they were; a damaged record in a later batch fails
// the start-up, named as before.
func TestPersistRestoreInBatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := New(Options{DataDir: dir})
	require.NoError(t, err)
	fillFiles(t, s, 1700)
	want, wantDerived := lockedDump(s), derivedDump(s)
	require.NoError(t, s.Close())

	s2, err := New(Options{DataDir: dir})
	require.NoError(t, err)
	assert.Equal(t, want, lockedDump(s2), "restored records")
	assert.Equal(t, wantDerived, derivedDump(s2), "rebuilt indexes")
	require.NoError(t, s2.Close())

	db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, nil)
	require.NoError(t, err)
	var key string
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("file_versions"))
		c := b.Cursor()
		k, _ := c.First()
		for range 1200 {
			k, _ = c.Next()
		}
		key = string(k)
		return b.Put(k, []byte(`{"ID":"v","Unknown":1}`))
	}))
	require.NoError(t, db.Close())
	_, err = New(Options{DataDir: dir})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "state record file_versions/"+key+": json: unknown field \"Unknown\"")
}
