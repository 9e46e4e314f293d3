package cms_test

// The server load measure: many Go clients of mixed reads and writes
// against one reference server, with the memory store and persisted
// (Options.DataDir), reporting throughput, latency percentiles and the
// process's resident set before, at the peak of and after the run:
//
//	go test -run '^$' -bench ServerLoad -benchtime 20000x .
//	go test -run '^$' -bench ServerLoad -benchtime 20000x . -serverload.clients 2,4,8
//
// -benchtime Nx is the number of calls of one run, shared by the clients.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/require"
)

const (
	loadFiles    = 100  // files of the shared folder the reads use
	loadFileSize = 1024 // bytes of every file and version uploaded
)

// BenchmarkServerLoad runs 32 and 64 concurrent clients (other numbers:
// -serverload.clients) against a server with the memory store and a
// persisted one. Each client has its own
// cms.Client (on the SDK's shared default transport) and sends, out of
// every ten calls: three file gets, two list pages of 100 items, two
// downloads of a 1 KB file (the API call and its redirect to the content
// host, as one call), a 1 KB upload of a new file, a folder creation and a
// 1 KB new version of its own file: 70% reads, 30% writes. Reported:
// calls/s, p50 and p99 latency of a call, and the resident set of the
// process (server and clients) before the run, at its peak, and after it
// once garbage is collected and returned to the system (rss-after-MiB:
// what the server keeps).
func BenchmarkServerLoad(b *testing.B) {
	for _, store := range []string{"memory", "data"} {
		for _, clients := range loadClientCounts(b) {
			b.Run(fmt.Sprintf("store=%s/clients=%d", store, clients), func(b *testing.B) {
				serverLoad(b, store == "data", clients)
			})
		}
	}
}

// serverLoadClients sets BenchmarkServerLoad's client counts (a comma-separated list).
var serverLoadClients = flag.String("serverload.clients", "32,64", "BenchmarkServerLoad: the numbers of concurrent clients, comma-separated")

// loadClientCounts parses -serverload.clients.
func loadClientCounts(b *testing.B) []int {
	var counts []int
	for _, f := range strings.Split(*serverLoadClients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("-serverload.clients: %q is not a number of clients", f)
		}
		counts = append(counts, n)
	}
	return counts
}

// loadSetup is what one run's clients share.
type loadSetup struct {
	srv      *refserver.Server
	folderID string   // the shared folder the reads list
	files    []string // its files
	own      []loadOwn
	payload  []byte
}

// loadOwn is one client's own folder (where it uploads and creates) and
// file (which it gives new versions).
type loadOwn struct {
	client           *cms.Client
	folderID, fileID string
}

func serverLoad(b *testing.B, persisted bool, clients int) {
	ctx := context.Background()
	opts := refserver.Options{RequestLogSize: 1000} // cmd/refserver's default
	if persisted {
		opts.DataDir = b.TempDir()
	}
	srv, err := refserver.Start(opts)
	require.NoError(b, err)
	defer srv.Close()
	s := setupLoad(b, ctx, srv, clients)

	settle()
	rssBefore, _ := readRSS()
	resetPeakRSS()
	cpuBefore := processCPU()
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for g := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= b.N {
					return
				}
				t0 := time.Now()
				if err := s.call(ctx, g, k); err != nil {
					b.Errorf("client %d, call %d: %v", g, k, err)
					return
				}
				lat[k] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := processCPU() - cpuBefore
	b.StopTimer()
	if b.Failed() {
		return
	}
	_, peak := readRSS()
	settle()
	rssAfter, _ := readRSS()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	mib := func(n uint64) float64 { return float64(n) / (1 << 20) }
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(ms(lat[b.N/2]), "p50-ms")
	b.ReportMetric(ms(lat[b.N*99/100]), "p99-ms")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/call")
	}
	b.ReportMetric(mib(rssBefore), "rss-before-MiB")
	b.ReportMetric(mib(peak), "rss-peak-MiB")
	b.ReportMetric(mib(rssAfter), "rss-after-MiB")
	b.ReportMetric(0, "ns/op") // calls/s says it; one op is not one call's latency
}

