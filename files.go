package cms

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
)

// FilesService handles files: /files/{id}, downloads, uploads of new files
// and versions, embed links.
type FilesService service

// setSharedLink sets the boxapi header
// (boxapi: shared_link=<url>[&shared_link_password=<password>]) that gives
// access to an item through its shared link. The values are secrets: errors
// name the argument, never its value.
func setSharedLink(h http.Header, link, password string) error {
	if link == "" {
		if password != "" {
			return invalidArg("shared link password", "set without a shared link")
		}
		return nil
	}
	if strings.ContainsAny(link, "\r\n\x00") {
		return invalidArg("shared link", "must be one line")
	}
	if strings.ContainsAny(password, "\r\n\x00") {
		return invalidArg("shared link password", "must be one line")
	}
	v := "shared_link=" + link
	if password != "" {
		v += "&shared_link_password=" + password
	}
	h.Set("Boxapi", v)
	return nil
}

// setHeader sets an optional one-line header such as if-match.
func setHeader(h http.Header, key, arg, value string) error {
	if value == "" {
		return nil
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return invalidArg(arg, "must be one line")
	}
	h.Set(key, value)
	return nil
}

// GetFileOptions are the options of FilesService.Get.
type GetFileOptions struct {
	// Fields selects the fields returned (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// IfNoneMatch is the last etag seen (header if-none-match): when the
	// file is unchanged the call fails with an *APIError matching
	// ErrNotModified.
	IfNoneMatch string `url:"-"`
	// SharedLink is the shared link URL of the file or a parent folder, to
	// access the file through it (header boxapi). Never logged.
	SharedLink string `url:"-"`
	// SharedLinkPassword is the shared link's password, if it has one.
	SharedLinkPassword string `url:"-"`
}

// Get fetches a file (GET /files/{file_id}).
func (s *FilesService) Get(ctx context.Context, fileID string, opts *GetFileOptions) (*File, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &GetFileOptions{}
	}
	return getAPI[File](ctx, s.client, opts, "files", fileID)
}

// DeleteFileOptions are the options of FilesService.Delete.
type DeleteFileOptions struct {
	// IfMatch is the etag the file must still have (header if-match); on a
	// mismatch the call fails with an *APIError matching
	// ErrPreconditionFailed.
	IfMatch string `url:"-"`
}

// setHeaders sends the conditional and shared-link headers of a get.
func (o *GetFileOptions) setHeaders(h http.Header) error {
	if err := setHeader(h, "If-None-Match", "if-none-match", o.IfNoneMatch); err != nil {
		return err
	}
	return setSharedLink(h, o.SharedLink, o.SharedLinkPassword)
}

// setHeaders sends the if-match header of a delete.
func (o *DeleteFileOptions) setHeaders(h http.Header) error {
	return setHeader(h, "If-Match", "if-match", o.IfMatch)
}

// Delete moves a file to the trash or deletes it, as the enterprise settings
// say (DELETE /files/{file_id}).
func (s *FilesService) Delete(ctx context.Context, fileID string, opts *DeleteFileOptions) (*Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &DeleteFileOptions{}
	}
	return deleteAPI(ctx, s.client, opts, "files", fileID)
}

// GetEmbedLink returns a short-lived link to embed the file's preview
// (GET /files/{file_id}?fields=expiring_embed_link).
func (s *FilesService) GetEmbedLink(ctx context.Context, fileID string) (*ExpiringEmbedLink, *Response, error) {
	f, resp, err := s.Get(ctx, fileID, &GetFileOptions{Fields: []string{"expiring_embed_link"}})
	if err != nil {
		return nil, resp, err
	}
	if f.ExpiringEmbedLink == nil {
		return nil, resp, errors.New("cms: response has no expiring_embed_link")
	}
	return f.ExpiringEmbedLink, resp, nil
}

// UploadURL is the answer of an upload preflight check.
type UploadURL struct {
	// UploadURL is the URL to upload the file to.
	UploadURL string `json:"upload_url,omitzero"`
	// UploadToken is a token for that upload, when the service issues one.
	UploadToken string `json:"upload_token,omitzero"`
}

// preflightRequest is the body of OPTIONS /files/content.
type preflightRequest struct {
	Name   string     `json:"name"`
	Size   int64      `json:"size"`
	Parent parentLink `json:"parent"`
}

// parentLink is the {id} of a parent folder in request bodies.
type parentLink struct {
	ID string `json:"id"`
}

// PreflightUpload checks that a file of this name and size could be uploaded
// to the folder, without uploading it (OPTIONS /files/content). A name
// already taken fails with an *APIError matching ErrConflict whose
// Conflicts lists the existing file.
func (s *FilesService) PreflightUpload(ctx context.Context, folderID, name string, size int64) (*UploadURL, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if name == "" {
		return nil, nil, invalidArg("name", "empty")
	}
	if size < 0 {
		return nil, nil, invalidArg("size", "negative")
	}
	r, err := s.client.newRequest(http.MethodOptions, s.client.cfg.baseURL, nil, "files", "content")
	if err != nil {
		return nil, nil, err
	}
	if err := r.setJSON(preflightRequest{Name: name, Size: size, Parent: parentLink{ID: folderID}}); err != nil {
		return nil, nil, err
	}
	u := new(UploadURL)
	resp, err := s.client.do(ctx, r, u)
	if err != nil {
		return nil, resp, err
	}
	return u, resp, nil
}

