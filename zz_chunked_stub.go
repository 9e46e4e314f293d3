package cms

// Temporary stand-in until UploadsService.UploadChunked lands in uploads.go.
// Delete this file then, and make FilesService.Upload call
// s.client.Uploads.UploadChunked.

import (
	"context"
	"errors"
	"io"
)

// ChunkedUploadOptions are the options of a chunked upload (placeholder
// until uploads.go defines them).
type ChunkedUploadOptions struct{}

// uploadChunked is the stand-in for UploadsService.UploadChunked.
func (s *UploadsService) uploadChunked(ctx context.Context, folderID, name string, r io.Reader, size int64, opts *ChunkedUploadOptions) (*File, error) {
	_, _, _, _, _, _ = ctx, folderID, name, r, size, opts
	return nil, errors.New("cms: chunked upload is not available yet")
}
