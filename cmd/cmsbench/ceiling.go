package main

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/contentapi/cms/internal/filebody"
)

// measureCeiling uploads the source file with only the work the protocol
// requires, done the plainest way, in the shapes the SDK and the reference
// server use, to give the machine's ceiling for a chunked upload: the
// client reads the file once, in order, into one block buffer, and one
// goroutine writes each block to the whole-file SHA-1 and to its part's;
// workers PUT the hashed parts over loopback (net/http, the file as body
// so it can be sent with sendfile). A bare net/http handler writes each
// part into one file at its offset while hashing it, checks the part
// digest and answers; a hash worker beside the requests reads the parts
// back in offset order as contiguous parts land and hashes the whole file;
// the final request waits for it and compares the two whole-file digests.
// That is four SHA-1 passes, one read of the source, the loopback transfer
// and the store write, with no SDK or reference-server logic.
//
// The receiving side runs in a process of its own (this program, started
// again with CMSBENCH_CEILING_DIR set), like cmd/refserver for the SDK's
// measures, so that both share the two cores the same way.
func measureCeiling(ctx context.Context, t *target, c config, i int, emit func(result) error) error {
	return ceilingRun(ctx, c, "upload_file", ceilingUpload, emit)
}

// measureCeilingReader is the ceiling for a source that is only an
// io.Reader (the SDK's upload_reader measure): the same four SHA-1 passes,
// loopback PUTs and store writes, but the client reads the file through a
// reader that hides every method but Read, so no part can go out with
// sendfile. A hand-written uploader does the least such a source allows:
// it reads each part once, in order, into one of Concurrency+1 buffers,
// writing each block to the whole-file hash and to the part's as it comes
// (the SDK's shape for a reader), and a worker PUTs the buffer. (Against the file ceiling, a reader pays for copying every byte
// through the process twice, in and out: the README states both ratios.)
func measureCeilingReader(ctx context.Context, t *target, c config, i int, emit func(result) error) error {
	return ceilingRun(ctx, c, "upload_reader", ceilingReaderUpload, emit)
}

// ceilingUploader uploads the file at path to a ceiling server at base.
type ceilingUploader func(ctx context.Context, base, path string, size, part int64, concurrency int) error

// ceilingRun starts a ceiling server and times upload against it,
// reporting the run as the "ceiling" of the measure name.
func ceilingRun(ctx context.Context, c config, name string, upload ceilingUploader, emit func(result) error) error {
	path, err := sourceFile(c.size)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "cmsbench-ceiling-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	base, stop, err := startCeilingServer(dir, c.size, c.ceilingFsync)
	if err != nil {
		return err
	}
	defer stop()
	concurrency := c.levels[0]

	probe := startProbe()
	start := time.Now()
	err = upload(ctx, base, path, c.size, c.part, concurrency)
	elapsed := time.Since(start)
	r := result{Name: name, Impl: "ceiling", SizeBytes: c.size, PartSize: c.part, Concurrency: concurrency,
		Seconds: elapsed.Seconds(), MBPerSecond: float64(c.size) / 1e6 / elapsed.Seconds()}
	probe.end(&r)
	if err != nil {
		return err
	}
	return emit(r)
}

// ceilingDirEnv names the directory of a ceiling server process and
// ceilingSizeEnv the size of the file it receives, whose blocks it
// reserves before the first part as the reference server's directory
// store does; ceilingSyncEnv, set to 1, makes it sync each part's data
// before answering, as a persisted reference server (-data) does.
const (
	ceilingDirEnv  = "CMSBENCH_CEILING_DIR"
	ceilingSizeEnv = "CMSBENCH_CEILING_SIZE"
	ceilingSyncEnv = "CMSBENCH_CEILING_FSYNC"
)

// startCeilingServer starts this program as a ceiling server writing a
// file of size bytes into dir and returns its base URL.
func startCeilingServer(dir string, size int64, fsync bool) (string, func(), error) {
	env := []string{ceilingDirEnv + "=" + dir, ceilingSizeEnv + "=" + strconv.FormatInt(size, 10)}
	if fsync {
		env = append(env, ceilingSyncEnv+"=1")
	}
	line, stop, err := startSelf("ceiling server", env...)
	return strings.TrimSpace(string(line)), stop, err
}

