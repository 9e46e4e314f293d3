package refserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// heapProfileEnv names a data directory (a copy: the server writes to it)
// that TestHeapProfileOfRestart restarts; heapProfileOutEnv the directory
// its heap profiles go to (the test's temporary directory when unset).
const (
	heapProfileEnv    = "REFSERVER_HEAP_PROFILE_DIR"
	heapProfileOutEnv = "REFSERVER_HEAP_PROFILE_OUT"
)

// TestHeapProfileOfRestart, when REFSERVER_HEAP_PROFILE_DIR names a data
// directory, restarts a server on it and writes two heap profiles of the
// live heap (after a collection): at the first answer of GET /folders/0
// (restart.pprof) and once the index builders have indexed everything
// (indexed.pprof), and logs the runtime's memory figures beside the
// process's resident memory at both. It is how the live heap of a
// million-item directory is taken apart by component (go tool pprof
// -sample_index=inuse_space -top); it measures, it asserts nothing.
func TestHeapProfileOfRestart(t *testing.T) {
	dir := os.Getenv(heapProfileEnv)
	if dir == "" {
		t.Skipf("set %s to a copy of a data directory", heapProfileEnv)
	}
	out := os.Getenv(heapProfileOutEnv)
	if out == "" {
		out = t.TempDir()
	}
	start := time.Now()
	s, err := New(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}()
	get := func(path string) {
		req := httptest.NewRequest(http.MethodGet, "http://"+state.InProcessAPIHost+state.APIRoot+path, nil)
		req.Header.Set("Authorization", "Bearer "+s.AdminToken())
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
	}
	get("/folders/0")
	t.Logf("first answer after %v", time.Since(start))
	report(t, "first answer (before any collection)", false)
	report(t, "first answer", true)
	writeHeapProfile(t, filepath.Join(out, "restart.pprof"))

	// The builders: a search indexes what is left; the metadata builder
	// is done when its step count stops moving.
	get("/search?query=file")
	for last := -1; ; time.Sleep(2 * time.Second) {
		n := s.st.MetadataIndexerSteps()
		if n == last {
			break
		}
		last = n
	}
	t.Logf("indexed after %v", time.Since(start))
	report(t, "indexed (before any collection)", false)
	report(t, "indexed", true)
	writeHeapProfile(t, filepath.Join(out, "indexed.pprof"))
}

// report logs the runtime's heap figures and the resident memory, after
// a collection when gc is set.
func report(t *testing.T, at string, gc bool) {
	if gc {
		runtime.GC()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, _ := residentBytes()
	mb := func(n uint64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }
	// The heap the collector scans (what holds pointers), as of the last
	// collection: its mark work is proportional to it.
	scan := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(scan)
	var scanned uint64
	if scan[0].Value.Kind() == metrics.KindUint64 {
		scanned = scan[0].Value.Uint64()
	}
	t.Logf("%s: HeapAlloc %s, scannable heap %s, HeapInuse %s, HeapIdle %s, HeapReleased %s, HeapSys %s, Sys %s, RSS %s, GCs %d",
		at, mb(ms.HeapAlloc), mb(scanned), mb(ms.HeapInuse), mb(ms.HeapIdle), mb(ms.HeapReleased), mb(ms.HeapSys), mb(ms.Sys), mb(uint64(rss)), ms.NumGC)
}

func writeHeapProfile(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		t.Fatal(err)
	}
	t.Logf("heap profile: %s", path)
}
