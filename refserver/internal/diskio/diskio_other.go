//go:build !linux

package diskio

import "os"

// SyncData makes the bytes written to f durable (fsync where fdatasync is
// not offered).
func SyncData(f *os.File) error { return f.Sync() }

// Preallocate does nothing where fallocate is not offered.
func Preallocate(*os.File, int64) error { return nil }

// DropMapped does nothing here (Linux: the mapped pages leave the
// process's resident memory).
func DropMapped(uintptr, int64) {}
