package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentapi/cms"
)

// burstFiles is how many files the burst's folder holds (one list page).
const burstFiles = 100

// measureBurst sends -requests small calls from -goroutines goroutines on
// one client, in turn a file get, a list page of 100 items and a folder
// creation, and reports requests/s and the latency percentiles; then the
// same requests through raw net/http (bodies read, not decoded).
func measureBurst(ctx context.Context, t *target, c config, i int, emit func(result) error) error {
	folderID, err := ensureFolder(ctx, t, "bench-burst", burstFiles)
	if err != nil {
		return err
	}
	page, _, err := t.client.Folders.ListItems(ctx, folderID, &cms.ListItemsOptions{Limit: 1})
	if err != nil || len(page.Entries) == 0 {
		return fmt.Errorf("burst folder: %v", err)
	}
	fileID := page.Entries[0].ID
	parents := map[string]string{}
	for _, impl := range []string{"go-sdk", "net/http"} {
		p, _, err := t.client.Folders.Create(ctx, &cms.CreateFolderRequest{
			Name: fmt.Sprintf("bench-burst-new-%s-%d", impl[:2], time.Now().UnixNano()), Parent: cms.FolderRef{ID: "0"}}, nil)
		if err != nil {
			return err
		}
		parents[impl] = p.ID
	}
	calls := map[string]func(k int) error{
		"go-sdk": func(k int) error {
			var err error
			switch k % 3 {
			case 0:
				_, _, err = t.client.Files.Get(ctx, fileID, nil)
			case 1:
				_, _, err = t.client.Folders.ListItems(ctx, folderID, &cms.ListItemsOptions{Limit: burstFiles})
			default:
				_, _, err = t.client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("f-%d", k), Parent: cms.FolderRef{ID: parents["go-sdk"]}}, nil)
			}
			return err
		},
		"net/http": func(k int) error {
			switch k % 3 {
			case 0:
				return rawJSON(ctx, t, http.MethodGet, t.baseURL+"/files/"+fileID, "", nil)
			case 1:
				return rawJSON(ctx, t, http.MethodGet, fmt.Sprintf("%s/folders/%s/items?limit=%d", t.baseURL, folderID, burstFiles), "", nil)
			}
			body := fmt.Sprintf(`{"name":"f-%d","parent":{"id":%q}}`, k, parents["net/http"])
			return rawJSON(ctx, t, http.MethodPost, t.baseURL+"/folders", body, nil)
		},
	}
	defer func() {
		for _, id := range parents {
			if _, err := t.client.Folders.Delete(ctx, id, &cms.DeleteFolderOptions{Recursive: true}); err == nil {
				_, _ = t.client.Trash.DeleteFolder(ctx, id)
			}
		}
	}()
	for _, impl := range []string{"go-sdk", "net/http"} {
		r, err := burst(c.requests, c.goroutines, calls[impl])
		if err != nil {
			return fmt.Errorf("%s: %w", impl, err)
		}
		r.Impl = impl
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

// burst runs call(0..n-1) from g goroutines and measures each call.
func burst(n, g int, call func(k int) error) (result, error) {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				t0 := time.Now()
				if err := call(k); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				lat[k] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if firstErr != nil {
		return result{}, firstErr
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return result{Name: "burst", Requests: n, Goroutines: g, Seconds: elapsed.Seconds(),
		RequestsPerSec: float64(n) / elapsed.Seconds(), P50MS: ms(lat[n/2]), P99MS: ms(lat[n*99/100])}, nil
}

// measureDownload downloads a -size file through the SDK and through raw
// net/http (the redirect fetched by hand), into a sink that drops the bytes.
func measureDownload(ctx context.Context, t *target, c config, i int, emit func(result) error) error {
	id, err := ensureDownloadFile(ctx, t, c.size)
	if err != nil {
		return err
	}
	buf := make([]byte, 256<<10)
	probe := startProbe()
	start := time.Now()
	body, _, err := t.client.Files.Download(ctx, id, nil)
	if err != nil {
		return err
	}
	n, err := io.CopyBuffer(sink{}, body, buf)
	body.Close()
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	r := result{Name: "download", Impl: "go-sdk", SizeBytes: n, Seconds: elapsed.Seconds(), MBPerSecond: float64(n) / 1e6 / elapsed.Seconds()}
	probe.end(&r)
	if n != c.size {
		return fmt.Errorf("downloaded %d bytes, want %d", n, c.size)
	}
	if err := emit(r); err != nil {
		return err
	}

	start = time.Now()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, t.baseURL+"/files/"+id+"/content", nil)
	req.Header.Set("Authorization", "Bearer "+t.token)
	resp, err := t.raw.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, resp.Header.Get("Location"), nil)
	resp, err = t.raw.Do(req)
	if err != nil {
		return err
	}
	n, err = io.CopyBuffer(sink{}, resp.Body, buf)
	resp.Body.Close()
	if err != nil {
		return err
	}
	elapsed = time.Since(start)
	if n != c.size {
		return fmt.Errorf("raw download: %d bytes, want %d", n, c.size)
	}
	return emit(result{Name: "download", Impl: "net/http", SizeBytes: n, Seconds: elapsed.Seconds(), MBPerSecond: float64(n) / 1e6 / elapsed.Seconds()})
}

// sink drops what is written to it; unlike io.Discard it has no ReadFrom,
// so copies into it use the caller's buffer.
type sink struct{}

func (sink) Write(p []byte) (int, error) { return len(p), nil }

// ensureDownloadFile returns the id of the file downloads read, uploading
// the source file the first time.
func ensureDownloadFile(ctx context.Context, t *target, size int64) (string, error) {
	name := fmt.Sprintf("bench-download-%d.bin", size)
	for it, err := range t.client.Folders.ListItemsIter(ctx, "0", nil) {
		if err != nil {
			return "", err
		}
		if it.Type == "file" && it.Name == name {
			return it.ID, nil
		}
	}
	path, err := sourceFile(size)
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	file, _, err := t.client.Uploads.UploadChunked(ctx, "0", name, f, size, nil)
	if err != nil {
		return "", err
	}
	return file.ID, nil
}
