package persist

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// TestItemRecordEncoding: an item record encodes itself exactly as
// encoding/json would, whatever it holds, and loads as its record does.
func TestItemRecordEncoding(t *testing.T) {
	at := time.Date(2026, 11, 27, 9, 30, 0, 120000000, time.UTC)
	yes, no := true, false
	for name, r := range map[string]RecItem{
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
		"versions but none": {Type: "file", Versions: []recVersion{}},
		"everything else": {Type: "web_link", URL: "https://example.com/?a=1&b=<2>", TrashedAt: at, TrashedWith: "200",
			ID: "300", Tags: []string{"x", "y\"z"}, DownloadAccess: "company",
			Link:           &recSharedLink{Token: "t", Access: "open", Password: "p", UnsharedAt: at, CanDownload: &yes},
			Lock:           &recLock{ID: "l1", By: "2000002", CreatedAt: at, DownloadPrevented: true},
			FolderSettings: &[3]*bool{&yes, nil, &no}},
		"empty tags": {Type: "file", Tags: []string{}},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(r)
			require.NoError(t, err)
			got := r.appendRecord(nil)
			assert.Equal(t, string(want), string(got))
			var back, fromJSON RecItem
			require.NoError(t, json.Unmarshal(got, &back))
			require.NoError(t, json.Unmarshal(want, &fromJSON))
			assert.Equal(t, fromJSON, back, "it loads as encoding/json's record does")
		})
	}
}

// BenchmarkItemRecordEncoding: the kept copy of a purged file with 60
// versions (live files' versions are records of their own), by
// encoding/json and by appendRecord.
func BenchmarkItemRecordEncoding(b *testing.B) {
	at := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	r := RecItem{Type: "file", Name: "own.txt", ParentID: "100", Owner: "2000002", CreatedBy: "2000002", ModifiedBy: "2000002",
		CreatedAt: at, ModifiedAt: at, ContentCreatedAt: at, ContentModifiedAt: at, Seq: 60, ReadyAt: at}
	for range 60 {
		r.Versions = append(r.Versions, recVersion{ID: "100000000123", Blob: recBlobOf(blob.Info{ID: "s-100000000124", Size: 1024, SHA1: "da39a3ee5e6b4b0d3255bfef95601890afd80709"}),
			CreatedAt: at, By: "2000002"})
	}
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("appendRecord", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = r.appendRecord(nil)
		}
	})
}
