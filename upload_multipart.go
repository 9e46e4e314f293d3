package cms

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"sync/atomic"
	"time"

	"github.com/contentapi/cms/internal/transport"
)

// OneRequestUploadOptions are the options of FilesService.UploadInOneRequest.
type OneRequestUploadOptions struct {
	// ContentCreatedAt and ContentModifiedAt are the content's own
	// timestamps (attributes content_created_at, content_modified_at);
	// zero leaves them to the service.
	ContentCreatedAt  time.Time `url:"-"`
	ContentModifiedAt time.Time `url:"-"`
	// SHA1 is the hex SHA-1 of the content, sent as the content-md5 header
	// so the service rejects corrupted uploads. When empty it is computed
	// for an io.ReaderAt or io.ReadSeeker source (one extra read); a plain
	// io.Reader is sent without it.
	SHA1 string `url:"-"`
	// Fields selects the fields of the returned file (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Progress, when set, is called as the content is handed to the
	// connection (a resend starts again from 0).
	Progress func(Progress) `url:"-"`
}

// OneRequestVersionOptions are the options of
// FilesService.UploadVersionInOneRequest.
type OneRequestVersionOptions struct {
	// NewName renames the file with the new version (attribute name).
	NewName string `url:"-"`
	// ContentModifiedAt is the content's modification time (attribute
	// content_modified_at); zero means the upload time.
	ContentModifiedAt time.Time `url:"-"`
	// IfMatch is the etag the file must still have (header if-match); on a
	// mismatch the call fails with an *APIError matching
	// ErrPreconditionFailed.
	IfMatch string `url:"-"`
	// SHA1 is as in OneRequestUploadOptions.
	SHA1 string `url:"-"`
	// Fields selects the fields of the returned file (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Progress is as in OneRequestUploadOptions.
	Progress func(Progress) `url:"-"`
}

// uploadAttributes is the JSON of the attributes part.
type uploadAttributes struct {
	Name              string      `json:"name,omitempty"`
	Parent            *parentLink `json:"parent,omitempty"`
	ContentCreatedAt  string      `json:"content_created_at,omitempty"`
	ContentModifiedAt string      `json:"content_modified_at,omitempty"`
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// UploadInOneRequest uploads r as a new file named name in the folder, in
// one multipart request (POST {upload_url}/files/content). size is the
// number of bytes read from r, or negative when unknown (the request is then
// sent with chunked transfer encoding). The content is streamed, never held
// in memory. When r is an io.ReaderAt or io.ReadSeeker the request can be
// repeated (after a 429); a plain io.Reader is read once and never retried,
// and one that ends before size bytes fails with a *SourceSizeError.
//
// A name already taken in the folder fails with an *APIError matching
// ErrConflict whose Conflicts lists the existing file.
func (s *FilesService) UploadInOneRequest(ctx context.Context, folderID, name string, r io.Reader, size int64, opts *OneRequestUploadOptions) (*File, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if err := checkUploadName(name); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &OneRequestUploadOptions{}
	}
	attrs := uploadAttributes{
		Name:              name,
		Parent:            &parentLink{ID: folderID},
		ContentCreatedAt:  formatTime(opts.ContentCreatedAt),
		ContentModifiedAt: formatTime(opts.ContentModifiedAt),
	}
	req, err := s.client.newRequest(http.MethodPost, s.client.cfg.uploadURL, opts, "files", "content")
	if err != nil {
		return nil, nil, err
	}
	return s.uploadMultipart(ctx, req, attrs, name, r, size, opts.SHA1, opts.Progress)
}

// UploadVersionInOneRequest uploads r as a new version of the file in one
// multipart request (POST {upload_url}/files/{file_id}/content). size and r
// are as in UploadInOneRequest.
func (s *FilesService) UploadVersionInOneRequest(ctx context.Context, fileID string, r io.Reader, size int64, opts *OneRequestVersionOptions) (*File, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &OneRequestVersionOptions{}
	}
	if opts.NewName != "" {
		if err := checkUploadName(opts.NewName); err != nil {
			return nil, nil, err
		}
	}
	attrs := uploadAttributes{Name: opts.NewName, ContentModifiedAt: formatTime(opts.ContentModifiedAt)}
	req, err := s.client.newRequest(http.MethodPost, s.client.cfg.uploadURL, opts, "files", fileID, "content")
	if err != nil {
		return nil, nil, err
	}
	if err := setHeader(req.header, "If-Match", "if-match", opts.IfMatch); err != nil {
		return nil, nil, err
	}
	filename := opts.NewName
	if filename == "" {
		filename = "file"
	}
	return s.uploadMultipart(ctx, req, attrs, filename, r, size, opts.SHA1, opts.Progress)
}

