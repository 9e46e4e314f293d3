package cms

import (
	"io"
	"os"
	"runtime"
	"strconv"

	"github.com/contentapi/cms/internal/filebody"
)

// readerAt returns r as an io.ReaderAt when its parts can be read in place:
// an *os.File only when it is a regular file (a pipe or a terminal has the
// method, but its ReadAt fails).
func readerAt(r io.Reader) (io.ReaderAt, bool) {
	ra, ok := r.(io.ReaderAt)
	if f, isFile := r.(*os.File); ok && isFile {
		st, err := f.Stat()
		ok = err == nil && st.Mode().IsRegular()
	}
	return ra, ok
}

// sectionOpener returns how to open the body of a part of an io.ReaderAt
// source. For a regular *os.File on Linux each body is a descriptor of its
// own on the same file (reopened through /proc/self/fd, so a renamed or
// deleted file still works), positioned at the part (filebody.Section):
// net/http then sends it with sendfile, without copying the bytes through
// the process. Otherwise,
// and whenever the reopening fails, a body is a section reader.
func sectionOpener(ra io.ReaderAt) func(off, n int64) (io.ReadCloser, error) {
	section := func(off, n int64) (io.ReadCloser, error) {
		return io.NopCloser(io.NewSectionReader(ra, off, n)), nil
	}
	f, ok := ra.(*os.File)
	if !ok || runtime.GOOS != "linux" {
		return section
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return section
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return section
	}
	var path string
	if err := rc.Control(func(fd uintptr) { path = "/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10) }); err != nil {
		return section
	}
	return func(off, n int64) (io.ReadCloser, error) {
		g, err := os.Open(path)
		if err != nil {
			return section(off, n)
		}
		if gst, err := g.Stat(); err != nil || !os.SameFile(st, gst) {
			g.Close()
			return section(off, n)
		}
		body, err := filebody.New(g, off, n)
		if err != nil {
			g.Close()
			return section(off, n)
		}
		return body, nil
	}
}
