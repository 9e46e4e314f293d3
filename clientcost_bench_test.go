package cms_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// cannedAPI serves answers recorded from the reference server, so that a
// benchmark measures the client's own cost per call (the server costs
// nothing): a file record, a page of 100 items, a new folder.
func cannedAPI(b *testing.B) (base string, fileID, folderID string) {
	b.Helper()
	srv, err := refserver.New(refserver.Options{})
	require.NoError(b, err)
	b.Cleanup(func() { srv.Close() })
	c, err := cms.NewClient(cms.WithToken(srv.AdminToken()), cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithHTTPClient(&http.Client{Transport: srv.Transport()}))
	require.NoError(b, err)
	ctx := context.Background()
	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "canned", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(b, err)
	for k := range 100 {
		f, _, err := c.Files.UploadInOneRequest(ctx, folder.ID, fmt.Sprintf("f%03d.txt", k), strings.NewReader("x"), 1, nil)
		require.NoError(b, err)
		fileID = f.ID
	}
	record := func(method, path, body string) []byte {
		req, _ := http.NewRequest(method, srv.BaseURL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+srv.AdminToken())
		resp, err := srv.Transport().RoundTrip(req)
		require.NoError(b, err)
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return out
	}
	file := record(http.MethodGet, "/files/"+fileID, "")
	page := record(http.MethodGet, "/folders/"+folder.ID+"/items?limit=100", "")
	created := record(http.MethodPost, "/folders", `{"name":"new","parent":{"id":"0"}}`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		body, status := file, http.StatusOK
		switch {
		case r.Method == http.MethodPost:
			body, status = created, http.StatusCreated
		case strings.HasSuffix(r.URL.Path, "/items"):
			body = page
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body))) // as the reference server sends it
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})
	ts := httptest.NewServer(h)
	b.Cleanup(ts.Close)
	return ts.URL + "/2.0", fileID, folder.ID
}

// BenchmarkClientCost measures what one call costs the client, the SDK
// against a hand-written net/http + encoding/json client decoding into
// small structs, on the same transport settings (canned answers over
// loopback; sequential, so CPU and allocations per call compare).
func BenchmarkClientCost(b *testing.B) {
	base, fileID, folderID := cannedAPI(b)
	ctx := context.Background()
	b.Run("sdk", func(b *testing.B) {
		c, err := cms.NewClient(cms.WithToken("t"), cms.WithURLs(base, base))
		require.NoError(b, err)
		b.ReportAllocs()
		defer reportCPU(b)()
		for k := 0; b.Loop(); k++ {
			var err error
			switch k % 3 {
			case 0:
				_, _, err = c.Files.Get(ctx, fileID, nil)
			case 1:
				_, _, err = c.Folders.ListItems(ctx, folderID, &cms.ListItemsOptions{Limit: 100})
			default:
				_, _, err = c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("n%d", k), Parent: cms.FolderRef{ID: "0"}}, nil)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("net-http", func(b *testing.B) {
		hc := &http.Client{Transport: cms.NewDefaultTransport()}
		type mini struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Name string `json:"name"`
		}
		type file struct {
			mini
			Size       int64  `json:"size"`
			SHA1       string `json:"sha1"`
			ETag       string `json:"etag"`
			Parent     mini   `json:"parent"`
			ModifiedAt string `json:"modified_at"`
		}
		type page struct {
			TotalCount int    `json:"total_count"`
			Entries    []mini `json:"entries"`
		}
		do := func(method, url, body string, v any) error {
			var rd io.Reader
			if body != "" {
				rd = strings.NewReader(body)
			}
			req, err := http.NewRequestWithContext(ctx, method, url, rd)
			if err != nil {
				return err
			}
			req.Header.Set("Authorization", "Bearer t")
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := hc.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			return json.NewDecoder(resp.Body).Decode(v)
		}
		b.ReportAllocs()
		defer reportCPU(b)()
		for k := 0; b.Loop(); k++ {
			var err error
			switch k % 3 {
			case 0:
				var f file
				err = do(http.MethodGet, base+"/files/"+fileID, "", &f)
			case 1:
				var p page
				err = do(http.MethodGet, base+"/folders/"+folderID+"/items?limit=100", "", &p)
			default:
				var f file
				err = do(http.MethodPost, base+"/folders", fmt.Sprintf(`{"name":"n%d","parent":{"id":"0"}}`, k), &f)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU reports the CPU time of the process per operation (user and
// system; the canned server's share is the same for every client).
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64((cpu()-start).Microseconds())/float64(b.N), "cpu-µs/op")
	}
}