// checkUploadName rejects names the service would refuse anyway, before the
// content is read.
func checkUploadName(name string) error {
	switch {
	case name == "":
		return invalidArg("name", "empty")
	case strings.ContainsAny(name, "\r\n\x00"):
		return invalidArg("name", "contains a line break or NUL")
	}
	return nil
}

func (s *FilesService) uploadMultipart(ctx context.Context, req *request, attrs uploadAttributes, filename string, r io.Reader, size int64, sum string, progress func(Progress)) (*File, *Response, error) {
	if r == nil {
		return nil, nil, invalidArg("reader", "nil")
	}
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	src, err := newUploadSource(r, size)
	if err != nil {
		return nil, nil, err
	}
	if sum == "" && src.replayable {
		if sum, err = src.sha1(ctx); err != nil {
			return nil, nil, err
		}
	}
	if sum != "" {
		if b, err := hex.DecodeString(sum); err != nil || len(b) != sha1.Size {
			return nil, nil, invalidArg("SHA1", "not a hex SHA-1")
		}
		req.header.Set("Content-Md5", strings.ToLower(sum))
	}
	meta, err := json.Marshal(attrs)
	if err != nil {
		return nil, nil, fmt.Errorf("cms: encoding attributes: %w", err)
	}
	body, contentType, err := multipartBody(meta, filename, src, progress)
	if err != nil {
		return nil, nil, err
	}
	req.header.Set("Content-Type", contentType)
	req.body = body
	var files Collection[*File]
	resp, err := s.client.do(ctx, req, &files)
	if short := src.short(); short != nil {
		return nil, resp, short // the source ended early: say so, not net/http
	}
	if err != nil {
		return nil, resp, err
	}
	if len(files.Entries) == 0 || files.Entries[0] == nil {
		return nil, resp, errors.New("cms: upload response has no file")
	}
	return files.Entries[0], resp, nil
}

