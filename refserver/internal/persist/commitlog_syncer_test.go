package persist

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// A checkpoint starts the next log with the syncer the log had: closing
// one destroys its aio context, which takes 30-40 ms (an RCU grace
// period), and a checkpoint starts under the commit lock, so each one
// held up every commit that long. The values of every log stay readable
// and land in state.db.
func TestCheckpointsKeepTheLogSyncer(t *testing.T) {
	t.Parallel()
	d := loggedDB(t, &DB{CheckpointBytes: 256})
	db := d.Bolt
	syncer := d.log.syncer
	for i := range 6 {
		require.NoError(t, d.appendLog([]logOp{{"items", fmt.Sprint(i), []byte(fmt.Sprintf(`{"n":%d,"pad":"%0300d"}`, i, 0))}}))
		require.NotNil(t, d.log.ckpt, "frame %d: a checkpoint started", i)
		<-d.log.ckpt
		require.True(t, d.log.finished(), "frame %d: %v", i, d.log.broken)
		assert.Same(t, syncer, d.log.syncer, "frame %d: the next log is synced by the same syncer", i)
	}
	assert.EqualValues(t, 7, d.log.active.log, "six checkpoints, six new logs")
	require.NoError(t, d.closeLog(true))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		assert.Equal(t, 6, tx.Bucket([]byte("items")).Stats().KeyN)
		return nil
	}))
}

// loggedDB is d with a state.db and a commit log in a directory of its
// own, both closed when the test ends.
func loggedDB(t *testing.T, d *DB) *DB {
	t.Helper()
	dir := t.TempDir()
	db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	d.Bolt = db
	require.NoError(t, d.startLog(dir, 0))
	t.Cleanup(func() { _ = d.log.syncer.Close() })
	return d
}
