package state

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// BenchmarkSearchIndexDrain indexes n new text files as the indexer does
// after bulk writes (CatchUpSearch: their texts copied in a transaction,
// their content read from the store, the batch put into the index), files
// named and filled as the growth harness's (cmd/cmsbench/scale: "doc-0000042
// w17 w803.txt", its content the name and a few words). It reports what
// indexing allocates per file (allocs/item, allocB/item): all but what the
// index keeps is garbage the collector clears while searches run.
func BenchmarkSearchIndexDrain(b *testing.B) {
	const n = 20_000
	ctx := context.Background()
	store := blob.NewMemory()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	names, blobs := make([]string, n), make([]blob.Info, n)
	for i := range names {
		names[i] = fmt.Sprintf("doc-%07d w%d w%d.txt", i, i*7919%1000, i*104729%1000)
		info, err := store.Put(ctx, strings.NewReader(names[i]+" scale benchmark content\n"))
		if err != nil {
			b.Fatal(err)
		}
		blobs[i] = info
	}
	var allocs, allocB uint64
	for b.Loop() {
		b.StopTimer()
		st, err := NewMemory(&Env{Now: func() time.Time { return now }, Store: store})
		if err != nil {
			b.Fatal(err)
		}
		st.Update(func(tx *Tx) {
			// No events: what they allocate is not the indexer's, and
			// their delivery would run within the measure.
			tx.EventsOn = false
			defer func() { tx.EventsOn = true }()
			u := tx.User
			for i, name := range names {
				it := &Item{Typ: "file", ID: tx.NewID(), Name: name, ParentID: RootID, Owner: u, CreatedBy: u, ModBy: u, CreatedAt: now, ModifiedAt: now}
				it.Versions = []*Version{NewVersion(tx.NewID(), blob.RefOf(blobs[i]), now, u)}
				tx.AddItem(it)
			}
		})
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		b.StartTimer()
		if _, err := st.CatchUpSearch(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.ReadMemStats(&m1)
		allocs += m1.Mallocs - m0.Mallocs
		allocB += m1.TotalAlloc - m0.TotalAlloc
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/item")
	b.ReportMetric(float64(allocs)/float64(b.N)/n, "allocs/item")
	b.ReportMetric(float64(allocB)/float64(b.N)/n, "allocB/item")
}
