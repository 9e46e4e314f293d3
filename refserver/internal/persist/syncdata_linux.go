//go:build linux

package persist

import (
	"errors"
	"os"
	"syscall"
)

// syncData makes the bytes written to f durable, with the metadata needed
// to read them back but not the rest (fdatasync): a log whose blocks were
// written when it was created costs one flush of its data.
func syncData(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
