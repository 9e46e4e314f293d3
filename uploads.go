package cms

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"sort"
	"time"

	"github.com/contentapi/cms/internal/transport"
)

// UploadsService handles upload sessions (/files/upload_sessions) and the
// chunked uploader built on them.
type UploadsService service

// UploadSession is a chunked upload in progress.
type UploadSession struct {
	ID                string           `json:"id"`
	Type              string           `json:"type,omitzero"`
	SessionExpiresAt  time.Time        `json:"session_expires_at,omitzero"`
	PartSize          int64            `json:"part_size"`
	TotalParts        int              `json:"total_parts"`
	NumPartsProcessed int              `json:"num_parts_processed"`
	SessionEndpoints  SessionEndpoints `json:"session_endpoints,omitzero"`
}

// SessionEndpoints are the absolute URLs of a session's operations.
type SessionEndpoints struct {
	UploadPart string `json:"upload_part,omitzero"`
	Commit     string `json:"commit,omitzero"`
	Abort      string `json:"abort,omitzero"`
	ListParts  string `json:"list_parts,omitzero"`
	Status     string `json:"status,omitzero"`
	LogEvent   string `json:"log_event,omitzero"`
}

// UploadPart is one received part of a session.
type UploadPart struct {
	PartID string `json:"part_id"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
	SHA1   string `json:"sha1,omitzero"` // hex SHA1 of the part's bytes
}

// CreateUploadSessionRequest is the body of POST /files/upload_sessions.
type CreateUploadSessionRequest struct {
	FolderID string `json:"folder_id"`
	FileSize int64  `json:"file_size"`
	FileName string `json:"file_name"`
}

// CreateVersionSessionRequest is the body of POST /files/{file_id}/upload_sessions.
type CreateVersionSessionRequest struct {
	FileSize int64  `json:"file_size"`
	FileName string `json:"file_name,omitzero"` // renames the file on commit
}

// CreateSession starts a chunked upload of a new file
// (POST {upload_url}/files/upload_sessions).
func (s *UploadsService) CreateSession(ctx context.Context, req *CreateUploadSessionRequest) (*UploadSession, *Response, error) {
	if req == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("folder", req.FolderID); err != nil {
		return nil, nil, err
	}
	if req.FileName == "" {
		return nil, nil, invalidArg("file name", "empty")
	}
	if req.FileSize <= 0 {
		return nil, nil, invalidArg("file size", "must be positive")
	}
	return s.createSession(ctx, req, "files", "upload_sessions")
}

// CreateVersionSession starts a chunked upload of a new version of a file
// (POST {upload_url}/files/{file_id}/upload_sessions).
func (s *UploadsService) CreateVersionSession(ctx context.Context, fileID string, req *CreateVersionSessionRequest) (*UploadSession, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if req == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if req.FileSize <= 0 {
		return nil, nil, invalidArg("file size", "must be positive")
	}
	return s.createSession(ctx, req, "files", fileID, "upload_sessions")
}

func (s *UploadsService) createSession(ctx context.Context, body any, segments ...string) (*UploadSession, *Response, error) {
	r, err := s.client.newRequest(http.MethodPost, s.client.cfg.uploadURL, nil, segments...)
	if err != nil {
		return nil, nil, err
	}
	if err := r.setJSON(body); err != nil {
		return nil, nil, err
	}
	sess := new(UploadSession)
	resp, err := s.client.do(ctx, r, sess)
	if err != nil {
		return nil, resp, err
	}
	return sess, resp, nil
}

// GetSession fetches a session's state (GET /files/upload_sessions/{upload_session_id}).
func (s *UploadsService) GetSession(ctx context.Context, sessionID string) (*UploadSession, *Response, error) {
	r, err := s.sessionRequest(http.MethodGet, sessionID, "", nil)
	if err != nil {
		return nil, nil, err
	}
	sess := new(UploadSession)
	resp, err := s.client.do(ctx, r, sess)
	if err != nil {
		return nil, resp, err
	}
	return sess, resp, nil
}

// AbortSession discards a session and its parts
// (DELETE /files/upload_sessions/{upload_session_id}).
func (s *UploadsService) AbortSession(ctx context.Context, sessionID string) (*Response, error) {
	r, err := s.sessionRequest(http.MethodDelete, sessionID, "", nil)
	if err != nil {
		return nil, err
	}
	return s.client.do(ctx, r, nil)
}

// sessionRequest builds a request on {upload_url}/files/upload_sessions/{id}[/suffix].
func (s *UploadsService) sessionRequest(method, sessionID, suffix string, opts any) (*request, error) {
	if err := checkID("upload session", sessionID); err != nil {
		return nil, err
	}
	segs := []string{"files", "upload_sessions", sessionID}
	if suffix != "" {
		segs = append(segs, suffix)
	}
	return s.client.newRequest(method, s.client.cfg.uploadURL, opts, segs...)
}

// endpointRequest builds a request on a session endpoint URL the service
// returned, when it is on the API or upload host; otherwise on the upload
// root, so a token is never sent to a host the client was not configured for.
func (s *UploadsService) endpointRequest(method string, sess *UploadSession, endpoint, suffix string) (*request, error) {
	if endpoint != "" {
		if u, err := url.Parse(endpoint); err == nil && s.trustedHost(u) {
			return s.client.newRequestURL(method, u, nil)
		}
	}
	return s.sessionRequest(method, sess.ID, suffix, nil)
}

func (s *UploadsService) trustedHost(u *url.URL) bool {
	for _, root := range []*url.URL{s.client.cfg.uploadURL, s.client.cfg.baseURL} {
		if u.Scheme == root.Scheme && u.Host == root.Host {
			return true
		}
	}
	return false
}

// PartRange places a part in its file: the part is the Size bytes from
// Offset of a file of FileSize bytes (the session's file_size). Every part
// but the last is exactly the session's part size.
type PartRange struct {
	Offset, Size, FileSize int64
}

func (r PartRange) check() error {
	if r.Offset < 0 || r.Size <= 0 || r.Offset+r.Size > r.FileSize {
		return invalidArg("part range", fmt.Sprintf("offset %d size %d outside file of %d bytes", r.Offset, r.Size, r.FileSize))
	}
	return nil
}

// UploadPart sends one part of a session
// (PUT /files/upload_sessions/{upload_session_id}) with its Digest and
// Content-Range. part holds the bytes of rng from its current position; it
// is read once to hash them, then rewound to send (and to resend on
// retries: a part PUT is idempotent).
func (s *UploadsService) UploadPart(ctx context.Context, sessionID string, part io.ReadSeeker, rng PartRange) (*UploadPart, *Response, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	if err := checkID("upload session", sessionID); err != nil {
		return nil, nil, err
	}
	if part == nil {
		return nil, nil, invalidArg("part", "nil")
	}
	if err := rng.check(); err != nil {
		return nil, nil, err
	}
	start, err := part.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, nil, fmt.Errorf("cms: part is not seekable: %w", err)
	}
	h := sha1.New()
	if n, err := io.Copy(h, io.LimitReader(part, rng.Size)); err != nil {
		return nil, nil, fmt.Errorf("cms: reading part: %w", err)
	} else if n != rng.Size {
		return nil, nil, &SourceSizeError{Size: rng.Size, Read: n}
	}
	sum := h.Sum(nil)
	body := &transport.Body{
		Open: func() (io.ReadCloser, error) {
			if _, err := part.Seek(start, io.SeekStart); err != nil {
				return nil, err
			}
			return io.NopCloser(io.LimitReader(part, rng.Size)), nil
		},
		ContentLength: rng.Size,
		Replayable:    true,
	}
	return s.putPart(ctx, &UploadSession{ID: sessionID}, body, rng, sum)
}

// putPart sends one part and checks the echoed record against what was sent.
func (s *UploadsService) putPart(ctx context.Context, sess *UploadSession, body *transport.Body, rng PartRange, sum []byte) (*UploadPart, *Response, error) {
	offset, size := rng.Offset, rng.Size
	r, err := s.endpointRequest(http.MethodPut, sess, sess.SessionEndpoints.UploadPart, "")
	if err != nil {
		return nil, nil, err
	}
	r.header.Set("Content-Type", "application/octet-stream")
	r.header.Set("Digest", "sha="+base64.StdEncoding.EncodeToString(sum))
	r.header.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", offset, offset+size-1, rng.FileSize))
	r.body = body
	var out struct {
		Part *UploadPart `json:"part"`
	}
	resp, err := s.client.do(ctx, r, &out)
	if err != nil {
		return nil, resp, err
	}
	want := hex.EncodeToString(sum)
	if p := out.Part; p == nil || p.Offset != offset || p.Size != size || (p.SHA1 != "" && p.SHA1 != want) || p.PartID == "" {
		return nil, resp, &PartEchoError{Offset: offset, Size: size, SHA1: want, Echoed: out.Part}
	}
	return out.Part, resp, nil
}

// ListPartsOptions pages the parts of a session.
type ListPartsOptions struct {
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"` // at most 1000
}

