package refserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/persist"
)

// logFiles lists the commit logs of dir.
func logFiles(t *testing.T, dir string) []string {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "state-*.log"))
	require.NoError(t, err)
	return logs
}

// churn makes n changes of every kind the load test makes: uploads (small
// blobs), new folders, new versions; it returns the files and their last
// content.
func churn(e *env, n int) map[string]string {
	U := e.s.UserToken()
	files := map[string]string{}
	f := e.uploadFile(U, "0", "versions.txt", []byte("v0"))["id"].(string)
	files[f] = "v0"
	for i := range n {
		id := e.uploadFile(U, "0", fmt.Sprintf("f%03d.txt", i), []byte(fmt.Sprint("content ", i)))["id"].(string)
		files[id] = fmt.Sprint("content ", i)
		e.createFolder(U, "0", fmt.Sprintf("d%03d", i))
		v := fmt.Sprint("v", i+1)
		resp, body := e.uploadRaw(U, e.upload("/files/"+f+"/content"), `{}`, []byte(v), nil)
		require.Equal(e.t, 200, resp.StatusCode, "%v", body)
		files[f] = v
	}
	return files
}

// A crash loses nothing answered, across many checkpoints: the commit
// logs that state.db lacks are replayed at the next start, small blobs
// included, and then deleted.
func TestPersistCommitLogReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	e.s.db.SetCheckpointBytes(4 << 10) // a checkpoint every few commits
	files := churn(e, 40)
	require.NotEmpty(t, logFiles(t, dir), "the last commits are in a log")
	before := lockedDump(e.s)
	assert.Equal(t, before, storedDump(t, e.s), "state.db and the logs hold the live records")
	crash(t, e.s)

	e2 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, before, lockedDump(e2.s))
	U := e2.s.UserToken()
	for id, content := range files {
		assert.Equal(t, content, string(e2.download(U, "/files/"+id+"/content")), id)
	}
	logs := logFiles(t, dir)
	require.Len(t, logs, 1, "the replayed logs are gone; the new server's own is there")
	assert.Equal(t, "state-", filepath.Base(logs[0])[:6])
}

// A clean stop writes the commit log to state.db: the directory holds
// state.db and blobs only, and state.db alone restores the state.
func TestPersistCloseLeavesNoLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	e.s.db.SetCheckpointBytes(4 << 10)
	churn(e, 10)
	before := lockedDump(e.s)
	require.NoError(t, e.s.Close())
	assert.Empty(t, logFiles(t, dir))

	db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	var items int
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		items = tx.Bucket([]byte("items")).Stats().KeyN
		return nil
	}))
	require.NoError(t, db.Close())
	assert.Len(t, before["items"], items)
	e2 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, before, lockedDump(e2.s))
}

// A frame the process was writing when it died (never answered: its sync
// had not returned) is dropped at the next start; the frames before it
// are kept. Damage anywhere but at the end of the last log is an error.
func TestPersistCommitLogTornTail(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	churn(e, 3)
	before := lockedDump(e.s)
	crash(t, e.s)
	logs := logFiles(t, dir)
	require.Len(t, logs, 1)
	frames := logEnd(t, logs[0])
	f, err := os.OpenFile(logs[0], os.O_RDWR, 0)
	require.NoError(t, err)
	// Half a frame: a length, a checksum and some of a payload.
	_, err = f.WriteAt([]byte{200, 0, 0, 0, 1, 2, 3, 4, 1, 5, 'i', 't', 'e'}, frames)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	e2 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, before, lockedDump(e2.s))
	crash(t, e2.s)

	// The same damage in a log that another follows.
	logs = logFiles(t, dir)
	require.Len(t, logs, 1)
	frames = logEnd(t, logs[0])
	f, err = os.OpenFile(logs[0], os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte{200, 0, 0, 0, 1, 2, 3, 4}, frames)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	next := strings.Replace(logs[0], filepath.Base(logs[0]), "state-99999999.log", 1)
	require.NoError(t, os.WriteFile(next, []byte("cmslog1\n"), 0o600))
	_, err = New(Options{DataDir: dir})
	require.ErrorContains(t, err, "commit log")
}

// logEnd is the offset where the frames of the log at path end (its first
// zero length).
func logEnd(t *testing.T, path string) int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	off := int64(len("cmslog1\n"))
	for {
		n := int64(b[off]) | int64(b[off+1])<<8 | int64(b[off+2])<<16 | int64(b[off+3])<<24
		if n == 0 {
			return off
		}
		off += 8 + n
	}
}

// A database of schema 2 (before the commit log) is read and rewritten as
// the current schema, which a server of schema 2 refuses: it would not
// replay the logs.
func TestPersistSchemaUpgradeFrom2(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	churn(e, 2)
	before := lockedDump(e.s)
	require.NoError(t, e.s.Close())
	db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("schema"))
		if err := b.Delete([]byte("log")); err != nil {
			return err
		}
		return b.Put([]byte("version"), []byte("2"))
	}))
	require.NoError(t, db.Close())

	e2 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, before, lockedDump(e2.s))
	require.NoError(t, e2.s.Close())
	db, err = bolt.Open(filepath.Join(dir, StateFileName), 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		assert.Equal(t, "4", string(tx.Bucket([]byte("schema")).Get([]byte("version"))))
		return nil
	}))
}

