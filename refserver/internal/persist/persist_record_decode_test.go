package persist

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// strictJSON decodes b into v as KindOf reads a record with encoding/json.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// checkDecode: when the fast path reads b, encoding/json reads it too, to
// the same record.
func checkDecode[R any, P interface {
	*R
	recordDecoder
}](t *testing.T, b []byte) bool {
	t.Helper()
	var fast, slow R
	if !P(&fast).decodeRecord(b) {
		return false
	}
	if err := strictJSON(b, &slow); err != nil {
		t.Fatalf("the fast path read %q, encoding/json refuses it: %v", b, err)
	}
	if !assert.Equal(t, slow, fast, "%s", b) {
		t.FailNow()
	}
	// A scanner that read other records first (a load's batch) reads it
	// the same.
	var shared R
	ok := fastDecoder[R]()(primedScanner(t), b, &shared)
	if !assert.True(t, ok, "%s", b) || !assert.Equal(t, slow, shared, "after other records: %s", b) {
		t.FailNow()
	}
	return true
}

// primedScanner is a scanner that read the sample records, one after the
// other, as a load's batch does.
func primedScanner(t *testing.T) *scanner {
	s := new(scanner)
	for _, r := range sampleItems() {
		var got RecItem
		require.True(t, got.decodeIn(s.reset(r.appendRecord(nil))))
		for _, v := range r.Versions {
			b, err := json.Marshal(v)
			require.NoError(t, err)
			var got recVersion
			require.True(t, got.decodeIn(s.reset(b)))
		}
	}
	for _, r := range sampleEvents() {
		var got recEvent
		require.True(t, got.decodeIn(s.reset(r.appendRecord(nil))))
	}
	return s
}

func sampleItems() map[string]RecItem {
	at := time.Date(2026, 11, 27, 9, 30, 0, 120000000, time.UTC)
	yes, no := true, false
	return map[string]RecItem{
		"empty":  {},
		"folder": {Type: "folder", Name: "a<b>&\"c\"\u2028", ParentID: "0", Owner: "2000002", CreatedAt: at, ModifiedAt: at, Seq: 3, Hidden: true},
		"file": {Type: "file", Name: "f.txt", ParentID: "100", Owner: "2000002", CreatedBy: "2000002", ModifiedBy: "2000003",
			Description: "é\x01\xff", CreatedAt: at, ModifiedAt: at.Add(time.Second), ContentCreatedAt: at.In(time.FixedZone("x", -5*3600)),
			ContentModifiedAt: at, Seq: 12, SyncState: "synced", UploadEmail: "u@example.com", ReadyAt: at,
			Versions: []recVersion{
				{ID: "v1", Blob: recBlobOf(blob.Info{ID: "b1", Size: 1024, SHA1: "da39a3ee5e6b4b0d3255bfef95601890afd80709"}), CreatedAt: at, By: "2000002"},
				{ID: "v2", Blob: recBlobOf(blob.Info{ID: "b2"}), CreatedAt: at, By: "2000002", Name: "old \"name\".txt", TrashedAt: at, TrashedBy: "2000003"},
				{ID: "v3", Blob: recBlobOf(blob.Info{ID: "b3", Size: 1}), CreatedAt: at, RestoredAt: at.Add(time.Nanosecond), RestoredBy: "2000004"},
			}},
		"unicode":           {Type: "file", Name: "日本語 ☃.txt", SyncState: "odd", DownloadAccess: "someone"},
		"versions but none": {Type: "file", Versions: []recVersion{}},
		"everything else": {Type: "web_link", URL: "https://example.com/?a=1&b=<2>", TrashedAt: at, TrashedWith: "200",
			ID: "300", Tags: []string{"x", "y\"z"}, DownloadAccess: "company",
			Link:           &recSharedLink{Token: "t", Access: "open", Password: "p", UnsharedAt: at, CanDownload: &yes},
			Lock:           &recLock{ID: "l1", By: "2000002", CreatedAt: at, DownloadPrevented: true},
			FolderSettings: &[3]*bool{&yes, nil, &no}},
		"empty tags": {Type: "file", Tags: []string{}},
	}
}

