//go:build !linux

package diskio

import (
	"io"
	"os"
)

// SyncData makes the bytes written to f durable (fsync where fdatasync is
// not offered).
func SyncData(f *os.File) error { return f.Sync() }

// Preallocate does nothing where fallocate is not offered.
func Preallocate(*os.File, int64) error { return nil }

// ReadAhead does nothing here (Linux: the kernel reads the file into the
// page cache in file order).
func ReadAhead(*os.File) {}

// DropMapped does nothing here (Linux: the mapped pages leave the
// process's resident memory).
func DropMapped(uintptr, int64) {}

// Syncer syncs files' data (Linux: without holding a Go processor while
// the disk works); here it is SyncData.
type Syncer struct{}

// NewSyncer returns a Syncer.
func NewSyncer() *Syncer { return &Syncer{} }

// Sync makes the bytes written to f durable.
func (s *Syncer) Sync(f *os.File) error { return SyncData(f) }

// Close releases the Syncer (no file).
func (s *Syncer) Close() error { return nil }

// MapRead returns the first size bytes of f, read into memory here
// (Linux: mapped from the page cache, without a copy), and the function
// that releases them.
func MapRead(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	data = make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
