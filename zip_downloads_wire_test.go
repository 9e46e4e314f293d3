package cms

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	for _, b := range []any{
		&CreateZipDownloadRequest{Items: []ZipItem{ZipFile("1")}},
		// Relative paths are taken below the API root, so the sweep's
		// catch-all answers them.
		&ZipDownload{DownloadURL: "zip_downloads/1/content", StatusURL: "zip_downloads/1/status"},
	} {
		sweepBodies[reflect.TypeOf(b)] = b
	}
}

// noSleep is a WithSleep hook that does not wait.
func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func TestZipDownloadsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t, WithSleep(noSleep))
	e := w.e
	canned := `{"download_url":"` + e.contentSrv.URL + `/zip/z1/content","status_url":"` + e.apiSrv.URL + `/2.0/zip_downloads/z1/status",
"expires_at":"2026-01-02T03:04:05Z","name_conflicts":[[{"id":"11","type":"file","original_name":"a.txt","download_name":"a (1).txt"},
{"id":"12","type":"file","original_name":"a.txt","download_name":"a (2).txt"}]]}`
	w.answer("POST /zip_downloads", http.StatusAccepted, canned)
	var statusReads atomic.Int32
	w.serve("GET /zip_downloads/{id}/status", func(rw http.ResponseWriter, r *http.Request) {
		state := "in_progress"
		if statusReads.Add(1) > 1 {
			state = "succeeded"
		}
		writeJSON(rw, http.StatusOK, []byte(`{"total_file_count":3,"downloaded_file_count":2,"skipped_file_count":1,"skipped_folder_count":0,"state":"`+state+`"}`))
	})
	// The archive is 4 MiB sent in 64 KiB writes; after the first write the
	// server waits until the caller's writer has it, so an SDK that held
	// the archive before writing it would never finish.
	const chunk, chunks = 64 << 10, 64
	got := make(chan struct{})
	var contentAuth atomic.Value
	var contentCalls atomic.Int32
	e.content.HandleFunc("GET /zip/z1/content", func(rw http.ResponseWriter, r *http.Request) {
		contentAuth.Store(r.Header.Get("Authorization"))
		rw.Header().Set("Content-Type", "application/zip")
		block := bytes.Repeat([]byte{'z'}, chunk)
		for i := range chunks {
			_, _ = rw.Write(block)
			rw.(http.Flusher).Flush()
			if i == 0 && contentCalls.Add(1) == 1 {
				select {
				case <-got:
				case <-r.Context().Done():
					return
				case <-time.After(10 * time.Second):
					panic("the SDK did not stream the archive")
				}
			}
		}
	})
	ctx := context.Background()
	zs := e.client.ZipDownloads

	z, resp, err := zs.Create(ctx, &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("11"), ZipFolder("12")}, DownloadFileName: "bundle"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	c := w.last(t)
	assert.Equal(t, "/zip_downloads", c.Path)
	assert.Equal(t, "", c.Query)
	assert.JSONEq(t, `{"items":[{"type":"file","id":"11"},{"type":"folder","id":"12"}],"download_file_name":"bundle"}`, c.Body)
	assert.Equal(t, &ZipDownload{DownloadURL: e.contentSrv.URL + "/zip/z1/content", StatusURL: e.apiSrv.URL + "/2.0/zip_downloads/z1/status",
		ExpiresAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		NameConflicts: [][]*ZipNameConflict{{
			{ID: "11", Type: ZipItemTypeFile, OriginalName: "a.txt", DownloadName: "a (1).txt"},
			{ID: "12", Type: ZipItemTypeFile, OriginalName: "a.txt", DownloadName: "a (2).txt"}}}}, z)

	var sink countingWriter
	sink.first = got
	var progress []Progress
	res, resp, err := zs.Download(ctx, &CreateZipDownloadRequest{Items: []ZipItem{ZipFolder("12")}}, &sink,
		&ZipDownloadOptions{Progress: func(p Progress) { progress = append(progress, p) }})
	require.NoError(t, err)
	assert.Equal(t, int64(chunk*chunks), res.Bytes)
	assert.Equal(t, int64(chunk*chunks), sink.n)
	assert.Equal(t, "", contentAuth.Load(), "the download host gets no credentials")
	assert.Equal(t, &ZipDownloadStatus{TotalFileCount: 3, DownloadedFileCount: 2, SkippedFileCount: 1, State: ZipDownloadStateSucceeded}, res.Status,
		"the status is read again while in progress")
	assert.Equal(t, int32(2), statusReads.Load())
	assert.Equal(t, z, res.ZipDownload)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	st := w.last(t)
	assert.Equal(t, "/zip_downloads/z1/status", st.Path)
	assert.Equal(t, "Bearer "+testToken, st.Header.Get("Authorization"), "the status URL is on the API host")
	require.NotEmpty(t, progress)
	assert.Equal(t, int64(chunk*chunks), progress[len(progress)-1].Bytes)
	assert.Equal(t, int64(chunk*chunks), progress[len(progress)-1].TotalBytes)

	st2, _, err := zs.Status(ctx, &ZipDownload{StatusURL: "zip_downloads/z1/status"})
	require.NoError(t, err)
	assert.Equal(t, ZipDownloadStateSucceeded, st2.State)
	assert.Equal(t, "/zip_downloads/z1/status", w.last(t).Path, "a relative status URL is taken below the API root")

	// DownloadToFile: the file appears whole, the temporary file is gone.
	dir := t.TempDir()
	statusReads.Store(1)
	path := filepath.Join(dir, "bundle.zip")
	res, _, err = zs.DownloadToFile(ctx, &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("11")}}, path, &ZipDownloadOptions{StatusReads: -1})
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, int64(chunk*chunks), fi.Size())
	assert.Equal(t, ZipDownloadStateSucceeded, res.Status.State)
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1)

	// Checked before sending.
	n := w.count()
	for _, c := range []struct {
		name string
		body *CreateZipDownloadRequest
		want error
	}{
		{"nil", nil, ErrInvalidArgument},
		{"no items", &CreateZipDownloadRequest{}, ErrInvalidArgument},
		{"web link", &CreateZipDownloadRequest{Items: []ZipItem{{Type: "web_link", ID: "1"}}}, ErrInvalidArgument},
		{"no type", &CreateZipDownloadRequest{Items: []ZipItem{{ID: "1"}}}, ErrInvalidArgument},
		{"no id", &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("1"), ZipFolder("")}}, ErrMissingID},
		{"root folder", &CreateZipDownloadRequest{Items: []ZipItem{ZipFolder("0")}}, ErrInvalidID},
	} {
		_, _, err := zs.Create(ctx, c.body)
		assert.ErrorIs(t, err, c.want, c.name)
		_, _, err = zs.Download(ctx, c.body, io.Discard, nil)
		assert.ErrorIs(t, err, c.want, c.name)
	}
	_, _, err = zs.Download(ctx, &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("1")}}, nil, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = zs.Content(ctx, &ZipDownload{})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = zs.Status(ctx, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = zs.Status(ctx, &ZipDownload{StatusURL: "https://elsewhere.example/2.0/zip_downloads/z1/status?token=secret"})
	assert.ErrorIs(t, err, ErrStatusURLHost, "credentials never go to another host")
	assert.NotContains(t, err.Error(), "secret")
	_, _, err = zs.Content(ctx, &ZipDownload{DownloadURL: "ftp://example.com/z"})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, n, w.count(), "nothing was sent")

	// Failures: a refused archive, an expired download URL; DownloadToFile
	// then leaves nothing behind.
	w2 := newWireLog(t)
	w2.answer("POST /zip_downloads", http.StatusForbidden, `{"type":"error","status":403,"code":"access_denied_insufficient_permissions","message":"Access denied"}`)
	_, resp, err = w2.e.client.ZipDownloads.Download(ctx, &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("1")}}, io.Discard, nil)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "access_denied_insufficient_permissions", ae.Code)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	w3 := newWireLog(t)
	w3.answer("POST /zip_downloads", http.StatusAccepted, `{"download_url":"`+w3.e.contentSrv.URL+`/zip/gone/content","status_url":"zip_downloads/gone/status"}`)
	w3.e.content.HandleFunc("GET /zip/gone/content", func(rw http.ResponseWriter, r *http.Request) {
		writeJSON(rw, http.StatusNotFound, []byte(`{"type":"error","status":404,"code":"not_found","message":"expired"}`))
	})
	dir = t.TempDir()
	res, _, err = w3.e.client.ZipDownloads.DownloadToFile(ctx, &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("1")}}, filepath.Join(dir, "x.zip"), nil)
	assert.ErrorIs(t, err, ErrNotFound)
	require.NotNil(t, res, "the archive asked for comes back with the error")
	assert.Contains(t, res.ZipDownload.DownloadURL, "/zip/gone/content")
	entries, _ = os.ReadDir(dir)
	assert.Empty(t, entries, "no partial or temporary file is left")
}

