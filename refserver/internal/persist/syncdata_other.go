//go:build !linux

package persist

import "os"

// syncData makes the bytes written to f durable (fsync where fdatasync is
// not offered).
func syncData(f *os.File) error { return f.Sync() }