// serveCeiling is the ceiling server process: it prints its base URL and
// serves until it is killed.
func serveCeiling(dir string) error {
	dst, err := os.Create(filepath.Join(dir, "file"))
	if err != nil {
		return err
	}
	defer dst.Close()
	if size, err := strconv.ParseInt(os.Getenv(ceilingSizeEnv), 10, 64); err == nil {
		_ = preallocate(dst, size) // what the reference server's directory store does
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println("http://" + ln.Addr().String())
	return http.Serve(ln, &ceilingServer{dst: dst, landed: map[int64]int64{}, whole: sha1.New(), fsync: os.Getenv(ceilingSyncEnv) == "1"})
}

func ceilingUpload(ctx context.Context, base, path string, size, part int64, concurrency int) error {
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	hc := &http.Client{Transport: rawTransport(concurrency)}
	type job struct {
		off, n int64
		sum    []byte
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := ceilingPart(ctx, hc, base, path, j.off, j.n, j.sum); err != nil {
					cancel(err)
				}
			}
		}()
	}
	// The file is read once, in order, in 256 KiB blocks into one buffer,
	// and this goroutine writes each block to the whole-file hash and to
	// its part's, one after the other while the block is in the CPU cache,
	// then hands each part with its digest to a worker (the SDK's shape
	// for a file, cms's produceFromReaderAt).
	whole, partHash := sha1.New(), sha1.New()
	buf := make([]byte, 256<<10)
	func() {
		defer close(jobs)
		for off := int64(0); off < size; off += part {
			n := min(part, size-off)
			partHash.Reset()
			for pos := int64(0); pos < n; {
				b := buf[:min(int64(len(buf)), n-pos)]
				if got, err := src.ReadAt(b, off+pos); got < len(b) {
					cancel(errors.Join(io.ErrUnexpectedEOF, err))
					return
				}
				whole.Write(b)
				partHash.Write(b)
				pos += int64(len(b))
			}
			select {
			case jobs <- job{off, n, partHash.Sum(nil)}:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return ceilingCommit(ctx, hc, base, whole.Sum(nil))
}

// ceilingCommit asks the ceiling server to compare its whole-file digest
// with sum.
func ceilingCommit(ctx context.Context, hc *http.Client, base string, sum []byte) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/commit", nil)
	req.Header.Set("Digest", "sha="+base64.StdEncoding.EncodeToString(sum))
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ceiling commit: %s", resp.Status)
	}
	return nil
}

// ceilingReaderUpload is ceilingUpload for a source seen only as an
// io.Reader: parts are read in order into Concurrency+1 buffers, each
// block written to the whole-file SHA-1 and to its part's as it is read,
// and each worker PUTs its buffer from memory with the part's digest.
func ceilingReaderUpload(ctx context.Context, base, path string, size, part int64, concurrency int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	src := onlyReader{f}
	hc := &http.Client{Transport: rawTransport(concurrency)}
	type job struct {
		off      int64
		buf, sum []byte
	}
	free := make(chan []byte, concurrency+1)
	for range concurrency + 1 {
		free <- make([]byte, part)
	}
	jobs := make(chan job)
	errc := make(chan error, concurrency)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				err := putCeilingPart(ctx, hc, base, j.off, int64(len(j.buf)), bytes.NewReader(j.buf), j.sum)
				free <- j.buf[:cap(j.buf)]
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	whole, partHash := sha1.New(), sha1.New()
	var sendErr error
	for off := int64(0); off < size && sendErr == nil; {
		var buf []byte
		select {
		case buf = <-free:
		case sendErr = <-errc:
			continue
		}
		buf = buf[:min(part, size-off)]
		// Read in 256 KiB steps, each written to both hashes as it arrives
		// (what the SDK's producer does), while it is in the CPU cache.
		partHash.Reset()
		for got := 0; got < len(buf); {
			n, err := io.ReadFull(src, buf[got:min(got+256<<10, len(buf))])
			whole.Write(buf[got : got+n])
			partHash.Write(buf[got : got+n])
			got += n
			if err != nil {
				sendErr = err
				break
			}
		}
		if sendErr != nil {
			break
		}
		select {
		case jobs <- job{off, buf, partHash.Sum(nil)}:
			off += int64(len(buf))
		case sendErr = <-errc:
		}
	}
	close(jobs)
	wg.Wait()
	if sendErr != nil {
		return sendErr
	}
	select {
	case err := <-errc:
		return err
	default:
	}
	return ceilingCommit(ctx, hc, base, whole.Sum(nil))
}

