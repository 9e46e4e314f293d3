package refserver

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/proccpu"
	"github.com/contentapi/cms/refserver/internal/state"
)

// restartDirEnv names a directory where BenchmarkRestart keeps its data
// directories (one per size) and reuses them when they exist: A/B runs of
// two builds restart the same state, and a CPU profile (-cpuprofile) of a
// run that reuses them holds the restarts only, not the fill.
const restartDirEnv = "REFSERVER_RESTART_DIR"

// restartMillionEnv, set, adds a million files to BenchmarkRestart's
// sizes.
const restartMillionEnv = "REFSERVER_RESTART_MILLION"

// BenchmarkRestart restarts a persisted server (Options.DataDir) holding n
// files in nested folders, each file with one version of a few bytes (a
// small blob in the database) and the events their uploads recorded: New
// on the data directory until the first answer of GET /folders/0. It
// reports the time of a restart (ms/restart, µs/item; medians), the CPU
// time the process used meanwhile (cpu-ms/restart, every thread: the
// figure a shared machine stretches least), and the live heap
// after it (runtime.ReadMemStats after a GC, less the heap before New) per
// item (heapB/item: the search indexer New starts is stopped first, so it
// holds the state and what the indexer had indexed by then), the resident
// memory of the process then per item (rssB/item: everything, the test
// binary and the pages of state.db it read included; Linux only), then
// how long a search takes to index what is left and answer
// (ms/searchIndexed, not in the restart's time) and the live heap once
// every item is indexed (indexedHeapB/item). The state is filled through the state, not HTTP, to
// keep the setup short.
func BenchmarkRestart(b *testing.B) {
	for _, n := range []int{50_000, 200_000, 1_000_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			if n > 200_000 && os.Getenv(restartMillionEnv) == "" {
				b.Skipf("a million files (minutes to fill, GBs of memory and disk): set %s=1", restartMillionEnv)
			}
			dir := restartDir(b, n)
			var (
				times, cpus, indexing   []time.Duration
				heaps, rsss, heapsIndex []float64
			)
			for b.Loop() {
				b.StopTimer()
				debug.FreeOSMemory() // the last server's heap goes back to the system
				base := liveHeap()
				b.StartTimer()
				start := time.Now()
				cpu0, cpuOK := proccpu.Used()
				s, err := New(Options{DataDir: dir})
				if err != nil {
					b.Fatal(err)
				}
				benchDo(b, s.Handler(), http.MethodGet, "/folders/0", s.AdminToken(), "", "")
				took := time.Since(start)
				if cpu1, ok := proccpu.Used(); ok && cpuOK {
					cpus = append(cpus, cpu1-cpu0)
				}
				b.StopTimer()
				times = append(times, took)
				// The state, without what the search indexer (started by
				// New) keeps on adding: stopped, it leaves its queue.
				s.st.StopSearchIndexer()
				heaps = append(heaps, float64(liveHeap()-base)/float64(n))
				if rss, ok := residentBytes(); ok {
					rsss = append(rsss, float64(rss)/float64(n))
				}
				// A search indexes whatever is left first.
				start = time.Now()
				benchDo(b, s.Handler(), http.MethodGet, "/search?query=file", s.AdminToken(), "", "")
				indexing = append(indexing, time.Since(start))
				heapsIndex = append(heapsIndex, float64(liveHeap()-base)/float64(n))
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			d := median(times)
			b.ReportMetric(float64(d)/float64(time.Millisecond), "ms/restart")
			b.ReportMetric(float64(d)/float64(time.Microsecond)/float64(n), "µs/item")
			b.ReportMetric(medianF(heaps), "heapB/item")
			b.ReportMetric(medianF(heapsIndex), "indexedHeapB/item")
			b.ReportMetric(float64(median(indexing))/float64(time.Millisecond), "ms/searchIndexed")
			if len(rsss) > 0 {
				b.ReportMetric(medianF(rsss), "rssB/item")
			}
			if len(cpus) > 0 {
				b.ReportMetric(float64(median(cpus))/float64(time.Millisecond), "cpu-ms/restart")
			}
		})
	}
}

// residentBytes is the resident memory of the process (VmRSS), false
// where /proc does not tell it.
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(kb), " kB"), 10, 64)
			return n << 10, err == nil
		}
	}
	return 0, false
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func medianF(fs []float64) float64 {
	fs = slices.Clone(fs)
	slices.Sort(fs)
	return fs[len(fs)/2]
}

// restartDir is a data directory holding a stopped server with n files
// (fillRestart): a new one, or the one kept under $REFSERVER_RESTART_DIR.
func restartDir(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	if root := os.Getenv(restartDirEnv); root != "" {
		dir = filepath.Join(root, fmt.Sprintf("files-%d", n))
		if _, err := os.Stat(filepath.Join(dir, StateFileName)); err == nil {
			return dir
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	fillRestart(b, dir, n)
	return dir
}

// restartLeafFiles is how many files each leaf folder of fillRestart
// holds; leaves are grouped ten to a middle folder, middles ten to a top
// folder in the root.
const restartLeafFiles = 500

// fillRestart starts a persisted server in dir, adds n files (and their
// folders) through the state (CreateFile, as an upload does), and
// closes it.
func fillRestart(b testing.TB, dir string, n int) {
	b.Helper()
	s, err := New(Options{DataDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	fillFiles(b, s, n)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}

// fillFiles adds n files (and their folders) to s through the state, as
// fillRestart describes.
func fillFiles(b testing.TB, s *Server, n int) {
	b.Helper()
	var err error
	ctx := context.Background()
	blobs := make([]BlobInfo, n) // small blobs, written by the commit
	for i := range blobs {
		if blobs[i], err = s.st.Store.Put(ctx, strings.NewReader(fmt.Sprintf("content of file %d\n", i))); err != nil {
			b.Fatal(err)
		}
	}
	tx, end := beginTx(s.st)
	admin := tx.Principals[s.AdminToken()]
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	folder := func(parent, name string) *state.Item {
		at = at.Add(time.Second)
		f := &state.Item{Typ: "folder", ID: tx.NewFolderID(), Name: name, ParentID: parent, Owner: tx.Admin, CreatedBy: tx.Admin, ModBy: tx.Admin,
			CreatedAt: at, ModifiedAt: at}
		tx.AddItem(f)
		return f
	}
	var top, mid, leaf *state.Item
	for i := range n {
		if i%restartLeafFiles == 0 {
			l := i / restartLeafFiles
			if l%100 == 0 {
				top = folder(state.RootID, fmt.Sprintf("top-%03d", l/100))
			}
			if l%10 == 0 {
				mid = folder(top.ID, fmt.Sprintf("mid-%03d", l/10))
			}
			leaf = folder(mid.ID, fmt.Sprintf("leaf-%05d", l))
		}
		at = at.Add(time.Millisecond)
		if _, aerr := tx.CreateFile(admin, leaf.ID, fmt.Sprintf("file-%07d.txt", i), blobs[i], at, at); aerr != nil {
			b.Fatal(aerr)
		}
	}
	end()
}
