package cms_test

// BenchmarkCallOverhead measures what one small call costs on the client
// side: the SDK against a hand-written net/http + encoding/json client (the
// reference of cmd/cmsbench's burst), both on the SDK's default transport
// settings, against a server that answers canned bodies recorded from the
// reference server (so the server's share is small and the same for both).
// allocs/op and B/op are deterministic; the difference between the two
// sides is the SDK's overhead per call:
//
//	go test -run '^$' -bench CallOverhead -benchmem .

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/require"
)

// The hand-written client's records: the fields a program would read (as
// cmd/cmsbench's reference decodes).
type (
	rawMini struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	rawFile struct {
		rawMini
		Size       int64   `json:"size"`
		SHA1       string  `json:"sha1"`
		ETag       string  `json:"etag"`
		Parent     rawMini `json:"parent"`
		ModifiedAt string  `json:"modified_at"`
	}
	rawFolder struct {
		rawMini
		ETag   string  `json:"etag"`
		Parent rawMini `json:"parent"`
	}
	rawItemsPage struct {
		TotalCount int       `json:"total_count"`
		Offset     int       `json:"offset"`
		Limit      int       `json:"limit"`
		Entries    []rawMini `json:"entries"`
	}
)

// cannedServer records the answers of the reference server to a file get,
// a page of 100 items and a folder creation, and serves them from memory.
func cannedServer(b *testing.B) (srvURL, fileID, folderID, parentID string) {
	b.Helper()
	rs, c := benchServer(b)
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
	var file, page, created json.RawMessage
	rec := func(method, u, body string, out *json.RawMessage) {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, c.BaseURL()+u, rd)
		require.NoError(b, err)
		req.Header.Set("Authorization", "Bearer "+rs.UserToken())
		resp, err := http.DefaultClient.Do(req)
		require.NoError(b, err)
		defer resp.Body.Close()
		*out, err = io.ReadAll(resp.Body)
		require.NoError(b, err)
		require.Less(b, resp.StatusCode, 300, string(*out))
	}
	rec(http.MethodGet, "/files/"+fileID, "", &file)
	rec(http.MethodGet, "/folders/"+folder.ID+"/items?limit=100", "", &page)
	rec(http.MethodPost, "/folders", fmt.Sprintf(`{"name":"rec","parent":{"id":%q}}`, parent.ID), &created)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		switch {
		case r.Method == http.MethodPost:
			_, _ = io.Copy(io.Discard, r.Body)
			body = created
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write(body)
			return
		case strings.HasSuffix(r.URL.Path, "/items"):
			body = page
		default:
			body = file
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv.URL, fileID, folder.ID, parent.ID
}

func BenchmarkCallOverhead(b *testing.B) {
	base, fileID, folderID, parentID := cannedServer(b)
	ctx := context.Background()
	c, err := cms.NewClient(cms.WithToken("tok"), cms.WithBaseURL(base), cms.WithUploadURL(base))
	require.NoError(b, err)
	raw := &http.Client{Transport: cms.NewDefaultTransport()}
	rawJSON := func(method, u, body string, out any) error {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, u, rd)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer tok")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := raw.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			b, _ := io.ReadAll(resp.Body)
			return fmt.Errorf("%s %s: %s %s", method, u, resp.Status, b)
		}
		return json.NewDecoder(resp.Body).Decode(out)
	}
	calls := []struct {
		name     string
		sdk, raw func() error
	}{
		{"get", func() error { _, _, err := c.Files.Get(ctx, fileID, nil); return err },
			func() error { var f rawFile; return rawJSON(http.MethodGet, base+"/files/"+fileID, "", &f) }},
		{"list100", func() error {
			_, _, err := c.Folders.ListItems(ctx, folderID, &cms.ListItemsOptions{Limit: 100})
			return err
		}, func() error {
			var p rawItemsPage
			return rawJSON(http.MethodGet, base+"/folders/"+folderID+"/items?limit=100", "", &p)
		}},
		{"create", func() error {
			_, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "n", Parent: cms.FolderRef{ID: parentID}}, nil)
			return err
		}, func() error {
			var f rawFolder
			return rawJSON(http.MethodPost, base+"/folders", fmt.Sprintf(`{"name":"n","parent":{"id":%q}}`, parentID), &f)
		}},
	}
	for _, call := range calls {
		for _, side := range []string{"sdk", "raw"} {
			f := call.sdk
			if side == "raw" {
				f = call.raw
			}
			b.Run(call.name+"/"+side, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
