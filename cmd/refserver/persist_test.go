package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmd/internal/serveflags"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childArgs is set in the environment of a test binary started as
// cmd/refserver: its value is the command line, split on spaces.
const childArgs = "REFSERVER_TEST_CHILD_ARGS"

// TestMain lets the test binary run as cmd/refserver itself, so that a
// test can kill a real server process.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(childArgs); ok {
		os.Args = append([]string{os.Args[0]}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child is cmd/refserver running in a process of its own.
type child struct {
	cmd  *exec.Cmd
	line serveflags.StartupLine
}

// startChild starts cmd/refserver with args and reads its startup line.
func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(args, " "))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	c := &child{cmd: cmd}
	t.Cleanup(func() { c.kill() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, "startup line")
	require.NoError(t, json.Unmarshal([]byte(line), &c.line))
	return c
}

// kill ends the process at once (SIGKILL): no Close, no last write.
func (c *child) kill() {
	if c.cmd.ProcessState == nil {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	}
}

// stop ends the process with SIGTERM, as an operator would.
func (c *child) stop(t *testing.T) {
	t.Helper()
	require.NoError(t, c.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, c.cmd.Wait())
}

// client is an SDK client of the user, without retries, counting the
// parts it sends in *puts when puts is not nil.
func (c *child) client(t *testing.T, puts *atomic.Int64) *cms.Client {
	t.Helper()
	rt := http.DefaultTransport
	if puts != nil {
		rt = countPuts{rt, puts}
	}
	cl, err := cms.NewClient(cms.WithBaseURL(c.line.BaseURL), cms.WithUploadURL(c.line.UploadURL),
		cms.WithToken(c.line.Tokens["user"]), cms.WithoutRetries(), cms.WithHTTPClient(&http.Client{Transport: rt}))
	require.NoError(t, err)
	return cl
}

// countPuts counts PUT requests (upload parts).
type countPuts struct {
	http.RoundTripper
	n *atomic.Int64
}

func (c countPuts) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPut {
		c.n.Add(1)
	}
	return c.RoundTripper.RoundTrip(r)
}

// TestKilledDuringChunkedUploadResumes is issue #12's test: cmd/refserver
// -data DIR is killed (SIGKILL) in the middle of a chunked upload made
// with the SDK, started again on the same directory, and the upload is
// resumed with its session id and committed; the file is whole and what
// was there before the kill is still there, with the same tokens.
func TestKilledDuringChunkedUploadResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	ctx := context.Background()
	dir := t.TempDir()
	const partSize, parts = 64 << 10, 24
	args := []string{"-data", dir, "-part-size", "65536", "-chunked-min-size", "1", "-seed"}
	first := startChild(t, args...)
	cl := first.client(t, nil)

	folder, _, err := cl.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Before the kill", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	data := make([]byte, parts*partSize-123)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	sum := sha1.Sum(data)

	const killAfter = 10
	_, _, err = cl.Uploads.UploadChunked(ctx, folder.ID, "big.bin", bytes.NewReader(data), int64(len(data)), &cms.ChunkedUploadOptions{
		Concurrency: 1,
		Progress: func(p cms.Progress) {
			if p.PartsDone == killAfter {
				first.kill()
			}
		},
	})
	var uerr *cms.UploadError
	require.ErrorAs(t, err, &uerr)
	require.True(t, uerr.SessionKept, "%v", err)
	require.NotEmpty(t, uerr.SessionID)

	second := startChild(t, args...)
	assert.Equal(t, first.line.Tokens, second.line.Tokens, "the tokens survive the restart")
	assert.Equal(t, first.line.Users, second.line.Users)
	var puts atomic.Int64
	cl = second.client(t, &puts)
	stored := 0
	for p, err := range cl.Uploads.ListPartsIter(ctx, uerr.SessionID, nil) {
		require.NoError(t, err)
		require.Equal(t, int64(stored*partSize), p.Offset)
		stored++
	}
	assert.GreaterOrEqual(t, stored, killAfter, "every answered part survives the kill")
	require.Less(t, stored, parts, "the kill came in the middle of the upload")

	f, _, err := cl.Uploads.Resume(ctx, uerr.SessionID, bytes.NewReader(data), int64(len(data)), nil)
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(sum[:]), f.SHA1)
	assert.EqualValues(t, parts-stored, puts.Load(), "only the missing parts were sent")

	body, _, err := cl.Files.Download(ctx, f.ID, nil)
	require.NoError(t, err)
	got, err := io.ReadAll(body)
	body.Close()
	require.NoError(t, err)
	assert.True(t, bytes.Equal(data, got), "downloaded content")

	// What was there before the kill: the folder, the seeded content (not
	// seeded twice), the ids going on.
	_, _, err = cl.Folders.Get(ctx, folder.ID, nil)
	require.NoError(t, err)
	root, _, err := cl.Folders.ListItems(ctx, "0", nil)
	require.NoError(t, err)
	var names []string
	for _, it := range root.Entries {
		names = append(names, it.Name)
	}
	assert.ElementsMatch(t, []string{"Documents", "Photos", "welcome.txt", "Before the kill"}, names)

	second.stop(t)
	third := startChild(t, args...)
	_, _, err = third.client(t, nil).Files.Get(ctx, f.ID, nil)
	require.NoError(t, err, "a graceful stop keeps the state too")
	third.stop(t)
}

// Flags given on the command line win over the stored tokens.
func TestRunDataFlagTokens(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	dir := t.TempDir()
	first := startChild(t, "-data", dir)
	first.stop(t)
	second := startChild(t, "-data", dir, "-admin-token", "fixed")
	assert.Equal(t, "fixed", second.line.Tokens["admin"])
	assert.Equal(t, first.line.Tokens["user"], second.line.Tokens["user"])
	second.stop(t)
}
