package cms_test

// The benchmarks of the README's performance section, in go test form
// (cmd/cmsbench measures the same against a separate cmd/refserver and
// Box's TypeScript SDK; scripts/bench.sh runs it):
//
//	go test -run '^$' -bench 'Upload(File|Reader)|Download|ListFolder|SmallCalls' -benchtime 5x .

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
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
	benchFileSize = 64 << 20
	benchPartSize = 8 << 20
)

// benchServer starts a reference server on loopback that keeps content in
// a directory, with 8 MiB parts, and a client of its user.
func benchServer(b *testing.B) (*refserver.Server, *cms.Client) {
	b.Helper()
	store, err := refserver.NewDirStore(b.TempDir())
	require.NoError(b, err)
	srv, err := refserver.Start(refserver.Options{PartSize: benchPartSize, ChunkedMinSize: 1, Store: store})
	require.NoError(b, err)
	b.Cleanup(func() { srv.Close() })
	c, err := cms.NewClient(cms.WithToken(srv.UserToken()), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()))
	require.NoError(b, err)
	return srv, c
}

// benchSource writes a file of benchFileSize bytes.
func benchSource(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "source.bin")
	f, err := os.Create(path)
	require.NoError(b, err)
	_, err = io.Copy(f, &zeroReader{left: benchFileSize})
	require.NoError(b, err)
	require.NoError(b, f.Close())
	return path
}

// BenchmarkUploadFile uploads a 64 MiB file from disk (the SDK gets the
// *os.File: parts are sent with sendfile where the platform allows).
func BenchmarkUploadFile(b *testing.B) {
	benchUpload(b, func(f *os.File) io.Reader { return f })
}

// BenchmarkUploadReader uploads the same file through a reader that hides
// every method but Read (parts go through Concurrency+1 buffers).
func BenchmarkUploadReader(b *testing.B) {
	benchUpload(b, func(f *os.File) io.Reader { return onlyReader{f} })
}

func benchUpload(b *testing.B, wrap func(*os.File) io.Reader) {
	_, c := benchServer(b)
	path := benchSource(b)
	ctx := context.Background()
	b.SetBytes(benchFileSize)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		f, err := os.Open(path)
		require.NoError(b, err)
		up, _, err := c.Uploads.UploadChunked(ctx, "0", fmt.Sprintf("b%d.bin", i), wrap(f), benchFileSize, &cms.ChunkedUploadOptions{Concurrency: 4})
		f.Close()
		require.NoError(b, err)
		b.StopTimer()
		_, err = c.Files.Delete(ctx, up.ID, nil)
		require.NoError(b, err)
		_, err = c.Trash.PurgeFile(ctx, up.ID)
		require.NoError(b, err)
		b.StartTimer()
	}
}

// BenchmarkDownload downloads a 64 MiB file through the SDK (sdk) and
// through a hand-written client on the same transport settings that
// follows the redirect by hand with the same 256 KiB buffer (raw), so
// -count runs compare the two interleaved.
func BenchmarkDownload(b *testing.B) {
	srv, c := benchServer(b)
	ctx := context.Background()
	up, _, err := c.Uploads.UploadChunked(ctx, "0", "d.bin", &zeroReader{left: benchFileSize}, benchFileSize, nil)
	require.NoError(b, err)
	buf := make([]byte, 256<<10)
	raw := &http.Client{Transport: cms.NewDefaultTransport(), CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	sides := map[string]func() (io.ReadCloser, error){
		"sdk": func() (io.ReadCloser, error) {
			body, _, err := c.Files.Download(ctx, up.ID, nil)
			return body, err
		},
		"raw": func() (io.ReadCloser, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.BaseURL()+"/files/"+up.ID+"/content", nil)
			if err != nil {
				return nil, err
			}
			req.Header.Set("Authorization", "Bearer "+srv.UserToken())
			resp, err := raw.Do(req)
			if err != nil {
				return nil, err
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusFound {
				return nil, fmt.Errorf("content: %s", resp.Status)
			}
			req, err = http.NewRequestWithContext(ctx, http.MethodGet, resp.Header.Get("Location"), nil)
			if err != nil {
				return nil, err
			}
			resp, err = raw.Do(req)
			if err != nil {
				return nil, err
			}
			return resp.Body, nil
		},
	}
	for _, side := range []string{"sdk", "raw"} {
		open := sides[side]
		b.Run(side, func(b *testing.B) {
			b.SetBytes(benchFileSize)
			b.ReportAllocs()
			for b.Loop() {
				body, err := open()
				require.NoError(b, err)
				n, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, body, buf)
				body.Close()
				require.NoError(b, err)
				require.EqualValues(b, benchFileSize, n)
			}
		})
	}
}

// BenchmarkListFolder lists a folder of 20,000 items with pages of 1000,
// lazily (the default) and reading one page ahead; items/s is reported.
func BenchmarkListFolder(b *testing.B) {
	srv, c := benchServer(b)
	ctx := context.Background()
	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "big", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(b, err)
	const items = 20000
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := g; k < items; k += 8 {
				_, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("f%05d", k), Parent: cms.FolderRef{ID: folder.ID}}, nil)
				if err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	srv.ResetRequests()
	for _, ahead := range []bool{false, true} {
		b.Run(fmt.Sprintf("read_ahead=%v", ahead), func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				n := 0
				for _, err := range c.Folders.ListItemsIter(ctx, folder.ID, &cms.ListItemsOptions{Limit: 1000, ReadAhead: ahead}) {
					require.NoError(b, err)
					n++
				}
				require.Equal(b, items, n)
			}
			b.ReportMetric(float64(items*b.N)/time.Since(start).Seconds(), "items/s")
		})
	}
}

// smallCallsFixture makes what the small-call benchmarks use: a folder of
// 100 one-byte files (folderID, and the last file's fileID) and an empty
// folder to create folders in (parentID).
func smallCallsFixture(b *testing.B, c *cms.Client) (folderID, fileID, parentID string) {
	b.Helper()
	ctx := context.Background()
	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "small", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(b, err)
	for k := range 100 {
		f, _, err := c.Files.UploadInOneRequest(ctx, folder.ID, fmt.Sprintf("f%03d.txt", k), strings.NewReader("x"), 1, nil)
		require.NoError(b, err)
		fileID = f.ID
	}
	parent, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "new", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(b, err)
	return folder.ID, fileID, parent.ID
}

// BenchmarkSmallCalls sends small calls from 16 goroutines on one client,
// in turn a file get, a list page of 100 items and a folder creation, and
// reports requests/s and the p50 and p99 latencies.
func BenchmarkSmallCalls(b *testing.B) {
	_, c := benchServer(b)
	ctx := context.Background()
	folderID, fileID, parentID := smallCallsFixture(b, c)
	var (
		next atomic.Int64
		mu   sync.Mutex
		lat  []time.Duration
	)
	b.SetParallelism(8) // 16 goroutines on 2 cores
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			k := next.Add(1)
			t0 := time.Now()
			var err error
			switch k % 3 {
			case 0:
				_, _, err = c.Files.Get(ctx, fileID, nil)
			case 1:
				_, _, err = c.Folders.ListItems(ctx, folderID, &cms.ListItemsOptions{Limit: 100})
			default:
				_, _, err = c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("n%d", k), Parent: cms.FolderRef{ID: parentID}}, nil)
			}
			if err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "requests/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
