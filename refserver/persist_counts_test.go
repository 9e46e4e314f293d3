package refserver

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/persist"
)

// schemaValue is the value of key in state.db's schema bucket, nil when
// there is none (dir's server closed).
func schemaValue(t *testing.T, dir, key string) []byte {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, persist.StateFileName), 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	var v []byte
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		v = append([]byte(nil), tx.Bucket([]byte("schema")).Get([]byte(key))...)
		return nil
	}))
	if len(v) == 0 {
		return nil
	}
	return v
}

// setSchemaValue puts key's value in state.db's schema bucket.
func setSchemaValue(t *testing.T, dir, key, val string) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, persist.StateFileName), 0o600, nil)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("schema")).Put([]byte(key), []byte(val)) }))
}

// A clean close notes how many items and versions the state has (the
// next load makes room for them at once); the next start takes the note
// away with the clean mark, and the note is only a size hint: a wrong one
// (or one that does not parse) loads the same state.
func TestPersistCleanCloseNotesCounts(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	folder := e.createFolder(U, "0", "d")["id"].(string)
	f := e.uploadFile(U, folder, "a.txt", []byte("one"))["id"].(string)
	e.uploadFile(U, "0", "b.txt", []byte("two"))
	resp, body := e.uploadRaw(U, e.upload("/files/"+f+"/content"), `{"name":"a.txt"}`, []byte("one, again"), nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	require.NoError(t, e.s.Close())

	var counts struct{ Items, Versions int }
	require.NoError(t, json.Unmarshal(schemaValue(t, dir, "counts"), &counts)) // internal/persist's countsKey
	assert.Equal(t, 3, counts.Items)                                           // the folder and the two files
	assert.Equal(t, 3, counts.Versions)

	listing := func(e *env) string {
		_, body := e.do("GET", e.api("/folders/0/items?fields=name,size,file_version"), U, nil, nil)
		_, sub := e.do("GET", e.api("/folders/"+folder+"/items?fields=name,size,file_version"), U, nil, nil)
		_, versions := e.do("GET", e.api("/files/"+f+"/versions"), U, nil, nil)
		return string(body) + string(sub) + string(versions)
	}
	e2 := newEnv(t, Options{DataDir: dir})
	want := listing(e2)
	require.NoError(t, e2.s.Close())
	for _, hint := range []string{`{"Items":1,"Versions":1}`, `{"Items":1000,"Versions":0}`, `not json`} {
		setSchemaValue(t, dir, "counts", hint)
		e := newEnv(t, Options{DataDir: dir})
		assert.Nil(t, schemaValueOpen(t, e), "the start takes the note away")
		assert.Equal(t, want, listing(e), "with the hint %s", hint)
		require.NoError(t, e.s.Close())
	}
}

// schemaValueOpen is the counts note in the schema bucket of e's open
// database.
func schemaValueOpen(t *testing.T, e *env) []byte {
	var v []byte
	require.NoError(t, e.s.db.Bolt.View(func(tx *bolt.Tx) error {
		v = tx.Bucket([]byte("schema")).Get([]byte("counts"))
		return nil
	}))
	return v
}
