package cms

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"

	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/contentapi/cms/internal/transport"
)

// ChunkedUploadOptions tune UploadChunked, UploadVersionChunked and Resume.
// Zero values mean the documented defaults; see each field for negatives.
type ChunkedUploadOptions struct {
	// Concurrency is how many parts are sent at once: 0 means 4; negative
	// is invalid. Memory for a plain io.Reader source stays within
	// (Concurrency+1) × part size; an io.ReaderAt source needs no part
	// buffers at all.
	Concurrency int
	// Progress, when set, is called after each part is stored by the
	// service. Calls never overlap; the function must return quickly.
	Progress func(Progress)
	// AbortOnError aborts the session on any failure. By default a session
	// is aborted only on a permanent failure; after a transient one it is
	// kept for Resume (see UploadError).
	AbortOnError bool
	// IfMatch makes a new version's commit conditional on the file's etag.
	IfMatch string
	// NewName renames the file when a new version is committed (ignored
	// for a new file, which is named by the name argument).
	NewName string
	// ContentModifiedAt is the content's own modification time (attribute
	// content_modified_at of the commit); zero leaves it to the service.
	ContentModifiedAt time.Time
	// MaxCommitWaits bounds how often a 202 answer to the commit is waited
	// out: 0 means 60, negative means never (the 202 fails the upload at
	// once with an *AcceptedError). The ctx deadline bounds the waits too.
	MaxCommitWaits int
}

// Progress reports a transfer's advance: the one type of every entry point
// that takes a progress function (ChunkedUploadOptions, UploadOptions,
// UploadVersionOptions, OneRequestUploadOptions, OneRequestVersionOptions,
// DownloadOptions). The function is called as bytes move, often enough
// for a progress bar, never from more than one goroutine at a time, and
// must return quickly.
type Progress struct {
	// Bytes is how many bytes have moved: for a chunked upload, acknowledged
	// by the service (parts already there count on Resume); for an upload
	// in one request, handed to the connection; for a download, read.
	Bytes int64
	// TotalBytes is the size, or -1 when it is not known (an upload of
	// unknown size, a download without Content-Length).
	TotalBytes int64
	// PartsDone and TotalParts count the parts of a chunked upload (0 for
	// other transfers).
	PartsDone, TotalParts int
	// SessionID is a chunked upload's session.
	SessionID string
	// FilesDone and TotalFiles count the files of a tree transfer
	// (Transfers.UploadDir, DownloadDir); 0 for other transfers.
	FilesDone, TotalFiles int
	// SkippedBytes are the bytes of a tree transfer's files left alone
	// because they were unchanged; they are not in Bytes (0 for other
	// transfers).
	SkippedBytes int64
}

// UploadError is a failed chunked upload.
//
// The session-keeping rule: after a transient failure that outlived the
// retries (a network error, 408, 429 or 5xx, a commit still answering 202,
// a cancelled or expired ctx, an error reading the source) the session is
// kept, so SessionKept is true and Resume(SessionID) finishes the upload
// with only the missing parts. After a permanent failure (a 4xx other than
// 408 and 429, a digest or size mismatch, a source shorter or longer than
// its declared size) the session is aborted. ChunkedUploadOptions.AbortOnError
// aborts on any failure; Resume never aborts a session unless asked so.
// SessionID is "" when no session was created (for example 400
// file_size_too_small below the service's minimum size).
type UploadError struct {
	SessionID   string
	SessionKept bool
	Err         error
}

// Error says whether the upload had a session and whether it was kept for
// Resume, then the cause.
func (e *UploadError) Error() string {
	switch {
	case e.SessionID == "":
		return fmt.Sprintf("cms: chunked upload (no session): %v", e.Err)
	case e.SessionKept:
		return fmt.Sprintf("cms: chunked upload (session %s kept for Resume): %v", e.SessionID, e.Err)
	}
	return fmt.Sprintf("cms: chunked upload (session %s aborted): %v", e.SessionID, e.Err)
}

// Unwrap returns the cause.
func (e *UploadError) Unwrap() error { return e.Err }

