package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/internal/filebody"
)

// measureCPU measures the client's CPU for a chunked upload from a file:
// the process's user and system time (getrusage) while the SDK uploads the
// source file, per GiB uploaded, beside the two-hash minimum measured in
// the same run, right before it: the CPU of reading the same file from the
// page cache once, in 256 KiB blocks, and hashing every block with SHA-1
// twice (the part's digest and the whole file's, which the protocol
// requires), on one goroutine. The ratio of the two is how far the SDK is
// from that minimum; the rest is the read's copy, the transfer's system
// calls, the scheduler and the allocator.
//
// The server must not share the process: with -server the measure uses
// that server, otherwise it starts a reference server in a process of its
// own (this program again, with CMSBENCH_REFSERVER_DIR set). With
// -cpuprofile and -suite cpu (or cpu_reader), the profile covers the first
// upload only, and a summary of its top functions goes to standard error.
func measureCPU(ctx context.Context, t *target, c config, i int, emit func(result) error) error {
	return cpuRun(ctx, t, c, i, "upload_file_cpu", func(f *os.File) io.Reader { return f }, emit)
}

// measureCPUReader is measureCPU for the same file seen only as a reader
// (upload_reader's source): the SDK streams it through its part buffers,
// so no part goes out with sendfile, and every byte is copied into the
// process and out again. The minimum stays the two hashes of one read.
func measureCPUReader(ctx context.Context, t *target, c config, i int, emit func(result) error) error {
	return cpuRun(ctx, t, c, i, "upload_reader_cpu", func(f *os.File) io.Reader { return onlyReader{f} }, emit)
}

// cpuRun is a cpu measure: name for its results, wrap for the source the
// SDK reads.
func cpuRun(ctx context.Context, t *target, c config, i int, name string, wrap func(*os.File) io.Reader, emit func(result) error) error {
	path, err := sourceFile(c.size)
	if err != nil {
		return err
	}
	if t.srv != nil {
		remote, stop, err := startRefserverProcess(c.part)
		if err != nil {
			return err
		}
		defer stop()
		t = remote
	}
	sink, stopSink, err := startDiscardProcess()
	if err != nil {
		return err
	}
	defer stopSink()
	// One pass before the first minimum, unmeasured: a source file just
	// written or evicted would charge the first minimum for filling the
	// page cache from disk (up to 3× the warm figure here), while every
	// upload reads it warm.
	if err := twoHashes(path); err != nil {
		return err
	}
	for li, level := range c.levels {
		minimum, err := cpuOf(func() error { return twoHashes(path) })
		if err != nil {
			return err
		}
		transfer, err := cpuOf(func() error { return sendFileTo(sink, path, c.part) })
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		profile := c.cpuProfile != "" && cpuSuite(c.suite) && i == 0 && li == 0
		var file *cms.File
		start := time.Now()
		upload, err := cpuOf(func() error {
			if profile {
				stop, err := startProfile(c.cpuProfile)
				if err != nil {
					return err
				}
				defer stop()
			}
			fname := fmt.Sprintf("bench-cpu-%d.bin", time.Now().UnixNano())
			var err error
			file, _, err = t.client.Uploads.UploadChunked(ctx, "0", fname, wrap(f), c.size, &cms.ChunkedUploadOptions{Concurrency: level})
			return err
		})
		elapsed := time.Since(start)
		f.Close()
		if err != nil {
			return err
		}
		removeFile(ctx, t, file.ID)
		r := result{Name: name, Impl: "go-sdk", SizeBytes: c.size, PartSize: c.part, Concurrency: level,
			Seconds: elapsed.Seconds(), MBPerSecond: float64(c.size) / 1e6 / elapsed.Seconds()}
		cpuFigures(&r, c.size, upload, minimum)
		r.TransferCPUPerGiB = perGiB(transfer.total(), c.size)
		if d := r.MinCPUPerGiB + r.TransferCPUPerGiB; d > 0 {
			r.CPURatioWithTransfer = r.CPUPerGiB / d
		}
		if err := emit(r); err != nil {
			return err
		}
		if profile {
			summarizeProfile(c.cpuProfile, os.Stderr)
		}
	}
	return nil
}

// cpuSuite reports whether suite is one cpu measure alone, which then
// profiles its first upload itself (-cpuprofile).
func cpuSuite(suite string) bool { return suite == "cpu" || suite == "cpu_reader" }

// cpuTimes is CPU time of the process: user and system.
type cpuTimes struct{ user, sys time.Duration }

func (a cpuTimes) sub(b cpuTimes) cpuTimes { return cpuTimes{a.user - b.user, a.sys - b.sys} }

func (a cpuTimes) total() time.Duration { return a.user + a.sys }

// cpuOf runs fn and returns the CPU time the process spent meanwhile.
func cpuOf(fn func() error) (cpuTimes, error) {
	before, err := processCPU()
	if err != nil {
		return cpuTimes{}, err
	}
	if err := fn(); err != nil {
		return cpuTimes{}, err
	}
	after, err := processCPU()
	if err != nil {
		return cpuTimes{}, err
	}
	return after.sub(before), nil
}

// perGiB is d spread over size bytes: seconds per GiB.
func perGiB(d time.Duration, size int64) float64 { return d.Seconds() / (float64(size) / (1 << 30)) }

