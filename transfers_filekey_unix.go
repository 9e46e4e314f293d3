//go:build linux || darwin || freebsd || netbsd || openbsd

package cms

import (
	"os"
	"syscall"
)

// fileKey is what must not change for a remembered SHA-1 to hold
// (FileHashCache).
type fileKey struct {
	Size     int64  `json:"size"`
	ModNs    int64  `json:"mod_ns"`
	ChangeNs int64  `json:"change_ns"`
	Inode    uint64 `json:"inode"`
	Dev      uint64 `json:"dev"`
}

// keyOf is fi's key; ok is false when the platform's file information has
// no change time.
func keyOf(fi os.FileInfo) (fileKey, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{Size: fi.Size(), ModNs: fi.ModTime().UnixNano(), ChangeNs: changeTime(st),
		Inode: uint64(st.Ino), Dev: uint64(st.Dev)}, true //nolint:unconvert // widths differ by platform
}