// A database of schema 3 (a file's versions inside its item record) is
// read and rewritten whole in the current layout: item records without
// versions, each version a record of its own.
func TestPersistSchemaUpgradeFrom3(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	files := churn(e, 3)
	U := e.s.UserToken()
	var versioned string
	for id, content := range files {
		if content == "v3" {
			versioned = id
		}
	}
	vs := e.getJSON(U, "/files/"+versioned+"/versions")["entries"].([]any)
	e.deleteOK(U, "/files/"+versioned+"/versions/"+vs[1].(map[string]any)["id"].(string)) // a version in the trash
	before := lockedDump(e.s)
	require.NoError(t, e.s.Close())
	versions := downgradeToSchema3(t, filepath.Join(dir, StateFileName))
	require.Equal(t, 4+3, versions, "versions.txt's four and one of each other file")

	e2 := newEnv(t, Options{DataDir: dir})
	require.True(t, e2.s.Restored())
	assert.Equal(t, before, lockedDump(e2.s))
	assert.Equal(t, before, storedDump(t, e2.s), "every record is rewritten in the new layout")
	assert.Len(t, before["file_versions"], versions)
	for id, content := range files {
		assert.Equal(t, content, string(e2.download(U, "/files/"+id+"/content")))
	}
	require.NoError(t, e2.s.db.Bolt.View(func(tx *bolt.Tx) error {
		assert.Equal(t, "4", string(tx.Bucket([]byte("schema")).Get([]byte("version"))))
		return nil
	}))
}

// downgradeToSchema3 rewrites the state database at path as a server of
// schema 3 wrote it: each file's versions (in position order) inside its
// item record, "Versions": null in the others, no file_versions bucket. It
// returns the number of versions moved.
func downgradeToSchema3(t *testing.T, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	defer db.Close()
	moved := 0
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		byFile := map[string][]json.RawMessage{}
		require.NoError(t, tx.Bucket([]byte("file_versions")).ForEach(func(k, v []byte) error {
			id, pos, ok := strings.Cut(string(k), "/")
			require.True(t, ok, "key %s", k)
			n, err := strconv.Atoi(pos)
			require.NoError(t, err)
			for len(byFile[id]) < n {
				byFile[id] = append(byFile[id], nil)
			}
			byFile[id][n-1] = append(json.RawMessage(nil), v...)
			moved++
			return nil
		}))
		require.NoError(t, tx.DeleteBucket([]byte("file_versions")))
		items := tx.Bucket([]byte("items"))
		var rewrite [][2][]byte
		require.NoError(t, items.ForEach(func(k, v []byte) error {
			var r map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(v, &r))
			_, hadVersions := r["Versions"]
			assert.False(t, hadVersions, "item %s: the current layout keeps no versions in the item", k)
			r["Versions"] = json.RawMessage("null")
			if vs := byFile[string(k)]; vs != nil {
				b, err := json.Marshal(vs)
				require.NoError(t, err)
				r["Versions"] = b
			}
			b, err := json.Marshal(r)
			require.NoError(t, err)
			rewrite = append(rewrite, [2][]byte{append([]byte(nil), k...), b})
			return nil
		}))
		for _, kv := range rewrite {
			require.NoError(t, items.Put(kv[0], kv[1]))
		}
		return tx.Bucket([]byte("schema")).Put([]byte("version"), []byte("3"))
	}))
	return moved
}

// A version record whose key claims a position far past its file's
// others (a damaged state.db) is refused with an error naming the first
// missing position, without allocating for the position it claims (it
// used to grow the file's versions to that length: 8 TB here).
func TestPersistVersionPositionGap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	id := e.uploadFile(U, "0", "gap.txt", []byte("v1"))["id"].(string)
	resp, body := e.uploadRaw(U, e.upload("/files/"+id+"/content"), `{}`, []byte("v2"), nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	require.NoError(t, e.s.Close())

	db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("file_versions"))
		v := append([]byte(nil), b.Get([]byte(id+"/2"))...)
		require.NotEmpty(t, v)
		require.NoError(t, b.Delete([]byte(id+"/2")))
		return b.Put([]byte(id+"/"+strconv.Itoa(1<<40)), v)
	}))
	require.NoError(t, db.Close())

	_, err = New(Options{DataDir: dir})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "file "+id+" has no version at position 2")
}

// A server started with a shorter event history than its data directory
// holds deletes the stored events it leaves out (they used to stay in
// state.db for good, dropped again at every start).
func TestPersistShorterHistoryDeletesStoredEvents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir, EventHistory: 10})
	for i := range 8 {
		e.createFolder(e.s.UserToken(), "0", fmt.Sprintf("f%d", i))
	}
	require.NoError(t, e.s.Close())
	storedEvents := func() int {
		db, err := bolt.Open(filepath.Join(dir, StateFileName), 0o600, &bolt.Options{ReadOnly: true})
		require.NoError(t, err)
		defer db.Close()
		var n int
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			n = tx.Bucket([]byte(persist.EventsBucket)).Stats().KeyN
			return nil
		}))
		return n
	}
	require.Equal(t, 8+1, storedEvents(), "eight events and the head position")

	e2 := newEnv(t, Options{DataDir: dir, EventHistory: 3})
	e2.createFolder(e2.s.UserToken(), "0", "after")
	require.NoError(t, e2.s.Close())
	assert.Equal(t, 3+1, storedEvents(), "the newest three and the head position")
}

// A commit whose frame is larger than the buffer a log keeps (1 MiB) does
// not leave the log's end where it began: the next commit's frame follows
// it, and a crash loses neither (the next frame used to overwrite it, and
// the replay stopped at the torn rest).
func TestPersistCommitLogLargeFrame(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	fillFiles(t, e.s, 1700)
	e.createFolder(e.s.UserToken(), "0", "first") // its commit: the records and small blobs of 1,700 files, over 1 MiB
	e.createFolder(e.s.UserToken(), "0", "after")
	before := lockedDump(e.s)
	crash(t, e.s)

	e2 := newEnv(t, Options{DataDir: dir})
	assert.Equal(t, before, lockedDump(e2.s))
}