// TestItemRecordDecoding: the records appendRecord and encoding/json write
// are read by the fast path, to what encoding/json reads.
func TestItemRecordDecoding(t *testing.T) {
	for name, r := range sampleItems() {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(r)
			require.NoError(t, err)
			assert.True(t, checkDecode[RecItem](t, want), "encoding/json's record")
			assert.True(t, checkDecode[RecItem](t, r.appendRecord(nil)), "appendRecord's record")
			var indented bytes.Buffer
			require.NoError(t, json.Indent(&indented, want, "", " \t"))
			assert.True(t, checkDecode[RecItem](t, indented.Bytes()), "with white space")
			for _, v := range r.Versions {
				b, err := json.Marshal(v)
				require.NoError(t, err)
				assert.True(t, checkDecode[recVersion](t, b), "a version record")
			}
		})
	}
}

func sampleEvents() []recEvent {
	at := time.Date(2026, 11, 25, 12, 0, 0, 123456789, time.UTC)
	return []recEvent{
		{Seq: 7},
		{Seq: 8, ID: "e1", Type: "ITEM_UPLOAD", By: "2000002", At: at, ItemID: "100", OwnerID: "2000002",
			Source: json.RawMessage(`{"type":"file","name":"a\u003cb\u003e"}`), AdminSource: json.RawMessage(`{"x":1}`), Under: []string{"0", "12", "a\"b"}},
		{Seq: 10, ItemID: "101", Under: []string{}},
		{Seq: 9, Admin: "a\u2028b\x01é\xff", At: at.In(time.FixedZone("x", 3600))},
	}
}

// TestEventRecordDecoding: event records are read by the fast path, to
// what encoding/json reads; other shapes are left to encoding/json.
func TestEventRecordDecoding(t *testing.T) {
	for _, r := range sampleEvents() {
		want, err := json.Marshal(r)
		require.NoError(t, err)
		assert.True(t, checkDecode[recEvent](t, want), "%s", want)
		assert.True(t, checkDecode[recEvent](t, r.appendRecord(nil)))
	}
	for _, b := range []string{
		`{"Seq":1,"Source":null}`,
		`{"Seq":1,"Source":{"a":}}`,
		`{"Seq":1,"Under":null}`,
		`{"seq":1}`,
	} {
		assert.False(t, checkDecode[recEvent](t, []byte(b)), b)
	}
	assert.True(t, checkDecode[recEvent](t, []byte(`{"Seq":1,"Source": { "a" : [1, "}"] } ,"Under":[]}`)))
}

// TestItemRecordDecodingDeclines: records in other shapes are left to
// encoding/json, which reads them (or refuses them) as before.
func TestItemRecordDecodingDeclines(t *testing.T) {
	for _, b := range []string{
		`{"type":"file"}`,                             // another case: encoding/json matches it
		`{"Type":"file","Type":"folder"}`,             // twice: the last wins
		`{"Type":"file","Unknown":1}`,                 // refused
		`{"Type":null}`,                               // null leaves the zero value
		`{"Seq":1.0}`,                                 // refused
		`{"Seq":01}`,                                  // not JSON
		`{"CreatedAt":"2026-11-27T09:30:00"}`,         // no zone: refused
		`{"Versions":null}`,                           // nil
		`{"Link":{"Token":"t","Extra":1}}`,            // refused inside
		`{"Tags":null}`,                               // nil
		`{"Type":"file"} x`,                           // the first value only
		`{"Type":"file",}`,                            // not JSON
		`{"Versions":[{"ID":"v","Blob":{"id":"b"}}]}`, // another case, inside
	} {
		t.Run(b, func(t *testing.T) {
			assert.False(t, checkDecode[RecItem](t, []byte(b)))
		})
	}
	// Read by the fast path: escapes, and the lengths of names.
	for _, b := range []string{
		`{"Name":"a\"b\\c\u00e9\n"}`,
		`{"Name":"\ud800"}`,   // a lone surrogate: U+FFFD, as encoding/json reads it
		"{\"Name\":\"\xff\"}", // not UTF-8: U+FFFD too
		`{"Name":"\u003cb\u003e"}`,
		`{"Link":null,"Tags":["a"],"Lock":{"ID":"l","By":"1","CreatedAt":"2026-01-01T00:00:00Z","ExpiresAt":"0001-01-01T00:00:00Z","DownloadPrevented":false}}`,
		`{"Seq":-5,"Hidden":false}`,
		`{}`,
	} {
		t.Run(b, func(t *testing.T) {
			assert.True(t, checkDecode[RecItem](t, []byte(b)))
		})
	}
}

