package external

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingStore is a user-written Store: it wraps the memory store and
// counts blobs written, which needs Store and BlobInfo to be nameable.
type countingStore struct {
	refserver.Store
	puts atomic.Int64
}

func (c *countingStore) Put(ctx context.Context, r io.Reader) (refserver.BlobInfo, error) {
	c.puts.Add(1)
	return c.Store.Put(ctx, r)
}

// startDemo is what a program (not a test) does: start, use, stop the
// server without the testing package.
func startDemo(ctx context.Context, store refserver.Store) (string, error) {
	srv, err := refserver.Start(refserver.Options{Store: store})
	if err != nil {
		return "", err
	}
	defer srv.Close()
	client, err := cms.NewClient(cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()), cms.WithToken(srv.UserToken()))
	if err != nil {
		return "", err
	}
	f, _, err := client.Files.Upload(ctx, "0", "hello.txt", strings.NewReader("hello"), 5, nil)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, _, err := client.Files.DownloadTo(ctx, f.ID, &buf, nil); err != nil {
		return "", err
	}
	return buf.String(), srv.Close()
}

func TestServerWithoutTesting(t *testing.T) {
	store := &countingStore{Store: refserver.NewMemoryStore()}
	got, err := startDemo(context.Background(), store)
	require.NoError(t, err)
	assert.Equal(t, "hello", got)
	assert.EqualValues(t, 1, store.puts.Load())
}

func TestCmstestFromOutside(t *testing.T) {
	ctx := context.Background()
	srv := cmstest.NewServer(t, cmstest.Options{PartSize: 1024, ChunkedMinSize: 4096})
	client := srv.Client(t, cms.WithRetryPolicy(cms.RetryPolicy{MaxRetries: 2}))

	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "outside", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	srv.ResetRequests()
	srv.Inject(cmstest.Fault{Method: http.MethodGet, Path: "/folders/*", Count: 1, Status: http.StatusServiceUnavailable})
	_, _, err = client.Folders.Get(ctx, folder.ID, nil)
	require.NoError(t, err, "the injected 503 is retried")

	var rec []cmstest.RequestRecord = srv.Requests()
	require.Len(t, rec, 2)
	assert.Equal(t, "/2.0/folders/"+folder.ID, rec[0].Path)

	data := bytes.Repeat([]byte("x"), 5000)
	f, _, err := client.Uploads.UploadChunked(ctx, folder.ID, "big.bin", bytes.NewReader(data), int64(len(data)), nil)
	require.NoError(t, err)
	assert.EqualValues(t, len(data), f.Size)
}

func TestRegisterAppAndSignIn(t *testing.T) {
	ctx := context.Background()
	srv := cmstest.NewServer(t, cmstest.Options{})
	var app refserver.App
	app, err := srv.RegisterApp(refserver.App{})
	require.NoError(t, err)
	ts, err := cms.NewCCGTokenSource(app.ClientID, app.ClientSecret, cms.EnterpriseSubject(srv.EnterpriseID()), cms.WithAuthBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	client, err := cms.NewClient(append(srv.ClientOptions(""), cms.WithTokenSource(ts))...)
	require.NoError(t, err)
	_, _, err = client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "by-app", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)

	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	cfg, _, err := srv.NewAppConfig(key, "secret")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "config.json")
	require.NoError(t, os.WriteFile(path, cfg, 0o600))
	ac, err := cms.LoadAppConfig(path)
	require.NoError(t, err)
	jwt, err := cms.NewJWTTokenSource(ac, cms.WithAuthBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	tok, err := jwt.Token()
	require.NoError(t, err)
	assert.NotEmpty(t, tok.AccessToken)
}