// DefaultChunkedThreshold is the size from which Upload and UploadVersion
// go through an upload session: 20,000,000 bytes (20 MB), the smallest file
// the service accepts in chunks (a smaller session is 400
// file_size_too_small).
const DefaultChunkedThreshold = 20_000_000

// UploadOptions are the options of FilesService.Upload.
type UploadOptions struct {
	// ChunkedThreshold is the size from which the upload goes through an
	// upload session: 0 means DefaultChunkedThreshold; negative is invalid.
	// A threshold below the service's minimum makes the files between the
	// two fail with 400 file_size_too_small.
	ChunkedThreshold int64
	// OneRequest are the options of an upload in one request.
	OneRequest *OneRequestUploadOptions
	// Chunked are the options of a chunked upload.
	Chunked *ChunkedUploadOptions
	// Progress, when set, reports the upload whichever way it goes (it is
	// the Progress of OneRequest or Chunked when those leave theirs unset).
	Progress func(Progress)
}

// UploadVersionOptions are the options of FilesService.UploadVersion.
type UploadVersionOptions struct {
	// ChunkedThreshold is as in UploadOptions.
	ChunkedThreshold int64
	// OneRequest are the options of an upload in one request.
	OneRequest *OneRequestVersionOptions
	// Chunked are the options of a chunked upload.
	Chunked *ChunkedUploadOptions
	// Progress is as in UploadOptions.
	Progress func(Progress)
}

// chunked reports whether an upload of size bytes goes through a session.
func chunked(size, threshold int64) (bool, error) {
	switch {
	case threshold < 0:
		return false, invalidArg("ChunkedThreshold", "negative")
	case threshold == 0:
		threshold = DefaultChunkedThreshold
	}
	return size >= threshold, nil
}

// Upload uploads r as a new file named name in the folder, the way its
// size calls for: in one request (POST {upload_url}/files/content, see
// UploadInOneRequest) when size is below opts.ChunkedThreshold or unknown
// (negative), otherwise in parts through an upload session
// (POST {upload_url}/files/upload_sessions, see UploadsService.UploadChunked,
// whose failures are *UploadError values). The *Response is the last call's
// (the upload's, or the commit's).
func (s *FilesService) Upload(ctx context.Context, folderID, name string, r io.Reader, size int64, opts *UploadOptions) (*File, *Response, error) {
	if opts == nil {
		opts = &UploadOptions{}
	}
	inParts, err := chunked(size, opts.ChunkedThreshold)
	if err != nil {
		return nil, nil, err
	}
	if inParts {
		return s.client.Uploads.UploadChunked(ctx, folderID, name, r, size, withChunkedProgress(opts.Chunked, opts.Progress))
	}
	one := OneRequestUploadOptions{}
	if opts.OneRequest != nil {
		one = *opts.OneRequest
	}
	if one.Progress == nil {
		one.Progress = opts.Progress
	}
	return s.UploadInOneRequest(ctx, folderID, name, r, size, &one)
}

// withChunkedProgress returns chunked options whose Progress is progress
// unless they have one (a copy; opts is never changed).
func withChunkedProgress(opts *ChunkedUploadOptions, progress func(Progress)) *ChunkedUploadOptions {
	if progress == nil {
		return opts
	}
	o := ChunkedUploadOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Progress == nil {
		o.Progress = progress
	}
	return &o
}

// UploadVersion uploads r as a new version of the file, the way its size
// calls for: in one request (POST {upload_url}/files/{file_id}/content, see
// UploadVersionInOneRequest) below opts.ChunkedThreshold or when size is
// unknown (negative), otherwise through an upload session
// (POST {upload_url}/files/{file_id}/upload_sessions, see
// UploadsService.UploadVersionChunked).
func (s *FilesService) UploadVersion(ctx context.Context, fileID string, r io.Reader, size int64, opts *UploadVersionOptions) (*File, *Response, error) {
	if opts == nil {
		opts = &UploadVersionOptions{}
	}
	inParts, err := chunked(size, opts.ChunkedThreshold)
	if err != nil {
		return nil, nil, err
	}
	if inParts {
		return s.client.Uploads.UploadVersionChunked(ctx, fileID, r, size, withChunkedProgress(opts.Chunked, opts.Progress))
	}
	one := OneRequestVersionOptions{}
	if opts.OneRequest != nil {
		one = *opts.OneRequest
	}
	if one.Progress == nil {
		one.Progress = opts.Progress
	}
	return s.UploadVersionInOneRequest(ctx, fileID, r, size, &one)
}
