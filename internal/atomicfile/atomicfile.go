// Package atomicfile writes a file so that readers see either its old
// content or the new one, never a part: the data goes to a temporary file in
// the same directory, is synced, and is renamed over the target.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// WriteFile writes data to path atomically with mode perm (applied to the
// temporary file before any byte is written, so a secret is never readable
// by others, not even briefly). On error the temporary file is removed and
// path is unchanged.
func WriteFile(path string, data []byte, perm fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("setting mode: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// CreateTemp creates a new file in dir named prefix + a random part +
// suffix, opened for writing, as os.OpenFile(name, O_CREATE|O_EXCL, perm)
// would: the process's umask applies to perm, so perm 0o666 gives the mode
// os.Create gives (os.CreateTemp always makes 0o600). The caller removes
// the file when it does not rename it.
func CreateTemp(dir, prefix, suffix string, perm fs.FileMode) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 36)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 10000 {
			return f, err
		}
	}
}