// FuzzItemRecordDecoding: whatever the fast path reads (items, versions,
// events), encoding/json
// reads to the same record.
func FuzzItemRecordDecoding(f *testing.F) {
	for _, r := range sampleItems() {
		f.Add(r.appendRecord(nil))
	}
	f.Add([]byte(`{"Seq":-0,"Versions":[{"Blob":{"Size":-12}}]}`))
	for _, r := range sampleEvents() {
		f.Add(r.appendRecord(nil))
	}
	for _, r := range sampleInstances() {
		b, err := json.Marshal(r)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode[RecItem](t, b)
		checkDecode[recVersion](t, b)
		checkDecode[recEvent](t, b)
		checkDecode[recInstance](t, b)
	})
}

// BenchmarkItemRecordDecoding: a live file's record and its version's, by
// encoding/json and by decodeRecord.
func BenchmarkItemRecordDecoding(b *testing.B) {
	at := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	r := RecItem{Type: "file", Name: "file-0001234.txt", ParentID: "100", Owner: "2000002", CreatedBy: "2000002", ModifiedBy: "2000002",
		CreatedAt: at, ModifiedAt: at, ContentCreatedAt: at, ContentModifiedAt: at, Seq: 1, SyncState: "not_synced", ReadyAt: at}
	item := r.appendRecord(nil)
	version, _ := json.Marshal(recVersion{ID: "100000000123", Blob: recBlobOf(blob.Info{ID: "s0000000000000001aaaaaaaaaaaaaaaa", Size: 1024, SHA1: "da39a3ee5e6b4b0d3255bfef95601890afd80709"}),
		CreatedAt: at, By: "2000002"})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r RecItem
			var v recVersion
			if strictJSON(item, &r) != nil || strictJSON(version, &v) != nil {
				b.Fatal("refused")
			}
		}
	})
	b.Run("decodeRecord", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r RecItem
			var v recVersion
			if !r.decodeRecord(item) || !v.decodeRecord(version) {
				b.Fatal("declined")
			}
		}
	})
}

// TestRecordTimes: the times the scanner does not parse again (the zero
// time, a repeat of the one before) are the ones time.Time's decoding
// gives.
func TestRecordTimes(t *testing.T) {
	zero, err := json.Marshal(time.Time{})
	require.NoError(t, err)
	assert.Equal(t, `"`+zeroTimeText+`"`, string(zero))
	for _, b := range []string{
		`{"Type":"file","CreatedAt":"0001-01-01T00:00:00Z","ModifiedAt":"2026-11-28T06:07:58Z","ContentCreatedAt":"2026-11-28T06:07:58Z","ReadyAt":"2026-11-28T06:07:58.943828139Z","TrashedAt":"0001-01-01T00:00:00Z"}`,
		`{"CreatedAt":"2026-11-28T06:07:58+01:00","ModifiedAt":"2026-11-28T06:07:58+01:00","ContentCreatedAt":"2026-11-28T06:07:58Z","ContentModifiedAt":"2026-11-28T06:07:58+01:00"}`,
	} {
		require.True(t, checkDecode[RecItem](t, []byte(b)), b)
	}
}

func sampleInstances() []recInstance {
	return []recInstance{ // as InstanceRec writes them: Values never nil
		{Template: "a116af6f-d5b9-4c19-b162-a0a25eb48d13", Item: "100000179829", Seq: 8982, Values: map[string]recVal{"code": {Kind: 1, S: "c898"}}},
		{Template: "t", Item: "folder:12", Seq: -1, Version: 3, Values: map[string]recVal{
			"a\"b": {Kind: 255, S: "é\u2028"}, "list": {Kind: 4, List: []string{"x", "y"}}, "empty": {}}},
		{Values: map[string]recVal{}},
	}
}

// TestInstanceRecordDecoding: metadata instance records are read by the
// fast path, to what encoding/json reads; floats and other shapes are
// left to encoding/json.
func TestInstanceRecordDecoding(t *testing.T) {
	for _, r := range sampleInstances() {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		assert.True(t, checkDecode[recInstance](t, b), "%s", b)
	}
	for _, b := range []string{
		`{"Values":{"n":{"Kind":2,"F":1.5}}}`,
		`{"Values":null}`,
		`{"Values":{"a":{},"a":{"S":"x"}}}`,
		`{"Values":{"a":{"Kind":256}}}`,
		`{"Values":{"a":{"List":null}}}`,
		`{"Values":{"a":{"s":"x"}}}`,
		`{"Version":1.0}`,
	} {
		assert.False(t, checkDecode[recInstance](t, []byte(b)), b)
	}
}
