package cms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renamingTransport makes the server's file records (GET /files/{id})
// carry another name, as a hostile or broken server could.
type renamingTransport struct {
	base http.RoundTripper
	name string
}

var fileRecordPath = regexp.MustCompile(`/files/[0-9]+$`)

func (rt *renamingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := rt.base.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || !fileRecordPath.MatchString(r.URL.Path) {
		return resp, err
	}
	defer resp.Body.Close()
	var rec map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&rec); err != nil {
		return nil, err
	}
	rec["name"] = rt.name
	b, _ := json.Marshal(rec)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestDownloadFileRefusesUnsafeNames: a name sent by the server that is
// not one local path element is refused with ErrUnsafeName before anything
// is written, wherever it would lead.
func TestDownloadFileRefusesUnsafeNames(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	ctx := context.Background()
	c := srv.Client(t)
	f, _, err := c.Files.UploadInOneRequest(ctx, "0", "plain.txt", strings.NewReader("x"), 1, nil)
	require.NoError(t, err)

	base := t.TempDir()
	dir := filepath.Join(base, "inside")
	require.NoError(t, os.Mkdir(dir, 0o755))
	for _, name := range []string{"../x", "..", ".", "a/b", "/etc/x", `a\b`, `..\x`, "nul\x00byte", ""} {
		t.Run(name, func(t *testing.T) {
			hc := &http.Client{Transport: &renamingTransport{base: http.DefaultTransport, name: name}}
			evil := srv.Client(t, cms.WithHTTPClient(hc))
			res, err := evil.Transfers.DownloadFile(ctx, f.ID, dir, nil)
			require.ErrorIs(t, err, cms.ErrUnsafeName)
			var ue *cms.UnsafeNameError
			require.ErrorAs(t, err, &ue)
			assert.Equal(t, name, ue.Name)
			assert.Nil(t, res)
			for _, d := range []string{base, dir} {
				entries, err := os.ReadDir(d)
				require.NoError(t, err)
				if d == base {
					require.Len(t, entries, 1, "nothing written beside the target")
				} else {
					assert.Empty(t, entries, "nothing written in the target")
				}
			}
		})
	}

	// A safe name still works, and a dst naming the file ignores the name.
	res, err := c.Transfers.DownloadFile(ctx, f.ID, dir, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Created)
	hc := &http.Client{Transport: &renamingTransport{base: http.DefaultTransport, name: "../x"}}
	res, err = srv.Client(t, cms.WithHTTPClient(hc)).Transfers.DownloadFile(ctx, f.ID, filepath.Join(dir, "chosen.txt"), nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Created)
	assert.FileExists(t, filepath.Join(dir, "chosen.txt"))
}
