// Package filebody makes request bodies of file sections that net/http can
// send with sendfile.
package filebody

import (
	"io"
	"os"
	"syscall"
)

// Section is a request body of the bytes of a file from its offset up to
// end. It exposes the file's descriptor (syscall.Conn), so net/http sends
// it with sendfile, which moves the file offset; Read follows that offset
// too, so either way the body ends at end. Close closes the file.
type Section struct {
	f   *os.File
	end int64
}

// New positions f at off and returns the body of its n bytes from there.
// The body owns f.
func New(f *os.File, off, n int64) (*Section, error) {
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	return &Section{f: f, end: off + n}, nil
}

// Read reads from the file's offset, never past the section's end.
func (b *Section) Read(p []byte) (int, error) {
	pos, err := b.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if pos >= b.end {
		return 0, io.EOF
	}
	return b.f.Read(p[:min(int64(len(p)), b.end-pos)])
}

// Close closes the file.
func (b *Section) Close() error { return b.f.Close() }

// SyscallConn gives net/http the file descriptor for sendfile.
func (b *Section) SyscallConn() (syscall.RawConn, error) { return b.f.SyscallConn() }
