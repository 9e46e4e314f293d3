package refserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
)

// madeStore is a Store whose blobs named "made-<size>" are made on the fly
// as they are read (a repeating pattern, seekable): archives of hundreds of
// MiB without holding them anywhere.
type madeStore struct{ blob.Store }

func (s madeStore) Open(ctx context.Context, id string) (io.ReadSeekCloser, error) {
	var size int64
	if _, err := fmt.Sscanf(id, "made-%d", &size); err == nil {
		return &madeReader{size: size}, nil
	}
	return s.Store.Open(ctx, id)
}

type madeReader struct{ off, size int64 }

func (r *madeReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), r.size-r.off))
	for i := range n {
		p[i] = byte((r.off + int64(i)) % 251)
	}
	r.off += int64(n)
	return n, nil
}

func (r *madeReader) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += r.off
	case io.SeekEnd:
		off += r.size
	}
	r.off = off
	return off, nil
}

func (r *madeReader) Close() error { return nil }

// zipTree is an in-process server whose user owns a folder of folders
// holding files files of size bytes each (made on the fly); it returns
// the top folder's id.
func zipTree(tb testing.TB, files, perFolder int, size int64) (*Server, string) {
	tb.Helper()
	s, err := New(Options{Store: madeStore{blob.NewMemory()}})
	if err != nil {
		tb.Fatal(err)
	}
	tx, end := beginTx(s.st)
	defer end()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	folder := func(name, parent string) *state.Item {
		f := &state.Item{Typ: "folder", ID: tx.NewID(), Name: name, ParentID: parent, Owner: tx.User, CreatedBy: tx.User, ModBy: tx.User, CreatedAt: now, ModifiedAt: now}
		tx.AddItem(f)
		return f
	}
	top := folder("top", state.RootID)
	var sub *state.Item
	for i := range files {
		if i%perFolder == 0 {
			sub = folder(fmt.Sprintf("sub-%04d", i/perFolder), top.ID)
		}
		b := blob.RefOf(BlobInfo{ID: fmt.Sprintf("made-%d", size), Size: size, SHA1: fmt.Sprintf("%040x", i)})
		tx.AddItem(&state.Item{Typ: "file", ID: tx.NewID(), Name: fmt.Sprintf("file-%06d.bin", i), ParentID: sub.ID,
			Owner: tx.User, CreatedBy: tx.User, ModBy: tx.User, CreatedAt: now, ModifiedAt: now, ContentModifiedAt: now,
			Versions: []*state.Version{state.NewVersion(tx.NewID(), b, now, tx.User)}})
	}
	return s, top.ID
}

// discard is a ResponseWriter that keeps nothing of the body.
type discard struct {
	h    http.Header
	code int
	n    int64
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }

// zipOnce asks for an archive of folder and streams it into nothing; it
// returns the archive's size.
func zipOnce(tb testing.TB, s *Server, folder string) int64 {
	req := httptest.NewRequest(http.MethodPost, "http://"+state.InProcessAPIHost+state.APIRoot+"/zip_downloads",
		strings.NewReader(`{"items":[{"type":"folder","id":"`+folder+`"}]}`))
	req.Header.Set("Authorization", "Bearer "+s.UserToken())
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	var z struct {
		DownloadURL string `json:"download_url"`
	}
	if w.Code != http.StatusAccepted || json.Unmarshal(w.Body.Bytes(), &z) != nil {
		tb.Fatalf("POST /zip_downloads: %d %s", w.Code, w.Body)
	}
	d := &discard{h: http.Header{}}
	s.Handler().ServeHTTP(d, httptest.NewRequest(http.MethodGet, z.DownloadURL, nil))
	if d.code != http.StatusOK {
		tb.Fatalf("GET the archive: %d", d.code)
	}
	return d.n
}

// TestZipContentMemoryIsBounded streams a 256 MiB archive (64 files of
// 4 MiB, made on the fly, in 8 folders): what the server allocates
// meanwhile stays far below the archive's size. Not parallel, so other
// tests' allocations do not count.
func TestZipContentMemoryIsBounded(t *testing.T) {
	const files, size = 64, 4 << 20
	s, top := zipTree(t, files, 8, size)
	zipOnce(t, s, top) // warm the pools
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := zipOnce(t, s, top)
	runtime.ReadMemStats(&after)
	if n < files*size {
		t.Fatalf("archive of %d bytes, want at least %d", n, files*size)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB to send %d MiB", allocated>>10, n>>20)
	if allocated > 8<<20 {
		t.Fatalf("allocated %d bytes to send %d: the archive is held in memory", allocated, n)
	}
}

// BenchmarkZipContent asks for and sends archives of 100, 1000 and 10000
// small files: the time and allocations per file stay flat (the cost is
// linear in the items the archive touches).
func BenchmarkZipContent(b *testing.B) {
	for _, files := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			s, top := zipTree(b, files, 100, 1024)
			b.ReportAllocs()
			for b.Loop() {
				zipOnce(b, s, top)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*files), "ns/file")
		})
	}
}

// BenchmarkRecentItems reads the first page of 100 of a user's 1000
// recent items, and notes one interaction (a download).
func BenchmarkRecentItems(b *testing.B) {
	s, top := zipTree(b, 1000, 100, 16)
	tx, end := beginTx(s.st)
	var ids []string
	for _, sub := range tx.Children(top, nil) {
		for _, f := range tx.Children(sub.ID, nil) {
			ids = append(ids, f.ID)
			tx.ItemEvent(state.EvItemDownload, f, tx.User)
		}
	}
	end()
	b.Run("page", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchDo(b, s.Handler(), http.MethodGet, "/recent_items?limit=100", s.UserToken(), "", "")
		}
	})
	b.Run("interaction", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s.st.Update(func(tx *state.Tx) { tx.ItemEvent(state.EvItemDownload, tx.Items.At("file", ids[i%len(ids)]), tx.User) })
			i++
		}
	})
}