// PartEchoError reports a part the service stored with another offset,
// size or SHA1 than the one sent (a permanent failure).
type PartEchoError struct {
	Offset, Size int64
	SHA1         string // hex SHA1 sent
	Echoed       *UploadPart
}

// Error names the part's offset, what the service echoed and what was sent.
func (e *PartEchoError) Error() string {
	return fmt.Sprintf("cms: part at offset %d: service echoed %+v, sent size %d sha1 %s", e.Offset, e.Echoed, e.Size, e.SHA1)
}

// permanentUploadFailure reports whether sending again cannot fix err.
func permanentUploadFailure(err error) bool {
	var (
		api  *APIError
		size *SourceSizeError
		echo *PartEchoError
		arg  *ArgError
	)
	switch {
	case errors.As(err, &api):
		return api.StatusCode >= 400 && api.StatusCode < 500 &&
			api.StatusCode != http.StatusRequestTimeout && api.StatusCode != http.StatusTooManyRequests
	case errors.As(err, &size), errors.As(err, &echo), errors.As(err, &arg), errors.Is(err, errSourceChanged):
		return true
	}
	return false
}

// errSourceChanged is matched when a stored part does not match the source
// given to Resume.
var errSourceChanged = errors.New("stored part does not match the source")

// uploadTarget is where a chunked upload's file ends up, to find it when a
// repeated commit finds its session consumed.
type uploadTarget struct {
	folderID, name string // new file
	fileID         string // new version
}