// multipartBody frames the content as multipart/form-data: the attributes
// part first, then the file part. The framing is built once; each Open
// streams prefix, content and suffix, so the exact Content-Length is known
// whenever the content size is.
func multipartBody(meta []byte, filename string, src *uploadSource, progress func(Progress)) (*transport.Body, string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	ah := textproto.MIMEHeader{}
	ah.Set("Content-Disposition", `form-data; name="attributes"`)
	ah.Set("Content-Type", "application/json")
	pw, err := mw.CreatePart(ah)
	if err != nil {
		return nil, "", err
	}
	if _, err := pw.Write(meta); err != nil {
		return nil, "", err
	}
	fh := textproto.MIMEHeader{}
	fh.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename="%s"`, escapeQuotes(filename)))
	fh.Set("Content-Type", "application/octet-stream")
	if _, err := mw.CreatePart(fh); err != nil {
		return nil, "", err
	}
	prefix := bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	suffix := bytes.Clone(buf.Bytes())
	length := int64(-1)
	if src.size >= 0 {
		length = int64(len(prefix)) + src.size + int64(len(suffix))
	}
	body := &transport.Body{
		ContentLength: length,
		Replayable:    src.replayable,
		Open: func() (io.ReadCloser, error) {
			content, err := src.open()
			if err != nil {
				return nil, err
			}
			if progress != nil {
				content = newProgressReader(content, src.size, progress)
			}
			return io.NopCloser(&framedBody{
				r:    io.MultiReader(bytes.NewReader(prefix), content, bytes.NewReader(suffix)),
				size: length,
			}), nil
		},
	}
	return body, mw.FormDataContentType(), nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

func escapeQuotes(s string) string { return quoteEscaper.Replace(s) }

// uploadSource is the content of an upload: replayable when it can be read
// again from the start (io.ReaderAt or io.ReadSeeker).
type uploadSource struct {
	size       int64 // -1 when unknown
	replayable bool
	open       func() (io.Reader, error)
	shortErr   atomic.Pointer[SourceSizeError] // set when a read ended before size
}

// short returns the *SourceSizeError of a source that ended before its
// size, or nil.
func (src *uploadSource) short() error {
	if e := src.shortErr.Load(); e != nil {
		return e
	}
	return nil
}

// sized makes every reader open returns fail with a *SourceSizeError (and
// record it) when it ends before the declared size, so net/http stops the
// request with it rather than with its own ContentLength error.
func (src *uploadSource) sized() *uploadSource {
	if src.size < 0 {
		return src
	}
	inner := src.open
	src.open = func() (io.Reader, error) {
		rd, err := inner()
		if err != nil {
			return nil, err
		}
		return &sizedReader{r: rd, src: src}, nil
	}
	return src
}

type sizedReader struct {
	r   io.Reader
	n   int64
	src *uploadSource
}

func (s *sizedReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	if err == io.EOF && s.n < s.src.size {
		e := &SourceSizeError{Size: s.src.size, Read: s.n}
		s.src.shortErr.Store(e)
		return n, e
	}
	return n, err
}

// newUploadSource wraps r. An io.ReadSeeker is read from its current
// position; an io.ReaderAt that is not a seeker from offset 0.
func newUploadSource(r io.Reader, size int64) (*uploadSource, error) {
	seeker, isSeeker := r.(io.ReadSeeker)
	readerAt, isReaderAt := r.(io.ReaderAt)
	switch {
	case isSeeker:
		start, err := seeker.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, fmt.Errorf("cms: upload source: %w", err)
		}
		if size < 0 {
			end, err := seeker.Seek(0, io.SeekEnd)
			if err != nil {
				return nil, fmt.Errorf("cms: upload source: %w", err)
			}
			if _, err := seeker.Seek(start, io.SeekStart); err != nil {
				return nil, fmt.Errorf("cms: upload source: %w", err)
			}
			size = end - start
		}
		src := &uploadSource{size: size, replayable: true}
		defer src.sized()
		if isReaderAt {
			// Sections are independent of the seek offset, so an attempt
			// still being torn down cannot disturb the next one.
			src.open = func() (io.Reader, error) { return io.NewSectionReader(readerAt, start, size), nil }
		} else {
			src.open = func() (io.Reader, error) {
				if _, err := seeker.Seek(start, io.SeekStart); err != nil {
					return nil, fmt.Errorf("cms: rewinding upload source: %w", err)
				}
				return io.LimitReader(seeker, size), nil
			}
		}
		return src, nil
	case isReaderAt && size >= 0:
		src := &uploadSource{size: size, replayable: true, open: func() (io.Reader, error) {
			return io.NewSectionReader(readerAt, 0, size), nil
		}}
		return src.sized(), nil
	}
	used := false
	src := &uploadSource{size: size, open: func() (io.Reader, error) {
		if used {
			return nil, errors.New("cms: upload source is a plain io.Reader and was already read")
		}
		used = true
		if size >= 0 {
			return io.LimitReader(r, size), nil
		}
		return r, nil
	}}
	if size < 0 {
		src.size = -1
	}
	return src.sized(), nil
}

// sha1 reads a replayable source once and returns its hex SHA-1.
func (src *uploadSource) sha1(ctx context.Context) (string, error) {
	rd, err := src.open()
	if err != nil {
		return "", err
	}
	h := sha1.New()
	n, err := io.CopyBuffer(h, ctxReader{ctx, rd}, copyBuffer(src.size))
	var short *SourceSizeError
	if errors.As(err, &short) {
		return "", short
	}
	if err != nil {
		return "", fmt.Errorf("cms: hashing upload source: %w", err)
	}
	if n != src.size {
		return "", &SourceSizeError{Size: src.size, Read: n}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// framedBody is a multipart body: the framing and the content as one
// reader (r, an io.MultiReader of them) of size bytes (-1: unknown). Its
// WriteTo, which net/http uses to send it, copies through a buffer no
// larger than the body (io.MultiReader's own makes 32 KiB for every body,
// which was most of what a small upload allocated).
type framedBody struct {
	r    io.Reader
	size int64
}

func (f *framedBody) Read(p []byte) (int, error) { return f.r.Read(p) }

// WriteTo copies what is left of the body to w.
func (f *framedBody) WriteTo(w io.Writer) (int64, error) {
	// Neither side may take over the copy (a ReaderFrom would make its
	// own buffer): the writes go to w as the buffer fills.
	return io.CopyBuffer(struct{ io.Writer }{w}, struct{ io.Reader }{f.r}, copyBuffer(f.size))
}

// maxCopyBuffer is the buffer io.Copy makes for itself.
const maxCopyBuffer = 32 << 10

// copyBuffer is a buffer to copy size bytes through (-1: unknown): as
// large as io.Copy's own, or as the bytes when fewer, so that a small
// upload does not make 32 KiB twice.
func copyBuffer(size int64) []byte {
	n := int64(maxCopyBuffer)
	if size >= 0 {
		n = min(n, max(size, 512))
	}
	return make([]byte, n)
}

// ctxReader stops reading once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
