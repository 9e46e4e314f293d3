package persist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/contentapi/cms/refserver/internal/blob"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logOf is a log file's bytes: the magic, then the frames of each list of
// ops. It checks appendFrame's offsets: each value is where it says.
func logOf(frames ...[]logOp) []byte {
	b := []byte(logMagic)
	var valAt []int
	for _, ops := range frames {
		b, valAt = appendFrame(b, ops, valAt[:0])
		for i, op := range ops {
			if !bytes.Equal(b[valAt[i]:valAt[i]+len(op.val)], op.val) {
				panic(fmt.Sprintf("appendFrame: op %d's value is not at %d", i, valAt[i]))
			}
		}
	}
	return b
}

// errValueAt: decodeOps told a value's place wrong.
var errValueAt = errors.New("a value is not where decodeOps says")

// readAll reads the frames of b, checking that each value is where
// walkLog says (what the overlays note).
func readAll(b []byte) ([][]logOp, error) {
	var out [][]logOp
	err := walkLog(b, func(ops []logOp, payload int64, valAt []int) error {
		c := make([]logOp, len(ops))
		for i, op := range ops {
			at := payload + int64(valAt[i])
			if !bytes.Equal(b[at:at+int64(len(op.val))], op.val) {
				return errValueAt
			}
			c[i] = logOp{op.bucket, op.key, bytes.Clone(op.val)}
			if op.val != nil && c[i].val == nil {
				c[i].val = []byte{}
			}
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// Frames read back as written: a put of an empty value stays a put (not
// nil), a delete stays nil, and the zeros past the last frame end the
// log.
func TestCommitLogFrames(t *testing.T) {
	frames := [][]logOp{
		{{"items", "1", []byte(`{"a":1}`)}, {"small_blobs", "s1", []byte{}}, {"events", "7", nil}},
		{{"items", "2", bytes.Repeat([]byte("x"), 300)}},
	}
	b := logOf(frames...)
	got, err := readAll(b)
	require.NoError(t, err)
	assert.Equal(t, frames, got)
	assert.NotNil(t, got[0][1].val, "an empty blob is a put")
	assert.Nil(t, got[0][2].val, "a delete")

	got, err = readAll(append(bytes.Clone(b), make([]byte, 4096)...))
	require.NoError(t, err, "zeros end the frames")
	assert.Equal(t, frames, got)
}

// A frame cut short or changed after it was written (a write the process
// did not finish) ends the log with errTorn, after the whole frames
// before it.
func TestCommitLogTornFrame(t *testing.T) {
	first := []logOp{{"items", "1", []byte("one")}}
	whole := logOf(first, []logOp{{"items", "2", []byte("two")}})
	for name, b := range map[string][]byte{
		"cut in the header":  whole[:len(logOf(first))+3],
		"cut in the payload": whole[:len(whole)-2],
		"a changed byte":     append(bytes.Clone(whole[:len(whole)-1]), whole[len(whole)-1]^1),
	} {
		got, err := readAll(b)
		assert.ErrorIs(t, err, errTorn, name)
		assert.Equal(t, [][]logOp{first}, got, name)
	}
	_, err := readAll([]byte("not a log at all"))
	assert.Error(t, err)
	assert.False(t, errors.Is(err, errTorn), "another file is not a torn log")
	got, err := readAll([]byte(logMagic[:3]))
	assert.ErrorIs(t, err, errTorn, "created, never written")
	assert.Empty(t, got)
}

// FuzzReadLog: whatever a log file holds, reading it returns whole frames
// or an error, never panics, and a log written by appendFrame reads back.
func FuzzReadLog(f *testing.F) {
	f.Add(logOf([]logOp{{"items", "1", []byte("v")}}, []logOp{{"small_blobs", "s", nil}}))
	f.Add([]byte(logMagic + "\x05\x00\x00\x00\x00\x00\x00\x00\x01\x01a\x01b"))
	f.Add([]byte(logMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		frames, err := readAll(b)
		if errors.Is(err, errValueAt) {
			t.Fatal(err)
		}
		if err != nil {
			return
		}
		again, err := readAll(logOf(frames...))
		if err != nil {
			t.Fatalf("a log written from what was read does not read: %v", err)
		}
		if len(again) != len(frames) {
			t.Fatalf("read %d frames, then %d", len(frames), len(again))
		}
	})
}

// An event record encodes itself exactly as encoding/json would, its
// sources being what encoding/json made (state.RecordJSON).
func TestEventRecordEncoding(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 123456789, time.UTC)
	source, err := json.Marshal(map[string]any{"type": "file", "name": "a<b>&\"c\"\u2028"})
	require.NoError(t, err)
	for _, r := range []recEvent{
		{Seq: 7},
		{Seq: 8, ID: "e1", Type: "ITEM_UPLOAD", By: "2000002", At: at, ItemID: "100", OwnerID: "2000002",
			Source: source, AdminSource: json.RawMessage(`{"x":1}`), Under: []string{"0", "12", "a\"b"}},
		{Seq: 10, ItemID: "101", Under: []string{}},
		{Seq: 9, Admin: "a\u2028b\x01é\xff", At: at.In(time.FixedZone("x", 3600))},
	} {
		want, err := json.Marshal(r)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(r.appendRecord(nil)))
	}
}

// A recent item's record encodes itself exactly as encoding/json would.
func TestRecentItemRecordEncoding(t *testing.T) {
	at := time.Date(2026, 11, 28, 9, 0, 0, 120000000, time.UTC)
	for _, r := range []recRecentItem{
		{},
		{Interaction: "item_preview", At: at, Seq: 42},
		{Interaction: "a<b>&\"c\"\u2028\x01é\xff", At: at.In(time.FixedZone("x", -7200)), Seq: -1},
	} {
		want, err := json.Marshal(r)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(r.appendRecord(nil)))
	}
}

// A commit waits for the requests still in their handler, up to
// CommitDelay, and not at all when there is none.
func TestCommitGathersRequestsInHandler(t *testing.T) {
	var slept []time.Duration
	d := &DB{CommitDelay: time.Millisecond}
	d.sleep = func(step time.Duration) {
		slept = append(slept, step)
		if len(slept) == 3 {
			d.Leave() // the last request in a handler reaches Await
		}
	}

	d.gather()
	assert.Empty(t, slept, "no request in a handler: no wait")

	d.Enter()
	d.Enter()
	d.Leave()
	d.gather()
	assert.Len(t, slept, 3, "until the request in its handler is done")

	slept = nil
	d.sleep = func(step time.Duration) { slept = append(slept, step) }
	d.Enter() // and it never ends
	d.gather()
	var total time.Duration
	for _, s := range slept {
		total += s
	}
	assert.Equal(t, d.CommitDelay, total, "no longer than CommitDelay")

	slept = nil
	d.CommitDelay = 0
	d.gather()
	assert.Empty(t, slept, "CommitDelay 0: no wait")
}

// With BusyClients or more clients sending requests, a commit waits
// BusyCommitDelay in full, even with no request in a handler; with fewer,
// it gathers as before.
func TestCommitWaitsInFullForManyClients(t *testing.T) {
	var slept []time.Duration
	clients := 0
	d := &DB{CommitDelay: time.Millisecond, BusyClients: 24, BusyCommitDelay: 2 * time.Millisecond,
		Clients: func() int { return clients }}
	d.sleep = func(step time.Duration) { slept = append(slept, step) }

	clients = 23
	d.gather()
	assert.Empty(t, slept, "23 clients, none in a handler: no wait")

	clients = 24
	d.gather()
	assert.Equal(t, []time.Duration{2 * time.Millisecond}, slept, "24 clients: the busy delay, in full")

	slept = nil
	d.Enter() // a request in its handler that never ends
	d.gather()
	assert.Equal(t, []time.Duration{2 * time.Millisecond}, slept, "no longer than the busy delay")
	d.Leave()

	slept = nil
	d.BusyCommitDelay = 0
	d.gather()
	assert.Empty(t, slept, "BusyCommitDelay 0: never in full")

	d.BusyCommitDelay, d.Clients = 2*time.Millisecond, nil
	d.gather()
	assert.Empty(t, slept, "no count of clients: never in full")
}

// The server's own record encodes itself as encoding/json would: every
// commit that draws an id writes it.
func TestMetaRecordEncoding(t *testing.T) {
	for _, r := range []RecMeta{
		{},
		{EnterpriseID: "e1", SignKey: []byte{}, NextID: 42, AdminToken: "a", UserToken: "u", AppToken: "p"},
		{EnterpriseID: "a<b>&\"c\"\u2028\x01é\xff", SignKey: []byte("\x00\x01\xfe\xffsecret-key-of-32-bytes.........."), NextID: -7,
			AdminToken: "t\\1", UserToken: "t/2", AppToken: "t\t3", WebhookPrimaryKey: "k1", WebhookSecondaryKey: "k<2>",
			SeparateIDSpaces: true, NextFolderID: 1 << 40},
		{WebhookSecondaryKey: "only", NextFolderID: 3},
	} {
		want, err := json.Marshal(r)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(r.appendRecord(nil)))
	}
}