// setupLoad makes the shared folder with its files and every client's own
// folder and file.
func setupLoad(b *testing.B, ctx context.Context, srv *refserver.Server, clients int) *loadSetup {
	b.Helper()
	newClient := func() *cms.Client {
		c, err := cms.NewClient(cms.WithToken(srv.UserToken()), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()))
		require.NoError(b, err)
		return c
	}
	s := &loadSetup{srv: srv, payload: bytes.Repeat([]byte("0123456789abcdef"), loadFileSize/16)}
	c := newClient()
	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "load", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(b, err)
	s.folderID = folder.ID
	for k := range loadFiles {
		f, _, err := c.Files.UploadInOneRequest(ctx, folder.ID, fmt.Sprintf("f%03d.txt", k), bytes.NewReader(s.payload), loadFileSize, nil)
		require.NoError(b, err)
		s.files = append(s.files, f.ID)
	}
	for g := range clients {
		o := loadOwn{client: newClient()}
		d, _, err := o.client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("client-%d", g), Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(b, err)
		f, _, err := o.client.Files.UploadInOneRequest(ctx, d.ID, "own.txt", bytes.NewReader(s.payload), loadFileSize, nil)
		require.NoError(b, err)
		o.folderID, o.fileID = d.ID, f.ID
		s.own = append(s.own, o)
	}
	return s
}

// call sends client g's call number k (of the run).
func (s *loadSetup) call(ctx context.Context, g, k int) error {
	o := s.own[g]
	c := o.client
	file := s.files[k%loadFiles]
	var err error
	switch k % 10 {
	case 0, 1, 2:
		_, _, err = c.Files.Get(ctx, file, nil)
	case 3, 4:
		_, _, err = c.Folders.ListItems(ctx, s.folderID, &cms.ListItemsOptions{Limit: 100})
	case 5, 6:
		var body io.ReadCloser
		if body, _, err = c.Files.Download(ctx, file, nil); err == nil {
			var n int64
			n, err = io.Copy(io.Discard, body)
			body.Close()
			if err == nil && n != loadFileSize {
				err = fmt.Errorf("downloaded %d bytes, want %d", n, loadFileSize)
			}
		}
	case 7:
		_, _, err = c.Files.UploadInOneRequest(ctx, o.folderID, fmt.Sprintf("u%d.txt", k), bytes.NewReader(s.payload), loadFileSize, nil)
	case 8:
		_, _, err = c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("d%d", k), Parent: cms.FolderRef{ID: o.folderID}}, nil)
	default:
		_, _, err = c.Files.UploadVersionInOneRequest(ctx, o.fileID, bytes.NewReader(s.payload), loadFileSize, nil)
	}
	return err
}

// settle collects garbage and returns the freed memory to the system, so
// the resident set is what is live.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

// resetPeakRSS resets the kernel's high-water mark of the process's
// resident set (Linux: clear_refs 5); elsewhere it does nothing.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// readRSS is the process's resident set and its high-water mark (Linux
// VmRSS and VmHWM); zeros where the kernel does not report them.
func readRSS() (rss, peak uint64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	kb := func(v string) uint64 {
		n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		return n << 10
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss = kb(v)
		} else if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			peak = kb(v)
		}
	}
	return rss, peak
}

// processCPU is the CPU time the process has used (Linux: utime + stime of
// /proc/self/stat, in ticks of 10 ms); 0 where the kernel does not report
// it.
func processCPU() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name (which may hold spaces), from the
	// third: utime and stime are the 14th and 15th.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, err1 := strconv.ParseUint(f[11], 10, 64)
	s, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(u+s) * 10 * time.Millisecond
}
