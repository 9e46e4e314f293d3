//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

import "os"

// fileKey is empty where the platform gives no change time: nothing is
// cached there.
type fileKey struct{}

func keyOf(os.FileInfo) (fileKey, bool) { return fileKey{}, false }
