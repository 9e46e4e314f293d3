package cms

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// FileVersionsService handles the past versions of a file
// (/files/{file_id}/versions): list, get, delete (to the trash), restore
// from the trash, and promote an old version to be the current one. The
// current version is not listed: it is the file (File.FileVersion). A
// version's content downloads with DownloadOptions.Version.
type FileVersionsService service

// FileVersion is a version of a file (FileVersion--Full).
type FileVersion struct {
	ID         string    `json:"id"`
	Type       string    `json:"type,omitzero"`
	SHA1       string    `json:"sha1,omitzero"`
	Name       string    `json:"name,omitzero"`
	Size       int64     `json:"size,omitzero"`
	CreatedAt  time.Time `json:"created_at,omitzero"`
	ModifiedAt time.Time `json:"modified_at,omitzero"`
	ModifiedBy *UserMini `json:"modified_by,omitzero"`
	// TrashedAt and TrashedBy are set while the version is in the trash.
	TrashedAt time.Time `json:"trashed_at,omitzero"`
	TrashedBy *UserMini `json:"trashed_by,omitzero"`
	// RestoredAt and RestoredBy are set once it came back from the trash.
	RestoredAt time.Time `json:"restored_at,omitzero"`
	RestoredBy *UserMini `json:"restored_by,omitzero"`
	// PurgedAt is when a trashed version is deleted for good.
	PurgedAt            time.Time `json:"purged_at,omitzero"`
	UploaderDisplayName string    `json:"uploader_display_name,omitzero"`
	VersionNumber       string    `json:"version_number,omitzero"`
}

// ListFileVersionsOptions are the options of FileVersionsService.ListByFile.
type ListFileVersionsOptions struct {
	// Fields selects the fields of each version (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Offset (at most 10000) and Limit (at most 1000) page the list.
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"`
}

// ListByFile returns one offset page of a file's past versions, newest
// first (GET /files/{file_id}/versions). The current version is not in it.
func (s *FileVersionsService) ListByFile(ctx context.Context, fileID string, opts *ListFileVersionsOptions) (*OffsetPage[*FileVersion], *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListFileVersionsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*FileVersion]](ctx, s.client, opts, "files", fileID, "versions")
}

// listByFilePages pages ListByFile with a private copy of opts.
func (s *FileVersionsService) listByFilePages(fileID string, opts *ListFileVersionsOptions) (int, offsetPageFunc[*FileVersion]) {
	return pageFuncs(opts, func(o *ListFileVersionsOptions) *int { return &o.Offset },
		func(ctx context.Context, o *ListFileVersionsOptions) (*OffsetPage[*FileVersion], *Response, error) {
			return s.ListByFile(ctx, fileID, o)
		})
}

// ListByFileIter yields every past version of a file, fetching offset pages
// (GET /files/{file_id}/versions) lazily. It never changes opts.
func (s *FileVersionsService) ListByFileIter(ctx context.Context, fileID string, opts *ListFileVersionsOptions) iter.Seq2[*FileVersion, error] {
	start, fetch := s.listByFilePages(fileID, opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListByFilePaginator walks a file's past versions one offset page at a
// time (GET /files/{file_id}/versions). It never changes opts.
func (s *FileVersionsService) NewListByFilePaginator(fileID string, opts *ListFileVersionsOptions) *OffsetPaginator[*FileVersion] {
	return newOffsetPaginator(s.listByFilePages(fileID, opts))
}

// checkVersion checks the ids of a version call.
func checkVersion(fileID, versionID string) error {
	return firstErr(checkID("file", fileID), checkID("file version", versionID))
}

// Get fetches a version of a file
// (GET /files/{file_id}/versions/{file_version_id}).
func (s *FileVersionsService) Get(ctx context.Context, fileID, versionID string, opts *FieldsOptions) (*FileVersion, *Response, error) {
	if err := checkVersion(fileID, versionID); err != nil {
		return nil, nil, err
	}
	return getAPI[FileVersion](ctx, s.client, opts, "files", fileID, "versions", versionID)
}

// DeleteFileVersionOptions are the options of FileVersionsService.Delete.
type DeleteFileVersionOptions struct {
	// IfMatch is the etag the file must still have (header if-match); on a
	// mismatch the call fails with an *APIError matching
	// ErrPreconditionFailed.
	IfMatch string `url:"-"`
}

// setHeaders sends if-match.
func (o *DeleteFileVersionOptions) setHeaders(h http.Header) error {
	return setHeader(h, "If-Match", "if-match", o.IfMatch)
}

// Delete moves a past version to the trash
// (DELETE /files/{file_id}/versions/{file_version_id}); Restore brings it
// back. A version under retention or a legal hold is refused.
func (s *FileVersionsService) Delete(ctx context.Context, fileID, versionID string, opts *DeleteFileVersionOptions) (*Response, error) {
	if err := checkVersion(fileID, versionID); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &DeleteFileVersionOptions{}
	}
	return deleteAPI(ctx, s.client, opts, "files", fileID, "versions", versionID)
}

// restoreVersionBody is {"trashed_at": null}: TrashedAt is always nil.
type restoreVersionBody struct {
	TrashedAt *time.Time `json:"trashed_at"`
}

// Restore takes a trashed version out of the trash
// (PUT /files/{file_id}/versions/{file_version_id} with
// {"trashed_at": null}).
func (s *FileVersionsService) Restore(ctx context.Context, fileID, versionID string) (*FileVersion, *Response, error) {
	if err := checkVersion(fileID, versionID); err != nil {
		return nil, nil, err
	}
	return callAPI[FileVersion](ctx, s.client, http.MethodPut, restoreVersionBody{}, nil, "files", fileID, "versions", versionID)
}

// promoteVersionBody is {"id": ..., "type": "file_version"}.
type promoteVersionBody struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// Promote makes a past version the current one
// (POST /files/{file_id}/versions/current; the service answers 201): the
// file gets a new version with that version's content and name, at the top
// of the history. The answer is the new version.
func (s *FileVersionsService) Promote(ctx context.Context, fileID, versionID string, opts *FieldsOptions) (*FileVersion, *Response, error) {
	if err := checkVersion(fileID, versionID); err != nil {
		return nil, nil, err
	}
	return callAPI[FileVersion](ctx, s.client, http.MethodPost, promoteVersionBody{versionID, "file_version"}, opts, "files", fileID, "versions", "current")
}