// putCeilingPart PUTs the n bytes of body at off with their SHA-1 sum.
func putCeilingPart(ctx context.Context, hc *http.Client, base string, off, n int64, body io.Reader, sum []byte) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPut, base+"/part?off="+strconv.FormatInt(off, 10), body)
	req.ContentLength = n
	req.Header.Set("Digest", "sha="+base64.StdEncoding.EncodeToString(sum))
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ceiling part %d: %s", off, resp.Status)
	}
	return nil
}

// ceilingPart PUTs one part with the file as body, sent with sendfile.
func ceilingPart(ctx context.Context, hc *http.Client, base, path string, off, n int64, sum []byte) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	body, err := filebody.New(f, off, n)
	if err != nil {
		f.Close()
		return err
	}
	return putCeilingPart(ctx, hc, base, off, n, body, sum)
}

// ceilingServer is the bare receiving side of measureCeiling. A part's
// request writes the part at its offset while hashing it, checks its
// digest and answers; the whole-file hash runs off the request path, as
// the reference server's per-session hash worker does: the request that
// lands the part continuing the hashed run starts a goroutine that reads
// the contiguous landed parts back in offset order into the whole-file
// hash, and the commit waits for it.
type ceilingServer struct {
	dst     *os.File
	mu      sync.Mutex
	landed  map[int64]int64 // verified parts not hashed into whole yet: offset -> size
	next    int64           // whole covers [0, next)
	hashing bool            // a hash worker is running
	err     error           // the hash worker's failure
	workers sync.WaitGroup  // the hash worker, for the commit to wait on
	whole   hash.Hash
	fsync   bool // sync each part's data before answering (a persisted server's store does)
}

func (s *ceilingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	want, _ := base64.StdEncoding.DecodeString(r.Header.Get("Digest")[len("sha="):])
	if r.URL.Path == "/commit" {
		s.workers.Wait() // every part answered before the commit: its worker, if any, was started
		s.mu.Lock()
		ok := s.err == nil && len(s.landed) == 0 && bytes.Equal(s.whole.Sum(nil), want)
		s.mu.Unlock()
		if !ok {
			http.Error(w, "digest mismatch", http.StatusBadRequest)
		}
		return
	}
	off, _ := strconv.ParseInt(r.URL.Query().Get("off"), 10, 64)
	h := sha1.New()
	n, err := io.CopyBuffer(io.MultiWriter(io.NewOffsetWriter(s.dst, off), h), io.LimitReader(r.Body, r.ContentLength), make([]byte, 256<<10))
	if err != nil || n != r.ContentLength || !bytes.Equal(h.Sum(nil), want) {
		http.Error(w, "bad part", http.StatusBadRequest)
		return
	}
	if s.fsync {
		if err := syncData(s.dst); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	s.mu.Lock()
	s.landed[off] = n
	if !s.hashing && off == s.next {
		s.hashing = true
		s.workers.Add(1)
		go s.hashLanded()
	}
	s.mu.Unlock()
	w.Write([]byte(`{}`))
}

// hashLanded is the hash worker: it feeds the contiguous landed parts to
// the whole-file hash and ends when the next part has not landed.
func (s *ceilingServer) hashLanded() {
	defer s.workers.Done()
	buf := make([]byte, 256<<10)
	for {
		s.mu.Lock()
		n, ok := s.landed[s.next]
		if !ok || s.err != nil {
			s.hashing = false
			s.mu.Unlock()
			return
		}
		delete(s.landed, s.next)
		off := s.next
		s.mu.Unlock()
		if _, err := io.CopyBuffer(s.whole, io.NewSectionReader(s.dst, off, n), buf); err != nil {
			s.mu.Lock()
			s.err = errors.Join(errors.New("hashing"), err)
			s.hashing = false
			s.mu.Unlock()
			return
		}
		s.mu.Lock()
		s.next += n
		s.mu.Unlock()
	}
}
