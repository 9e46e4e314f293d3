package refserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
)

// TestItemReadWaitMarks: the mark a read waits for counts the pending
// marks of the item and its ancestors, of every kind but items, versions,
// events and the server's own record, and its own transaction's marks but
// its events; a commit forgets what it covered.
func TestItemReadWaitMarks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DataDir: t.TempDir()})
	tok := e.s.UserToken()
	folder := e.createFolder(tok, "0", "f")["id"].(string)
	file := e.uploadFile(tok, folder, "a.txt", []byte("a"))["id"].(string)
	other := e.uploadFile(tok, "0", "b.txt", []byte("b"))["id"].(string)
	st := e.s.st
	committed := func() uint64 {
		return st.Persist.Committed()
	}
	require.NoError(t, e.s.db.Flush())
	base := committed()
	// wait runs a transaction that marks (kind, key) pairs, then reads
	// item id.
	wait := func(id string, marks ...state.DirtyKey) (want, last uint64) {
		st.Update(func(tx *state.Tx) {
			m0 := tx.MarkCount()
			for _, dk := range marks {
				tx.Dirty(dk.Kind, dk.Key)
			}
			last = tx.MarkCount()
			want = tx.ItemReadWait(m0, "file", id)
		})
		return want, last
	}
	want, _ := wait(file)
	assert.LessOrEqual(t, want, base, "nothing pending: no wait")

	// Another transaction's marks: of another item, of events, of the
	// server's record: a read of file does not wait for them.
	_, last := wait(other, state.DirtyKey{Kind: state.KItems, Key: other}, state.DirtyKey{Kind: state.KEvents, Key: state.EventHeadKey},
		state.DirtyKey{Kind: state.KMeta, Key: state.MetaKey})
	want, _ = wait(file)
	assert.LessOrEqual(t, want, base, "other items, events and the next id are not shown")
	// Of the file's folder: it waits.
	_, last = wait(other, state.DirtyKey{Kind: state.KItems, Key: folder})
	want, _ = wait(file)
	assert.Equal(t, last, want, "an ancestor is shown")
	// Of another kind: it waits for it.
	_, last = wait(other, state.DirtyKey{Kind: state.KCollabs, Key: "1"})
	want, _ = wait(file)
	assert.Equal(t, last, want, "access may depend on any other record")

	// Its own marks count, but its events.
	require.NoError(t, e.s.db.Flush())
	want, _ = wait(file, state.DirtyKey{Kind: state.KEvents, Key: state.EventHeadKey})
	assert.LessOrEqual(t, want, committed(), "its own event is not shown")
	want, last = wait(file, state.DirtyKey{Kind: state.KItems, Key: other})
	assert.Equal(t, last, want, "its own change of any item is")
	want, last = wait(file, state.DirtyKey{Kind: state.KMeta, Key: state.MetaKey})
	assert.Equal(t, last, want, "and of the server's record")

	// A commit covers them all: nothing is pending any more.
	require.NoError(t, e.s.db.Flush())
	want, _ = wait(file)
	assert.LessOrEqual(t, want, committed())
}
