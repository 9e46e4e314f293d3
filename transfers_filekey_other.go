//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cms

import "os"

// fileKey is empty where the platform gives no change time: nothing is
// cached there (FileHashCache).
type fileKey struct{}

func keyOf(os.FileInfo) (fileKey, bool) { return fileKey{}, false }
