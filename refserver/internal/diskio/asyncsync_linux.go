//go:build linux

package diskio

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// Syncer syncs files' data as SyncData does, without holding a Go
// processor while the disk works: the sync is submitted to the kernel's
// asynchronous I/O (io_submit of IOCB_CMD_FDSYNC: the kernel runs the
// same vfs_fsync with datasync that fdatasync runs, on its own worker),
// and the goroutine waits for the completion on an eventfd through the
// runtime's network poller, its processor free for other goroutines. A
// blocking fdatasync keeps its thread's processor (P) until the
// scheduler's monitor takes it back, which often comes after the sync: in
// a runtime trace of BenchmarkServerLoad (DataDir, 32 clients), 968 of
// 1,282 commit log syncs returned on the P they held (median 0.68 ms), so
// on a 2-core machine one of the two processors sat idle through most
// syncs. Where the kernel has no asynchronous I/O (or the file system no
// asynchronous sync), Sync is SyncData. Safe for concurrent use (one sync
// at a time).
//
// One Syncer serves any number of files, one after the other: make one
// for as long as files are synced, not one per file. Destroying an aio
// context waits for the kernel's RCU grace period (31-43 ms on the
// project's VM, against 0.4-0.8 ms for a sync), so the context is set up
// by the first Sync, and the Close of a Syncer that never synced costs
// nothing.
type Syncer struct {
	mu sync.Mutex
	// settled: no context is to be set up any more (the first Sync set
	// one up or failed to, or Close ran).
	settled bool
	// ctx is the aio context, 0 when Sync is SyncData; event the eventfd
	// its completions are counted on, evfd its descriptor (event.Fd
	// would make it blocking).
	ctx   uintptr
	event *os.File
	evfd  uintptr
	// async counts the syncs completed through aio (tests).
	async int
}

const (
	iocbCmdFdsync = 3      // IOCB_CMD_FDSYNC
	iocbFlagResfd = 1 << 0 // IOCB_FLAG_RESFD: count the completion on aio_resfd
	efdNonblock   = syscall.O_NONBLOCK
	efdCloexec    = syscall.O_CLOEXEC
)

// iocb is struct iocb of linux/aio_abi.h (little-endian layout).
type iocb struct {
	data      uint64
	key       uint32
	rwFlags   int32
	opcode    uint16
	reqprio   int16
	fildes    uint32
	buf       uint64
	nbytes    uint64
	offset    int64
	reserved2 uint64
	flags     uint32
	resfd     uint32
}

// ioEvent is struct io_event.
type ioEvent struct {
	data, obj uint64
	res, res2 int64
}

// NewSyncer returns a Syncer. Close it when done (once it has synced, it
// holds an aio context and an eventfd).
func NewSyncer() *Syncer { return &Syncer{} }

// open sets up the aio context and its eventfd; where it cannot, ctx
// stays 0 and the syncs are SyncData's. Sync calls it once, before its
// first submission.
func (s *Syncer) open() {
	s.settled = true
	var ctx uintptr
	if _, _, e := syscall.Syscall(syscall.SYS_IO_SETUP, 1, uintptr(unsafe.Pointer(&ctx)), 0); e != 0 {
		return
	}
	fd, _, e := syscall.Syscall(syscall.SYS_EVENTFD2, 0, efdNonblock|efdCloexec, 0)
	if e != 0 {
		_, _, _ = syscall.Syscall(syscall.SYS_IO_DESTROY, ctx, 0, 0)
		return
	}
	// Non-blocking: os.NewFile reads it through the poller.
	s.ctx, s.evfd, s.event = ctx, fd, os.NewFile(fd, "aio-eventfd")
}

// Sync makes the bytes written to f durable, with the metadata needed to
// read them back (fdatasync), and returns the sync's error.
func (s *Syncer) Sync(f *os.File) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.settled {
		s.open()
	}
	if s.ctx == 0 {
		return SyncData(f)
	}
	cb := iocb{opcode: iocbCmdFdsync, fildes: uint32(f.Fd()), flags: iocbFlagResfd, resfd: uint32(s.evfd)}
	cbs := [1]*iocb{&cb}
	for {
		n, _, e := syscall.Syscall(syscall.SYS_IO_SUBMIT, s.ctx, 1, uintptr(unsafe.Pointer(&cbs[0])))
		if e == syscall.EINTR || e == syscall.EAGAIN {
			continue
		}
		if e != 0 || n != 1 {
			// Not submitted (a file system without asynchronous sync
			// answers EINVAL; a closed file EBADF): the same sync,
			// blocking, and its error.
			return SyncData(f)
		}
		break
	}
	var (
		count [8]byte
		ev    ioEvent
	)
	for {
		// The kernel puts the event in the ring, then counts it on the
		// eventfd.
		if _, err := s.event.Read(count[:]); err != nil {
			return fmt.Errorf("waiting for a sync: %w", err)
		}
		n, _, e := syscall.Syscall6(syscall.SYS_IO_GETEVENTS, s.ctx, 0, 1, uintptr(unsafe.Pointer(&ev)), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return fmt.Errorf("reading a sync's completion: %w", e)
		}
		if n == 1 {
			break
		}
	}
	s.async++
	if ev.res < 0 {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: syscall.Errno(-ev.res)}
	}
	return nil
}

// Close releases the aio context and the eventfd (no file), after a sync
// under way; a closed Syncer's syncs are SyncData's.
func (s *Syncer) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settled = true
	if s.ctx == 0 {
		return nil
	}
	_, _, e := syscall.Syscall(syscall.SYS_IO_DESTROY, s.ctx, 0, 0)
	s.ctx = 0
	var err error
	if e != 0 {
		err = e
	}
	return errors.Join(err, s.event.Close())
}