// countingWriter counts the bytes written and closes first (when set) on
// the first write.
type countingWriter struct {
	n     int64
	first chan struct{}
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.n == 0 && c.first != nil && len(p) > 0 {
		close(c.first)
	}
	c.n += int64(len(p))
	return len(p), nil
}

// zipStreamEnv returns a client of a fake service that answers POST
// /zip_downloads with an archive of size bytes, served from one small
// buffer on a content host of its own.
func zipStreamEnv(tb testing.TB, size int64) *Client {
	block := bytes.Repeat([]byte{'z'}, 256<<10)
	content := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		for left := size; left > 0; {
			n, err := rw.Write(block[:min(int64(len(block)), left)])
			if err != nil {
				return
			}
			left -= int64(n)
		}
	}))
	tb.Cleanup(content.Close)
	api := http.NewServeMux()
	api.HandleFunc("POST /2.0/zip_downloads", func(rw http.ResponseWriter, r *http.Request) {
		writeJSON(rw, http.StatusAccepted, []byte(`{"download_url":"`+content.URL+`/zip/big/content","status_url":"zip_downloads/big/status"}`))
	})
	api.HandleFunc("GET /2.0/zip_downloads/big/status", func(rw http.ResponseWriter, r *http.Request) {
		writeJSON(rw, http.StatusOK, []byte(`{"total_file_count":1,"downloaded_file_count":1,"state":"succeeded"}`))
	})
	apiSrv := httptest.NewServer(api)
	tb.Cleanup(apiSrv.Close)
	c, err := NewClient(WithToken(testToken), WithBaseURL(apiSrv.URL+"/2.0"), WithUploadURL(apiSrv.URL+"/api/2.0"))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestZipDownloadMemoryIsBounded streams a 128 MiB archive through
