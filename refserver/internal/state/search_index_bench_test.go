package state_test

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/proccpu"
	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkSearchIndexPut indexes n items by their names (those of the
// growth harness, cmd/cmsbench/scale: "doc-0000042 w17 w803.txt") into an
// empty search index, as the indexer does after a restart, and reports
// the time per item (ns/item; cpu-ns/item: the process's CPU time, the
// collections that measure the heap included) and the live heap the index holds per item
// (heapB/item, after a collection): the figure at a million items is
// most of the index's share of the server's memory. allocs/item and
// allocB/item are what indexing allocates per item, the live part
// included: the rest is the garbage the collector must clear while the
// indexer runs.
func BenchmarkSearchIndexPut(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			items, names := make([]*state.Item, n), make([]string, n)
			for i := range items {
				names[i] = fmt.Sprintf("doc-%07d w%d w%d.txt", i, i*7919%1000, i*104729%1000)
				items[i] = &state.Item{Typ: "file", ID: strconv.Itoa(i + 1), Name: names[i], ModifiedAt: time.Unix(int64(i), 0)}
			}
			var heap float64
			var allocs, allocB uint64
			cpu0, cpuOK := proccpu.Used()
			for b.Loop() {
				b.StopTimer()
				base := liveHeap()
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				b.StartTimer()
				x := state.NewSearchIndex()
				for i, it := range items {
					x.PutName(it, names[i])
				}
				b.StopTimer()
				runtime.ReadMemStats(&m1)
				allocs += m1.Mallocs - m0.Mallocs
				allocB += m1.TotalAlloc - m0.TotalAlloc
				heap = float64(liveHeap()-base) / float64(n)
				runtime.KeepAlive(x)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
			if cpu1, ok := proccpu.Used(); ok && cpuOK {
				// The collections of liveHeap included: an upper bound.
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/item")
			}
			b.ReportMetric(heap, "heapB/item")
			b.ReportMetric(float64(allocs)/float64(b.N)/float64(n), "allocs/item")
			b.ReportMetric(float64(allocB)/float64(b.N)/float64(n), "allocB/item")
		})
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
