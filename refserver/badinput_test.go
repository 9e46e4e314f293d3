package refserver

import (
	"bytes"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// TestTruncatedMultipartUploadStoresNothing: a multipart body cut off inside
// the file part, or lacking only its closing boundary, is a truncated body:
// 400 and nothing stored, with the memory store (the default) and the
// directory store alike, for new files and new versions.
func TestTruncatedMultipartUploadStoresNothing(t *testing.T) {
	t.Parallel()
	for _, storeName := range []string{"memory", "dir"} {
		t.Run(storeName, func(t *testing.T) {
			t.Parallel()
			opts := Options{}
			if storeName == "dir" {
				st, err := NewDirStore(t.TempDir())
				require.NoError(t, err)
				opts.Store = st
			}
			e := newEnv(t, opts)
			tok := e.s.UserToken()
			existing := e.uploadFile(tok, "0", "existing.txt", []byte("v1"))
			content := bytes.Repeat([]byte("0123456789"), 300)
			full, ct := multipartBody(t, `{"name":"cut.txt","parent":{"id":"0"}}`, content)
			whole, err := io.ReadAll(full)
			require.NoError(t, err)
			closing := bytes.LastIndex(whole, []byte("\r\n--"))
			require.Positive(t, closing)
			require.True(t, bytes.HasSuffix(whole, []byte("\r\n--"+boundaryOf(t, ct)+"--\r\n")))
			cuts := map[string][]byte{
				"inside the file part":                    whole[:closing-1000],
				"just before the closing boundary":        whole[:closing],
				"closing boundary without its final dash": whole[:len(whole)-len("-\r\n")],
				"closing boundary without its dashes":     whole[:len(whole)-len("--\r\n")],
			}
			for name, body := range cuts {
				t.Run(name, func(t *testing.T) {
					before, blobs := snapshot(e.s), blobCount(t, e.s)
					for _, url := range []string{e.upload("/files/content"), e.upload("/files/" + existing["id"].(string) + "/content")} {
						resp, b := e.do("POST", url, tok, bytes.NewReader(body), hdr{"Content-Type": ct})
						requireAPIError(t, resp, decodeMap(t, b), http.StatusBadRequest, wire.CodeBadRequest)
					}
					assert.Equal(t, before, snapshot(e.s), "state untouched")
					assert.Equal(t, blobs, blobCount(t, e.s), "nothing stored")
				})
			}
			// The whole body is still taken, and so is one whose closing
			// boundary lacks the optional CRLF after it.
			for _, body := range [][]byte{whole, whole[:len(whole)-2]} {
				resp, b := e.do("POST", e.upload("/files/content"), tok, bytes.NewReader(body), hdr{"Content-Type": ct})
				require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", b)
				assert.Equal(t, sha1Hex(content), decodeMap(t, b)["entries"].([]any)[0].(map[string]any)["sha1"])
				_, _ = e.do("DELETE", e.api("/files/"+decodeMap(t, b)["entries"].([]any)[0].(map[string]any)["id"].(string)), tok, nil, nil)
			}
		})
	}
}

func boundaryOf(t *testing.T, contentType string) string {
	t.Helper()
	_, b, ok := strings.Cut(contentType, "boundary=")
	require.True(t, ok)
	return b
}

// TestDurableServerSyncsBeforeCommit: on a persisted server every answer's
// content is synced before the commit of the state that names it: a new
// file's blob and entry, a session's part, the blob a commit makes (the
// store's own notes are tested in internal/blob). A small blob has no file
// to sync: it is written by the commit itself.
func TestDurableServerSyncsBeforeCommit(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var events []string
	record := func(ev string) {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	}
	taken := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := events
		events = nil
		return out
	}
	// The server: syncs, then the commit.
	e := newEnv(t, Options{DataDir: t.TempDir()})
	sb, ok := e.s.st.Store.(*persist.SmallBlobs)
	require.True(t, ok, "the data directory's store keeps small blobs in the database")
	d := sb.Dir()
	require.True(t, d.Durable(), "DataDir makes the store durable")
	d.SetOnSync(func(kind, name string) { record(kind + ":" + name) })
	e.s.db.BeforeCommit = func() error { record("commit"); return nil }
	serverDir := "dir:" + filepath.Base(d.Path())
	blobOf := func(fileID string) string {
		tx, end := beginTx(e.s.st)
		defer end()
		vs := tx.Items.At("file", fileID).Versions
		return "file:" + vs[len(vs)-1].Blob.ID() + ".blob"
	}
	tok := e.s.UserToken()
	f := e.uploadFile(tok, "0", "a.txt", bytes.Repeat([]byte("l"), persist.SmallBlobMax+1))["id"].(string)
	ev := taken()
	require.Len(t, ev, 3, "%v", ev)
	assert.ElementsMatch(t, []string{blobOf(f), serverDir}, ev[:2])
	assert.Equal(t, "commit", ev[2], "the commit comes after the syncs")
	e.uploadFile(tok, "0", "small.txt", bytes.Repeat([]byte("s"), persist.SmallBlobMax))
	assert.Equal(t, []string{"commit"}, taken(), "a small blob is written by the commit")

	data := []byte("0123456789")
	sess := e.createSession(tok, "0", "big.bin", len(data))
	assert.Equal(t, []string{serverDir, "commit"}, taken(), "the assembly's entry before the session")
	resp, m := e.putPart(tok, endpoints(sess)["upload_part"], data[:4], 0, len(data), nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	tx, end := beginTx(e.s.st)
	asm := "file:" + blob.AssemblyFile(tx.Sessions.At(sess["id"].(string)).Asm.ID())
	end()
	assert.Equal(t, []string{asm, "commit"}, taken(), "the part's bytes before the session lists it")

	parts := []any{m["part"]}
	for off := 4; off < len(data); off += 4 {
		chunk := data[off:min(off+4, len(data))]
		resp, m := e.putPart(tok, endpoints(sess)["upload_part"], chunk, off, len(data), nil)
		require.Equal(t, 200, resp.StatusCode, "%v", m)
		parts = append(parts, m["part"])
	}
	taken()
	resp, m = e.doJSON("POST", endpoints(sess)["commit"], tok, map[string]any{"parts": parts}, hdr{"Digest": digestOf(data)})
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	ev = taken()
	require.Len(t, ev, 3, "%v", ev)
	committed := m["entries"].([]any)[0].(map[string]any)["id"].(string)
	assert.ElementsMatch(t, []string{blobOf(committed), serverDir}, ev[:2])
	assert.Equal(t, "commit", ev[2], "the blob of a session commit is synced before the file is")
}
