package cms

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync"
	"time"

	"github.com/contentapi/cms/internal/transport"
)

// ChunkedUploadOptions tune UploadChunked, UploadVersionChunked and Resume.
type ChunkedUploadOptions struct {
	// Concurrency is how many parts are sent at once (default 4). Memory for
	// a plain io.Reader source stays within (Concurrency+1) × part size; an
	// io.ReaderAt source needs no part buffers at all.
	Concurrency int
	// Progress, when set, is called after each part is stored by the
	// service. Calls never overlap; the function must return quickly.
	Progress func(UploadProgress)
	// KeepSessionOnError leaves the session open when the upload fails, so
	// it can be finished with Resume; by default it is aborted.
	KeepSessionOnError bool
	// IfMatch makes a new version's commit conditional on the file's etag.
	IfMatch string
	// FileName renames the file when a new version is committed.
	FileName string
	// MaxCommitWaits bounds how often a 202 answer to the commit is waited
	// out (default 60); the ctx deadline bounds it too.
	MaxCommitWaits int
}

// UploadProgress reports a chunked upload's advance.
type UploadProgress struct {
	SessionID  string
	BytesSent  int64 // bytes acknowledged by the service (including parts already there on Resume)
	TotalBytes int64
	PartsDone  int
	TotalParts int
}

// UploadError is a failed chunked upload. SessionID names the session (still
// open only with KeepSessionOnError) for Resume.
type UploadError struct {
	SessionID string
	Err       error
}

func (e *UploadError) Error() string {
	return fmt.Sprintf("cms: chunked upload (session %s): %v", e.SessionID, e.Err)
}

// Unwrap returns the cause.
func (e *UploadError) Unwrap() error { return e.Err }

// UploadChunked uploads r (size bytes) as a new file in a folder through an
// upload session: POST /files/upload_sessions, parts in parallel with
// PUT /files/upload_sessions/{id}, then POST .../commit. If r is an
// io.ReaderAt, parts are read from it in place; otherwise r is read once, in
// order, through at most Concurrency+1 part buffers. On failure the session
// is aborted (unless KeepSessionOnError) and the error is an *UploadError.
func (s *UploadsService) UploadChunked(ctx context.Context, folderID, name string, r io.Reader, size int64, opts *ChunkedUploadOptions) (*File, error) {
	if r == nil {
		return nil, invalidArg("reader", "nil")
	}
	o, err := chunkedDefaults(opts)
	if err != nil {
		return nil, err
	}
	sess, _, err := s.CreateSession(ctx, &CreateUploadSessionRequest{FolderID: folderID, FileSize: size, FileName: name})
	if err != nil {
		return nil, err
	}
	return s.runUpload(ctx, sess, r, size, o, nil)
}

// UploadVersionChunked uploads r (size bytes) as a new version of a file
// through an upload session (POST /files/{file_id}/upload_sessions, parts,
// commit). opts.IfMatch makes the commit conditional, opts.FileName renames.
func (s *UploadsService) UploadVersionChunked(ctx context.Context, fileID string, r io.Reader, size int64, opts *ChunkedUploadOptions) (*File, error) {
	if r == nil {
		return nil, invalidArg("reader", "nil")
	}
	o, err := chunkedDefaults(opts)
	if err != nil {
		return nil, err
	}
	sess, _, err := s.CreateVersionSession(ctx, fileID, &CreateVersionSessionRequest{FileSize: size, FileName: o.FileName})
	if err != nil {
		return nil, err
	}
	return s.runUpload(ctx, sess, r, size, o, nil)
}

// Resume finishes an upload session left open by a failed upload: it lists
// the parts the service already has (GET .../parts), reads r (the same
// content, from its start) to hash every part, checks the stored parts
// against it, sends only the missing parts and commits.
func (s *UploadsService) Resume(ctx context.Context, sessionID string, r io.Reader, size int64, opts *ChunkedUploadOptions) (*File, error) {
	if r == nil {
		return nil, invalidArg("reader", "nil")
	}
	o, err := chunkedDefaults(opts)
	if err != nil {
		return nil, err
	}
	sess, _, err := s.GetSession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	have := map[int64]*UploadPart{}
	for p, err := range s.ListPartsIter(ctx, sessionID, &ListPartsOptions{Limit: 1000}) {
		if err != nil {
			return nil, &UploadError{SessionID: sessionID, Err: fmt.Errorf("listing parts: %w", err)}
		}
		have[p.Offset] = p
	}
	o.KeepSessionOnError = true // a resumed session is never thrown away by the SDK
	return s.runUpload(ctx, sess, r, size, o, have)
}

