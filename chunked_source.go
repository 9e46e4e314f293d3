package cms

import (
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// sectionOpener returns how to open the body of a part of an io.ReaderAt
// source. For a regular *os.File on Linux each body is a descriptor of its
// own on the same file (reopened through /proc/self/fd, so a renamed or
// deleted file still works), positioned at the part: net/http then sends it
// with sendfile, without copying the bytes through the process. Otherwise,
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
		if _, err := g.Seek(off, io.SeekStart); err != nil {
			g.Close()
			return section(off, n)
		}
		return &fileSection{f: g, end: off + n}, nil
	}
}

// fileSection is a request body of the bytes of a file from its offset up
// to end. It exposes the file's descriptor (syscall.Conn), so net/http sends
// it with sendfile, which moves the file offset; Read follows that offset
// too, so either way the body ends at end.
type fileSection struct {
	f   *os.File
	end int64
}

func (b *fileSection) Read(p []byte) (int, error) {
	pos, err := b.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if pos >= b.end {
		return 0, io.EOF
	}
	return b.f.Read(p[:min(int64(len(p)), b.end-pos)])
}

func (b *fileSection) Close() error { return b.f.Close() }

// SyscallConn gives net/http the file descriptor for sendfile.
func (b *fileSection) SyscallConn() (syscall.RawConn, error) { return b.f.SyscallConn() }