// cpuFigures fills the CPU fields of r: the upload's CPU in all, its user
// and system parts, and per GiB of size; the minimum per GiB; and their
// ratio.
func cpuFigures(r *result, size int64, upload, minimum cpuTimes) {
	r.CPUSeconds = upload.total().Seconds()
	r.UserSeconds, r.SysSeconds = upload.user.Seconds(), upload.sys.Seconds()
	r.CPUPerGiB = perGiB(upload.total(), size)
	r.MinCPUPerGiB = perGiB(minimum.total(), size)
	if r.MinCPUPerGiB > 0 {
		r.CPURatio = r.CPUPerGiB / r.MinCPUPerGiB
	}
}

// twoHashes reads the file at path once, in 256 KiB blocks, and writes
// every block to two SHA-1 hashes: the least CPU a chunked upload of it
// needs (each byte in the part's digest and the whole file's).
func twoHashes(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	part, whole := sha1.New(), sha1.New()
	buf := make([]byte, 256<<10)
	for {
		n, err := io.ReadFull(f, buf)
		part.Write(buf[:n])
		whole.Write(buf[:n])
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// sendFileTo sends the file at path to the discarding process at addr, in
// sections of part bytes over one connection, as sendfile does for the
// SDK's parts: the CPU the bare transfer costs the sender on this machine
// (over loopback the sender's CPU also runs much of the receiver's TCP
// work, in its softirqs).
func sendFileTo(addr, path string, part int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	tcp := conn.(*net.TCPConn)
	for off := int64(0); off < st.Size(); off += part {
		n := min(part, st.Size()-off)
		body, err := filebody.New(f, off, n)
		if err != nil {
			return err
		}
		// Limited, as net/http limits a body to its ContentLength: a bare
		// sendfile would send the rest of the file.
		if _, err := tcp.ReadFrom(io.LimitReader(body, n)); err != nil {
			return err
		}
	}
	return nil
}

// discardEnv, set to 1, makes this program a process that reads and drops
// whatever its connections send (the transfer baseline of measureCPU).
const discardEnv = "CMSBENCH_DISCARD"

// startDiscardProcess starts this program as a discarding receiver and
// returns its address.
func startDiscardProcess() (string, func(), error) {
	line, stop, err := startSelf("discarding process", discardEnv+"=1")
	return strings.TrimSpace(string(line)), stop, err
}

// serveDiscard is the discarding process: it prints its address and reads
// every connection to its end until it is killed.
func serveDiscard() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr().String())
	for {
		conn, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			_, _ = io.CopyBuffer(io.Discard, conn, make([]byte, 256<<10))
			conn.Close()
		}()
	}
}

// startProfile starts a CPU profile into path and returns its stop.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// summarizeProfile prints the top functions of the CPU profile at path
// (go tool pprof -top, by flat time) to w; without a go command it says
// how to read the profile instead.
func summarizeProfile(path string, w io.Writer) {
	exe, _ := os.Executable()
	out, err := exec.Command("go", "tool", "pprof", "-top", "-nodecount=15", exe, path).Output()
	if err != nil {
		fmt.Fprintf(w, "cmsbench: CPU profile in %s (go tool pprof -top %s %s: %v)\n", path, exe, path, err)
		return
	}
	fmt.Fprintf(w, "cmsbench: CPU profile in %s, top functions:\n", path)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, "File:") && !strings.HasPrefix(line, "Build ID:") {
			fmt.Fprintln(w, "  "+line)
		}
	}
}

// refserverDirEnv names the data directory of a reference server this
// program runs in a process of its own (measureCPU), and refserverPartEnv
// its part size.
const (
	refserverDirEnv  = "CMSBENCH_REFSERVER_DIR"
	refserverPartEnv = "CMSBENCH_REFSERVER_PART"
)

// startRefserverProcess starts this program as a reference server with a
// directory store and parts of part bytes, and returns a target on it.
func startRefserverProcess(part int64) (*target, func(), error) {
	dir, err := os.MkdirTemp("", "cmsbench-refserver-")
	if err != nil {
		return nil, nil, err
	}
	line, stopChild, err := startSelf("reference server process", refserverDirEnv+"="+dir, refserverPartEnv+"="+strconv.FormatInt(part, 10))
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	stop := func() { stopChild(); os.RemoveAll(dir) }
	var sl serverLine
	if err := json.Unmarshal(line, &sl); err != nil {
		stop()
		return nil, nil, fmt.Errorf("reference server process: %w", err)
	}
	client, err := cms.NewClient(cms.WithToken(sl.Tokens.User), cms.WithBaseURL(sl.BaseURL), cms.WithUploadURL(sl.UploadURL))
	if err != nil {
		stop()
		return nil, nil, err
	}
	return &target{baseURL: sl.BaseURL, uploadURL: sl.UploadURL, token: sl.Tokens.User, client: client}, stop, nil
}

// serveRefserver is the reference server process of startRefserverProcess:
// it prints the server's JSON line and serves until it is killed.
func serveRefserver(dir string) error {
	part, err := strconv.ParseInt(os.Getenv(refserverPartEnv), 10, 64)
	if err != nil {
		return fmt.Errorf("%s: %w", refserverPartEnv, err)
	}
	srv, err := startDirServer(dir, part)
	if err != nil {
		return err
	}
	var sl serverLine
	sl.BaseURL, sl.UploadURL, sl.Tokens.User = srv.BaseURL(), srv.UploadURL(), srv.UserToken()
	line, err := json.Marshal(sl)
	if err != nil {
		return err
	}
	fmt.Println(string(line))
	select {}
}