// UploadChunked uploads r (size bytes) as a new file in a folder through an
// upload session: POST /files/upload_sessions, parts in parallel with
// PUT /files/upload_sessions/{id}, then POST .../commit. It is a helper of
// several calls: the *Response is the commit's. If r is an io.ReaderAt,
// parts are read from it in place (a regular *os.File on Linux is sent with
// sendfile); otherwise r is read once, in order, through at most
// Concurrency+1 part buffers. Either way the whole-file SHA1 and each
// part's SHA1 are computed in one sequential pass over the source. Parts
// and the commit are retried on transient faults; a commit whose answer was lost and whose
// repeat finds the session consumed resolves to the file it created. Every
// failure is an *UploadError, which says whether the session was kept for
// Resume (see UploadError for the rule). size must be at least the
// service's minimum for sessions (20,000,000 bytes; below it the service
// answers 400 file_size_too_small).
func (s *UploadsService) UploadChunked(ctx context.Context, folderID, name string, r io.Reader, size int64, opts *ChunkedUploadOptions) (*File, *Response, error) {
	o, err := checkChunkedArgs(ctx, r, size, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if err := checkUploadName(name); err != nil {
		return nil, nil, err
	}
	sess, resp, err := s.CreateSession(ctx, &CreateUploadSessionRequest{FolderID: folderID, FileSize: size, FileName: name})
	if err != nil {
		return nil, resp, &UploadError{Err: err}
	}
	return s.runUpload(ctx, sess, r, size, o, nil, uploadTarget{folderID: folderID, name: name}, true)
}

// UploadVersionChunked uploads r (size bytes) as a new version of a file
// through an upload session (POST /files/{file_id}/upload_sessions, parts,
// commit), as UploadChunked does. opts.IfMatch makes the commit
// conditional, opts.NewName renames the file.
func (s *UploadsService) UploadVersionChunked(ctx context.Context, fileID string, r io.Reader, size int64, opts *ChunkedUploadOptions) (*File, *Response, error) {
	o, err := checkChunkedArgs(ctx, r, size, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if o.NewName != "" {
		if err := checkUploadName(o.NewName); err != nil {
			return nil, nil, err
		}
	}
	sess, resp, err := s.CreateVersionSession(ctx, fileID, &CreateVersionSessionRequest{FileSize: size, FileName: o.NewName})
	if err != nil {
		return nil, resp, &UploadError{Err: err}
	}
	return s.runUpload(ctx, sess, r, size, o, nil, uploadTarget{fileID: fileID}, true)
}

// Resume finishes an upload session kept by a failed upload: it fetches the
// session (GET /files/upload_sessions/{id}) and the parts it already has
// (GET .../parts), reads r (the same content, from its start) to hash every
// part, checks the stored parts against it, sends only the missing parts
// and commits. Every argument is checked before the first request. Resume
// never aborts the session unless opts.AbortOnError is set.
func (s *UploadsService) Resume(ctx context.Context, sessionID string, r io.Reader, size int64, opts *ChunkedUploadOptions) (*File, *Response, error) {
	o, err := checkChunkedArgs(ctx, r, size, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkID("upload session", sessionID); err != nil {
		return nil, nil, err
	}
	sess, resp, err := s.GetSession(ctx, sessionID)
	if err != nil {
		return nil, resp, &UploadError{SessionID: sessionID, SessionKept: !errors.Is(err, ErrNotFound), Err: err}
	}
	if sess.PartSize > 0 && sess.TotalParts > 0 && int64(sess.TotalParts) != (size+sess.PartSize-1)/sess.PartSize {
		err := invalidArg("size", fmt.Sprintf("%d bytes do not make the session's %d parts of %d bytes", size, sess.TotalParts, sess.PartSize))
		return nil, resp, &UploadError{SessionID: sessionID, SessionKept: true, Err: err}
	}
	have := map[int64]*UploadPart{}
	for p, err := range s.ListPartsIter(ctx, sessionID, &ListPartsOptions{Limit: 1000}) {
		if err != nil {
			return nil, nil, &UploadError{SessionID: sessionID, SessionKept: true, Err: fmt.Errorf("listing parts: %w", err)}
		}
		have[p.Offset] = p
	}
	return s.runUpload(ctx, sess, r, size, o, have, uploadTarget{}, false)
}

// checkChunkedArgs checks the arguments every chunked entry point shares and
// fills in the option defaults.
func checkChunkedArgs(ctx context.Context, r io.Reader, size int64, opts *ChunkedUploadOptions) (ChunkedUploadOptions, error) {
	var o ChunkedUploadOptions
	if opts != nil {
		o = *opts
	}
	if err := checkCtx(ctx); err != nil {
		return o, err
	}
	if r == nil {
		return o, invalidArg("reader", "nil")
	}
	if size <= 0 {
		return o, invalidArg("size", "must be positive")
	}
	if o.Concurrency < 0 {
		return o, invalidArg("Concurrency", "negative")
	}
	if o.Concurrency == 0 {
		o.Concurrency = 4
	}
	switch {
	case o.MaxCommitWaits == 0:
		o.MaxCommitWaits = 60
	case o.MaxCommitWaits < 0:
		o.MaxCommitWaits = 0
	}
	if strings.ContainsAny(o.IfMatch, "\r\n\x00") {
		return o, invalidArg("if-match", "must be one line")
	}
	return o, nil
}

// partJob is one part handed from the producer to a worker.
type partJob struct {
	offset, size int64
	sum          []byte // the part's SHA1, computed by the producer
	body         *transport.Body
	release      func() // returns the part buffer to the pool
}

// uploadRun is the state of one chunked upload.
type uploadRun struct {
	s      *UploadsService
	sess   *UploadSession
	size   int64
	opts   ChunkedUploadOptions
	have   map[int64]*UploadPart // parts already stored (Resume)
	target uploadTarget

	mu       sync.Mutex
	parts    []*UploadPart
	progress Progress
}

// runUpload sends every part not in have, then commits. On failure the
// session is aborted when the options ask for it, or when the failure is
// permanent and the upload created the session (owned).
func (s *UploadsService) runUpload(ctx context.Context, sess *UploadSession, r io.Reader, size int64, o ChunkedUploadOptions, have map[int64]*UploadPart, target uploadTarget, owned bool) (*File, *Response, error) {
	fail := func(resp *Response, err error) (*File, *Response, error) {
		abort := o.AbortOnError || (owned && permanentUploadFailure(err))
		return nil, resp, s.fail(ctx, sess, abort, err)
	}
	if sess.PartSize <= 0 {
		return fail(nil, fmt.Errorf("session has part size %d", sess.PartSize))
	}
	run := &uploadRun{s: s, sess: sess, size: size, opts: o, have: have, target: target}
	run.progress = Progress{SessionID: sess.ID, TotalBytes: size, TotalParts: int((size + sess.PartSize - 1) / sess.PartSize)}
	fileSum, err := run.sendParts(ctx, r)
	if err != nil {
		return fail(nil, err)
	}
	f, resp, err := run.commitWithWaits(ctx, fileSum)
	if err != nil {
		return fail(resp, err)
	}
	return f, resp, nil
}

// fail aborts the session when asked (with a ctx that is not already
// cancelled) and wraps err in an *UploadError that says what happened.
func (s *UploadsService) fail(ctx context.Context, sess *UploadSession, abort bool, err error) error {
	if !abort {
		return &UploadError{SessionID: sess.ID, SessionKept: true, Err: err}
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if _, aerr := s.AbortSession(actx, sess.ID); aerr != nil && !errors.Is(aerr, ErrNotFound) {
		// The session may still exist: say so, and keep the cause first.
		return &UploadError{SessionID: sess.ID, SessionKept: true, Err: errors.Join(err, fmt.Errorf("aborting session: %w", aerr))}
	}
	return &UploadError{SessionID: sess.ID, Err: err}
}

// sendParts runs the producer (this goroutine: reads the source once, in
// offset order, and writes each block to the whole-file SHA1 and to its
// part's, the only sequential step) and Concurrency workers (each PUTs a
// part). It returns the whole-file SHA1 once every part is stored.
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
	if ra, ok := readerAt(r); ok {
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

// send PUTs one part (the transport retries it on its own) and records it.
func (run *uploadRun) send(ctx context.Context, job partJob) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	p, _, err := run.s.putPart(ctx, run.sess, job.body, PartRange{Offset: job.offset, Size: job.size, FileSize: run.size}, job.sum)
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
	run.progress.Bytes += p.Size
	run.progress.PartsDone++
	if run.opts.Progress != nil {
		run.opts.Progress(run.progress)
	}
}

// commitWithWaits commits, waiting out 202 + Retry-After answers within the
// ctx deadline and MaxCommitWaits. The transport retries the commit on
// transient faults; when a repeat finds the session consumed (404), the
// file the first attempt created is looked up instead.
func (run *uploadRun) commitWithWaits(ctx context.Context, fileSum []byte) (*File, *Response, error) {
	opts := &CommitOptions{IfMatch: run.opts.IfMatch, ContentModifiedAt: run.opts.ContentModifiedAt}
	for waits := 0; ; waits++ {
		f, resp, err := run.s.commit(ctx, run.sess, run.parts, fileSum, opts)
		if errors.Is(err, ErrNotFound) {
			if found, fresp, ferr := run.committedFile(ctx, fileSum); ferr == nil && found != nil {
				return found, fresp, nil
			}
			return nil, resp, err
		}
		var acc *AcceptedError
		if !errors.As(err, &acc) {
			return f, resp, err
		}
		if err := run.s.client.waitNotReady(ctx, resp, waits, run.opts.MaxCommitWaits); err != nil {
			return nil, resp, err
		}
	}
}

// committedFile finds the file an earlier attempt of the commit created: a
// new file by its name in the folder (the preflight OPTIONS /files/content
// names the file that holds the name), a new version by the file's id; in
// both cases only when its size and SHA1 are the upload's. It returns nil
// when there is no such file.
func (run *uploadRun) committedFile(ctx context.Context, fileSum []byte) (*File, *Response, error) {
	files := run.s.client.Files
	want := hex.EncodeToString(fileSum)
	id := run.target.fileID
	if id == "" {
		if run.target.folderID == "" {
			return nil, nil, nil // Resume: the target is not known
		}
		_, _, err := files.PreflightUpload(ctx, run.target.folderID, run.target.name, run.size)
		var api *APIError
		if !errors.As(err, &api) || api.StatusCode != http.StatusConflict {
			return nil, nil, err
		}
		for _, c := range api.Conflicts() {
			if c.SHA1 == "" || strings.EqualFold(c.SHA1, want) {
				id = c.ID
				break
			}
		}
		if id == "" {
			return nil, nil, nil
		}
	}
	f, resp, err := files.Get(ctx, id, nil)
	if err != nil {
		return nil, resp, err
	}
	if f.Size != run.size || !strings.EqualFold(f.SHA1, want) {
		return nil, resp, nil
	}
	return f, resp, nil
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