func chunkedDefaults(opts *ChunkedUploadOptions) (ChunkedUploadOptions, error) {
	var o ChunkedUploadOptions
	if opts != nil {
		o = *opts
	}
	if o.Concurrency < 0 || o.MaxCommitWaits < 0 {
		return o, invalidArg("options", "negative Concurrency or MaxCommitWaits")
	}
	if o.Concurrency == 0 {
		o.Concurrency = 4
	}
	if o.MaxCommitWaits == 0 {
		o.MaxCommitWaits = 60
	}
	return o, nil
}

// partJob is one part handed from the producer to a worker.
type partJob struct {
	offset, size int64
	sum          []byte
	body         *transport.Body
	release      func() // returns the part buffer to the pool
}

// uploadRun is the state of one chunked upload.
type uploadRun struct {
	s    *UploadsService
	sess *UploadSession
	size int64
	opts ChunkedUploadOptions
	have map[int64]*UploadPart // parts already stored (Resume)

	mu       sync.Mutex
	parts    []*UploadPart
	progress UploadProgress
}

// runUpload sends every part not in have, then commits; the session is
// aborted on failure unless the options keep it.
func (s *UploadsService) runUpload(ctx context.Context, sess *UploadSession, r io.Reader, size int64, o ChunkedUploadOptions, have map[int64]*UploadPart) (*File, error) {
	if sess.PartSize <= 0 {
		return nil, s.fail(ctx, sess, o, fmt.Errorf("session has part size %d", sess.PartSize))
	}
	run := &uploadRun{s: s, sess: sess, size: size, opts: o, have: have}
	run.progress = UploadProgress{SessionID: sess.ID, TotalBytes: size, TotalParts: int((size + sess.PartSize - 1) / sess.PartSize)}
	fileSum, err := run.sendParts(ctx, r)
	if err != nil {
		return nil, s.fail(ctx, sess, o, err)
	}
	f, err := run.commitWithWaits(ctx, fileSum)
	if err != nil {
		return nil, s.fail(ctx, sess, o, err)
	}
	return f, nil
}

// fail aborts the session (with a ctx that is not already cancelled) unless
// the options keep it, and wraps err.
func (s *UploadsService) fail(ctx context.Context, sess *UploadSession, o ChunkedUploadOptions, err error) error {
	if !o.KeepSessionOnError {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, aerr := s.AbortSession(actx, sess.ID); aerr != nil && !errors.Is(aerr, ErrNotFound) {
			err = errors.Join(err, fmt.Errorf("aborting session: %w", aerr))
		}
	}
	return &UploadError{SessionID: sess.ID, Err: err}
}

// sendParts runs the producer (this goroutine: reads and hashes in offset
// order) and Concurrency workers (PUT the parts). It returns the whole-file
// SHA1 once every part is stored.
func (run *uploadRun) sendParts(ctx context.Context, r io.Reader) ([]byte, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan partJob)
	var wg sync.WaitGroup
	for range run.opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range jobs {
				err := run.send(ctx, job)
				job.release()
				if err != nil {
					cancel(err)
				}
			}
		}()
	}
	fileHash := sha1.New()
	var perr error
	if ra, ok := r.(io.ReaderAt); ok {
		perr = run.produceFromReaderAt(ctx, ra, fileHash, jobs)
	} else {
		perr = run.produceFromReader(ctx, r, fileHash, jobs)
	}
	if perr != nil {
		cancel(perr) // stop the parts in flight
	}
	close(jobs)
	wg.Wait()
	// The cause is the first failure: a worker's, the producer's, or the
	// caller's cancellation.
	if cause := context.Cause(ctx); cause != nil {
		return nil, cause
	}
	return fileHash.Sum(nil), nil
}

// hand gives a job to a worker unless the upload is being cancelled.
func hand(ctx context.Context, jobs chan<- partJob, job partJob) error {
	select {
	case jobs <- job:
		return nil
	case <-ctx.Done():
		job.release()
		return context.Cause(ctx)
	}
}

// produceFromReaderAt hashes each section of ra in order and hands the
// section itself to a worker: no part is copied into memory.
func (run *uploadRun) produceFromReaderAt(ctx context.Context, ra io.ReaderAt, fileHash hash.Hash, jobs chan<- partJob) error {
	buf := make([]byte, 64<<10)
	for off := int64(0); off < run.size; off += run.sess.PartSize {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		n := min(run.sess.PartSize, run.size-off)
		partHash := sha1.New()
		got, err := io.CopyBuffer(io.MultiWriter(partHash, fileHash), io.NewSectionReader(ra, off, n), buf)
		if err != nil {
			return fmt.Errorf("reading part at %d: %w", off, err)
		}
		if got != n {
			return fmt.Errorf("reading part at %d: %w (source shorter than %d bytes)", off, io.ErrUnexpectedEOF, run.size)
		}
		job := partJob{offset: off, size: n, sum: partHash.Sum(nil), release: func() {}}
		job.body = &transport.Body{
			Open:          func() (io.ReadCloser, error) { return io.NopCloser(io.NewSectionReader(ra, off, n)), nil },
			ContentLength: n,
			Replayable:    true,
		}
		if skip, err := run.alreadyStored(job); skip || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if err := hand(ctx, jobs, job); err != nil {
			return err
		}
	}
	return nil
}