// BenchmarkCommitRecordEncoding: the records a busy server's commits write
// most (BenchmarkServerLoad: events, versions, recent items and the meta
// record), each as one commit encodes it (appendRecord(nil)).
func BenchmarkCommitRecordEncoding(b *testing.B) {
	at := time.Date(2026, 11, 28, 9, 0, 0, 120000000, time.UTC)
	source := json.RawMessage(`{"type":"file","id":"100000012345","file_version":{"type":"file_version","id":"100000012346","sha1":"da39a3ee5e6b4b0d3255bfef95601890afd80709"},` +
		`"sequence_id":"3","etag":"3","sha1":"da39a3ee5e6b4b0d3255bfef95601890afd80709","name":"f042.txt","description":"","size":1024,` +
		`"path_collection":{"total_count":2,"entries":[{"type":"folder","id":"0","sequence_id":null,"etag":null,"name":"All Files"},` +
		`{"type":"folder","id":"100000000101","sequence_id":"0","etag":"0","name":"load"}]},"created_at":"2026-11-28T09:00:00Z",` +
		`"modified_at":"2026-11-28T09:00:00Z","trashed_at":null,"purged_at":null,"content_created_at":"2026-11-28T09:00:00Z",` +
		`"content_modified_at":"2026-11-28T09:00:00Z","created_by":{"type":"user","id":"2000002","name":"Load User","login":"user@example.com"},` +
		`"modified_by":{"type":"user","id":"2000002","name":"Load User","login":"user@example.com"},"owned_by":{"type":"user","id":"2000002",` +
		`"name":"Load User","login":"user@example.com"},"shared_link":null,"parent":{"type":"folder","id":"100000000101","sequence_id":"0",` +
		`"etag":"0","name":"load"},"item_status":"active"}`)
	records := []struct {
		name string
		r    recordAppender
	}{
		{"event", recEvent{Seq: 123456, ID: "e-123456", Type: "ITEM_UPLOAD", By: "2000002", At: at, ItemID: "f100000012345", OwnerID: "2000002",
			Source: source, Under: []string{"0", "100000000101"}}},
		{"version", recVersion{ID: "100000012346", Blob: recBlobOf(blob.Info{ID: "s-100000012347", Size: 1024, SHA1: "da39a3ee5e6b4b0d3255bfef95601890afd80709"}),
			CreatedAt: at, By: "2000002"}},
		{"recent", recRecentItem{Interaction: "item_preview", At: at, Seq: 42}},
		{"meta", RecMeta{EnterpriseID: "11446498", SignKey: make([]byte, 32), NextID: 100000012347,
			AdminToken: "admin-token-0123456789abcdef", UserToken: "user-token-0123456789abcdef", AppToken: "app-token-0123456789abcdef"}},
	}
	for _, rec := range records {
		b.Run(rec.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = rec.r.appendRecord(nil)
			}
		})
	}
}

