//go:build linux

package main

import (
	"os"
	"syscall"
)

// The ceiling's receiver makes the two file system calls the reference
// server's store makes (refserver/internal/diskio, which this program
// cannot import): it reserves the file's blocks before the first part
// (fallocate, keeping the size) and syncs each part's data (fdatasync).

func preallocate(f *os.File, size int64) error {
	const keepSize = 0x1 // FALLOC_FL_KEEP_SIZE
	return syscall.Fallocate(int(f.Fd()), keepSize, 0, size)
}

func syncData(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
