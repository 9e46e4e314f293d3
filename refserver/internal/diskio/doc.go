// Package diskio holds the file system calls of the reference server's
// stores: a sync of a file's data (fdatasync; Syncer: the same sync
// through the kernel's asynchronous I/O, waited for without holding a Go
// processor) and the reservation of a
// file's blocks before it is written (fallocate), and the release of
// a mapped file's pages from the resident memory (madvise), the reading
// of a whole file into the page cache ahead of its reader (fadvise), with plain fallbacks
// where the platform offers neither. (cmd/cmsbench's ceiling, which cannot
// import it, makes the same two calls: ceiling_disk_linux.go.)
package diskio