// The overlays hold where each value is in its log, not the value: a
// lookup reads it back from the log file, so what the commit encoded can
// go (here: be overwritten) once its frame is written, and the heap does
// not hold the log's records until their checkpoint.
func TestCommitLogOverlayReadsTheLog(t *testing.T) {
	d := &DB{NoSync: true, CheckpointBytes: 1 << 40}
	require.NoError(t, d.startLog(t.TempDir(), 0))
	defer func() { _ = d.log.f.Close(); _ = d.log.syncer.Close() }()
	one, two := []byte(`{"name":"one"}`), bytes.Repeat([]byte("b"), 9000)
	require.NoError(t, d.appendLog([]logOp{{"items", "1", one}, {"small_blobs", "s1", two}, {"items", "gone", nil}}))
	clear(one)
	clear(two)
	newer := []byte(`{"name":"one, renamed"}`)
	require.NoError(t, d.appendLog([]logOp{{"items", "1", newer}, {"small_blobs", "empty", []byte{}}}))
	clear(newer)

	for _, c := range []struct {
		bucket, key string
		val         []byte
		found       bool
	}{
		{"items", "1", []byte(`{"name":"one, renamed"}`), true},
		{"small_blobs", "s1", bytes.Repeat([]byte("b"), 9000), true},
		{"small_blobs", "empty", []byte{}, true},
		{"items", "gone", nil, true}, // a delete
		{"items", "2", nil, false},
	} {
		val, found, err := d.log.lookup(c.bucket, c.key)
		require.NoError(t, err)
		assert.Equal(t, c.found, found, c.key)
		assert.Equal(t, c.val, val, c.key)
	}
}
