package refserver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
						requireAPIError(t, resp, decodeMap(t, b), http.StatusBadRequest, codeBadRequest)
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

// TestMemoryStoreTruncatedReaderKeepsNothing: a Put whose reader fails
// (io.ErrUnexpectedEOF included) fails and keeps nothing.
func TestMemoryStoreTruncatedReaderKeepsNothing(t *testing.T) {
	t.Parallel()
	m := NewMemoryStore().(*memoryStore)
	for _, size := range []int{10, memSegment, memSegment + 10} {
		_, err := m.Put(context.Background(), io.MultiReader(bytes.NewReader(make([]byte, size)), errReader{io.ErrUnexpectedEOF}))
		require.ErrorIs(t, err, io.ErrUnexpectedEOF, "size %d", size)
	}
	assert.Empty(t, m.blobs)
	for _, size := range []int{0, 1, memSegment - 1, memSegment, 2*memSegment + 7} {
		data := bytes.Repeat([]byte{byte(size)}, size)
		info, err := m.Put(context.Background(), bytes.NewReader(data))
		require.NoError(t, err)
		assert.Equal(t, int64(size), info.Size)
		assert.Equal(t, sha1Hex(data), info.SHA1)
		r, err := m.Open(context.Background(), info.ID)
		require.NoError(t, err)
		got, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got), "size %d read back", size)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestMemoryStoreKeepsSmallBlobsAtTheirSize: 200 blobs of 1 KB hold about
// 200 KB, not a 1 MiB segment each (200 MiB). Not parallel: it reads the
// heap of the whole process.
func TestMemoryStoreKeepsSmallBlobsAtTheirSize(t *testing.T) {
	m := NewMemoryStore()
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	ids := make([]string, 200)
	for i := range ids {
		info, err := m.Put(context.Background(), strings.NewReader(fmt.Sprintf("%01000d", i)))
		require.NoError(t, err)
		ids[i] = info.ID
	}
	grown := int64(heap()) - int64(before)
	assert.Less(t, grown, int64(20<<20), "200 blobs of 1 KB grew the heap by %d bytes", grown)
	runtime.KeepAlive(m)
}

// TestDurableDirStoreSyncsBeforeAnswering: a persisted server's store
// fsyncs a blob's bytes and then its directory entry before Put returns (so
// before the handler commits the state that refers to it), an upload
// part's bytes before WriteAt returns, and an assembly's entry when it is
// made and when it becomes a blob. A store without persistence does not.
func TestDurableDirStoreSyncsBeforeAnswering(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DataDir: t.TempDir()})
	d, ok := e.s.store.(*dirStore)
	require.True(t, ok)
	require.True(t, d.durable, "DataDir makes the store durable")

	plain, err := NewDirStore(t.TempDir())
	require.NoError(t, err)
	assert.False(t, plain.(*dirStore).durable)

	var events []string
	d2 := &dirStore{dir: t.TempDir(), durable: true, onSync: func(kind, name string) {
		events = append(events, kind+":"+strings.SplitN(name, "-", 2)[0])
	}}
	ctx := context.Background()
	_, err = d2.Put(ctx, strings.NewReader("content"))
	require.NoError(t, err)
	assert.Equal(t, []string{"file:put", "dir:" + strings.SplitN(filepath.Base(d2.dir), "-", 2)[0]}, events)

	events = nil
	a, err := d2.NewAssembly(ctx, 8)
	require.NoError(t, err)
	_, err = a.WriteAt(ctx, strings.NewReader("abcd"), 0, 4)
	require.NoError(t, err)
	_, err = a.WriteAt(ctx, strings.NewReader("efgh"), 4, 4)
	require.NoError(t, err)
	_, err = a.Finish(ctx, sha1Hex([]byte("abcdefgh")))
	require.NoError(t, err)
	dirEvent := "dir:" + strings.SplitN(filepath.Base(d2.dir), "-", 2)[0]
	assert.Equal(t, []string{dirEvent, "file:assembly", "file:assembly", dirEvent}, events)
}