// Download: the bytes allocated meanwhile stay a small fraction of it (the
// SDK copies through a fixed buffer, it never holds the archive). It is
// not parallel, so other tests' allocations do not count.
func TestZipDownloadMemoryIsBounded(t *testing.T) {
	const size = 128 << 20
	client := zipStreamEnv(t, size)
	ctx := context.Background()
	body := &CreateZipDownloadRequest{Items: []ZipItem{ZipFolder("1")}}
	_, _, err := client.ZipDownloads.Download(ctx, body, io.Discard, nil) // warm the connections and pools
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, _, err := client.ZipDownloads.Download(ctx, body, io.Discard, nil)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Equal(t, int64(size), res.Bytes)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB to download %d MiB", allocated>>10, size>>20)
	assert.Less(t, allocated, uint64(8<<20), "allocations do not grow with the archive")
}

// BenchmarkZipDownload measures Download of a 32 MiB archive: B/op is what
// the client allocates (the server's writes included), far below the
// archive's size.
func BenchmarkZipDownload(b *testing.B) {
	const size = 32 << 20
	client := zipStreamEnv(b, size)
	ctx := context.Background()
	body := &CreateZipDownloadRequest{Items: []ZipItem{ZipFolder("1")}}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := client.ZipDownloads.Download(ctx, body, io.Discard, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestZipDownloadHostsAndCancel: an archive URL on the API host is fetched
// with the client's credentials; a download whose ctx ends midway returns
// ctx's error and DownloadToFile leaves no file behind.
func TestZipDownloadHostsAndCancel(t *testing.T) {
	t.Parallel()
	w := newWireLog(t, WithSleep(noSleep))
	w.answer("POST /zip_downloads", http.StatusAccepted, `{"download_url":"zip_downloads/z2/content","status_url":"zip_downloads/z2/status"}`)
	w.answer("GET /zip_downloads/{id}/status", http.StatusOK, `{"total_file_count":1,"downloaded_file_count":1,"state":"succeeded"}`)
	block := bytes.Repeat([]byte{'z'}, 64<<10)
	w.serve("GET /zip_downloads/{id}/content", func(rw http.ResponseWriter, r *http.Request) {
		for range 64 {
			if _, err := rw.Write(block); err != nil {
				return
			}
		}
	})
	zs := w.e.client.ZipDownloads
	body := &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("1")}}

	res, _, err := zs.Download(context.Background(), body, io.Discard, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(64*len(block)), res.Bytes)
	calls := w.all()
	require.Len(t, calls, 3)
	assert.Equal(t, "/zip_downloads/z2/content", calls[1].Path)
	assert.Equal(t, "Bearer "+testToken, calls[1].Header.Get("Authorization"), "the API host gets the credentials")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	_, _, err = zs.DownloadToFile(ctx, body, filepath.Join(dir, "a.zip"), &ZipDownloadOptions{Progress: func(p Progress) {
		if p.Bytes > 0 {
			cancel()
		}
	}})
	assert.ErrorIs(t, err, context.Canceled)
	entries, _ := os.ReadDir(dir)
	assert.Empty(t, entries, "no partial or temporary file is left")
}
