package refserver

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkGetFolderLargeTree gets folder representations in a tree of
// 200,000 files of the admin (20 folders of 10 folders of 1,000 files):
// the root, whose size covers every file, one of the 20 (10,000 files
// below it), and one leaf folder. A folder's size was summed over its
// subtree on every call; the folder indexes keep it now.
func BenchmarkGetFolderLargeTree(b *testing.B) {
	var top, leaf string
	s := filledServer(b, func(f *benchFill) {
		seq := 0
		for i := range 20 {
			t := f.folder(fmt.Sprintf("top-%02d", i), state.RootID)
			top = t
			for j := range 10 {
				l := f.folder(fmt.Sprintf("sub-%02d", j), t)
				leaf = l
				for k := range 1000 {
					f.file(fmt.Sprintf("file-%04d.bin", k), l, int64(seq%4096), seq, time.Duration(seq%97)*time.Second)
					seq++
				}
			}
		}
	})
	h := s.Handler()
	for _, c := range []struct{ name, path string }{
		{"root", "/folders/0"},
		{"top", "/folders/" + top},
		{"leaf", "/folders/" + leaf},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchDo(b, h, http.MethodGet, c.path, s.AdminToken(), "", "")
			}
		})
	}
}