// ListParts lists the parts received so far
// (GET /files/upload_sessions/{upload_session_id}/parts).
func (s *UploadsService) ListParts(ctx context.Context, sessionID string, opts *ListPartsOptions) (*OffsetPage[*UploadPart], *Response, error) {
	r, err := s.sessionRequest(http.MethodGet, sessionID, "parts", opts)
	if err != nil {
		return nil, nil, err
	}
	page := new(OffsetPage[*UploadPart])
	resp, err := s.client.do(ctx, r, page)
	if err != nil {
		return nil, resp, err
	}
	return page, resp, nil
}

// ListPartsIter yields every part received so far, fetching pages lazily
// (GET /files/upload_sessions/{upload_session_id}/parts).
func (s *UploadsService) ListPartsIter(ctx context.Context, sessionID string, opts *ListPartsOptions) iter.Seq2[*UploadPart, error] {
	start, fetch := s.partsPages(sessionID, opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListPartsPaginator walks the parts received so far one offset page at
// a time (GET /files/upload_sessions/{upload_session_id}/parts). It never
// changes opts.
func (s *UploadsService) NewListPartsPaginator(sessionID string, opts *ListPartsOptions) *OffsetPaginator[*UploadPart] {
	return newOffsetPaginator(s.partsPages(sessionID, opts))
}

// partsPages pages ListParts with a private copy of opts.
func (s *UploadsService) partsPages(sessionID string, opts *ListPartsOptions) (int, offsetPageFunc[*UploadPart]) {
	return pageFuncs(opts, func(o *ListPartsOptions) *int { return &o.Offset },
		func(ctx context.Context, o *ListPartsOptions) (*OffsetPage[*UploadPart], *Response, error) {
			return s.ListParts(ctx, sessionID, o)
		})
}

// CommitOptions are the conditions of a commit.
type CommitOptions struct {
	IfMatch     string // etag the file must still have (new versions); else 412
	IfNoneMatch string
	// ContentModifiedAt is the content's own modification time (attribute
	// content_modified_at of the commit); zero leaves it to the service.
	ContentModifiedAt time.Time
}

// Commit assembles the parts into the file
// (POST /files/upload_sessions/{upload_session_id}/commit). fileSHA1 is the
// hex SHA1 of the whole file (sent as the Digest header); parts are sent in
// offset order. When the service has not processed every part yet it
// answers 202: Commit then returns an *AcceptedError with the Retry-After
// to wait before committing again (the chunked uploader does this itself).
//
// A commit takes effect at most once (the session is consumed), so it is
// retried like an idempotent call. When an earlier attempt did take effect
// but its answer was lost, the repeat answers 404 (ErrNotFound): the file
// exists. The chunked uploader resolves that case itself (it looks the file
// up by name, size and SHA1).
func (s *UploadsService) Commit(ctx context.Context, sessionID string, parts []*UploadPart, fileSHA1 string, opts *CommitOptions) (*File, *Response, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	if err := checkID("upload session", sessionID); err != nil {
		return nil, nil, err
	}
	sum, err := hex.DecodeString(fileSHA1)
	if err != nil || len(sum) != sha1.Size {
		return nil, nil, invalidArg("file SHA1", "must be 40 hex digits")
	}
	return s.commit(ctx, &UploadSession{ID: sessionID}, parts, sum, opts)
}

func (s *UploadsService) commit(ctx context.Context, sess *UploadSession, parts []*UploadPart, fileSHA1 []byte, opts *CommitOptions) (*File, *Response, error) {
	if len(parts) == 0 {
		return nil, nil, invalidArg("parts", "empty")
	}
	sorted := make([]*UploadPart, len(parts))
	copy(sorted, parts)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Offset < sorted[j].Offset })
	r, err := s.endpointRequest(http.MethodPost, sess, sess.SessionEndpoints.Commit, "commit")
	if err != nil {
		return nil, nil, err
	}
	type attributes struct {
		ContentModifiedAt string `json:"content_modified_at,omitempty"`
	}
	body := struct {
		Parts      []*UploadPart `json:"parts"`
		Attributes *attributes   `json:"attributes,omitempty"`
	}{Parts: sorted}
	if opts != nil && !opts.ContentModifiedAt.IsZero() {
		body.Attributes = &attributes{ContentModifiedAt: formatTime(opts.ContentModifiedAt)}
	}
	if err := r.setJSON(body); err != nil {
		return nil, nil, err
	}
	r.header.Set("Digest", "sha="+base64.StdEncoding.EncodeToString(fileSHA1))
	if opts != nil {
		if err := setHeader(r.header, "If-Match", "if-match", opts.IfMatch); err != nil {
			return nil, nil, err
		}
		if err := setHeader(r.header, "If-None-Match", "if-none-match", opts.IfNoneMatch); err != nil {
			return nil, nil, err
		}
	}
	// A session commits once: repeating the commit cannot create a second
	// file, so it is retried like an idempotent call.
	var files Collection[*File]
	resp, err := s.client.do(transport.WithIdempotent(ctx), r, &files)
	if err != nil {
		return nil, resp, err
	}
	if resp.StatusCode == http.StatusAccepted {
		return nil, resp, &AcceptedError{RetryAfter: resp.RetryAfter, Response: resp}
	}
	if len(files.Entries) == 0 || files.Entries[0] == nil {
		return nil, resp, fmt.Errorf("cms: commit answered %d without a file", resp.StatusCode)
	}
	return files.Entries[0], resp, nil
}