// produceFromReader reads r in order into pooled part buffers (at most
// Concurrency+1 exist at once), hashes each and hands it to a worker, which
// returns the buffer when its PUT is done.
func (run *uploadRun) produceFromReader(ctx context.Context, r io.Reader, fileHash hash.Hash, jobs chan<- partJob) error {
	pool := newBufferPool(run.opts.Concurrency+1, run.sess.PartSize)
	for off := int64(0); off < run.size; off += run.sess.PartSize {
		n := min(run.sess.PartSize, run.size-off)
		buf, err := pool.get(ctx)
		if err != nil {
			return context.Cause(ctx)
		}
		part := buf[:n]
		if got, err := io.ReadFull(r, part); err != nil {
			pool.put(buf)
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF // the source ended before size
			}
			return fmt.Errorf("reading part at %d: got %d of %d bytes: %w", off, got, n, err)
		}
		sum := sha1.Sum(part)
		fileHash.Write(part)
		job := partJob{offset: off, size: n, sum: sum[:], release: func() { pool.put(buf) }}
		job.body = &transport.Body{
			Open:          func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(part)), nil },
			ContentLength: n,
			Replayable:    true,
		}
		if skip, err := run.alreadyStored(job); skip || err != nil {
			job.release()
			if err != nil {
				return err
			}
			continue
		}
		if err := hand(ctx, jobs, job); err != nil {
			return err
		}
	}
	var probe [1]byte
	if n, _ := r.Read(probe[:]); n > 0 {
		return fmt.Errorf("source is longer than the declared size %d", run.size)
	}
	return nil
}

// alreadyStored reports whether the service has this part (Resume); a
// stored part whose hash differs means the source changed.
func (run *uploadRun) alreadyStored(job partJob) (bool, error) {
	p, ok := run.have[job.offset]
	if !ok {
		return false, nil
	}
	if p.Size != job.size || (p.SHA1 != "" && p.SHA1 != hex.EncodeToString(job.sum)) {
		return false, fmt.Errorf("stored part at offset %d does not match the source (size %d/%d, sha1 %s/%x)", job.offset, p.Size, job.size, p.SHA1, job.sum)
	}
	run.record(p)
	return true, nil
}

// send PUTs one part (the transport retries it on its own) and records it.
func (run *uploadRun) send(ctx context.Context, job partJob) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	p, _, err := run.s.putPart(ctx, run.sess, job.body, job.offset, job.size, run.size, job.sum)
	if err != nil {
		return fmt.Errorf("part at offset %d: %w", job.offset, err)
	}
	run.record(p)
	return nil
}

// record adds a stored part and reports progress; calls never overlap.
func (run *uploadRun) record(p *UploadPart) {
	run.mu.Lock()
	defer run.mu.Unlock()
	run.parts = append(run.parts, p)
	run.progress.BytesSent += p.Size
	run.progress.PartsDone++
	if run.opts.Progress != nil {
		run.opts.Progress(run.progress)
	}
}

// commitWithWaits commits, waiting out 202 + Retry-After answers within the
// ctx deadline and MaxCommitWaits.
func (run *uploadRun) commitWithWaits(ctx context.Context, fileSum []byte) (*File, error) {
	opts := &CommitOptions{IfMatch: run.opts.IfMatch}
	for waits := 0; ; waits++ {
		f, _, err := run.s.commit(ctx, run.sess, run.parts, fileSum, opts)
		var acc *AcceptedError
		if !errors.As(err, &acc) {
			return f, err
		}
		if waits >= run.opts.MaxCommitWaits {
			return nil, err
		}
		if err := sleepCtx(ctx, max(acc.RetryAfter, 100*time.Millisecond)); err != nil {
			return nil, errors.Join(err, acc)
		}
	}
}

// sleepCtx waits d unless ctx ends first or its deadline comes before d.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		return context.DeadlineExceeded
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// bufferPool hands out at most limit buffers of size bytes, allocating them
// lazily; get blocks while all are in use.
type bufferPool struct {
	free  chan []byte
	slots chan struct{}
	size  int64
}

func newBufferPool(limit int, size int64) *bufferPool {
	return &bufferPool{free: make(chan []byte, limit), slots: make(chan struct{}, limit), size: size}
}

func (p *bufferPool) get(ctx context.Context) ([]byte, error) {
	select {
	case b := <-p.free:
		return b, nil
	default:
	}
	select {
	case b := <-p.free:
		return b, nil
	case p.slots <- struct{}{}:
		return make([]byte, p.size), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *bufferPool) put(b []byte) { p.free <- b }
