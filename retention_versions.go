package cms

import (
	"context"
	"iter"
	"time"
)

// FileVersionRetentionsService handles file version retentions
// (/file_version_retentions): one record per retained file version, with
// the policy that wins and when the retention ends. The service marks these
// endpoints deprecated in favour of the files and file versions under
// retention of an assignment (RetentionPolicyAssignmentsService).
type FileVersionRetentionsService service

// FileVersionRetention is a retained file version.
type FileVersionRetention struct {
	ID          string           `json:"id"`
	Type        string           `json:"type,omitzero"`
	FileVersion *FileVersionMini `json:"file_version,omitzero"`
	File        *FileMini        `json:"file,omitzero"`
	AppliedAt   time.Time        `json:"applied_at,omitzero"`
	// DispositionAt is when the retention ends; zero when it is indefinite.
	DispositionAt          time.Time            `json:"disposition_at,omitzero"`
	WinningRetentionPolicy *RetentionPolicyMini `json:"winning_retention_policy,omitzero"`
}

// ListFileVersionRetentionsOptions filter FileVersionRetentionsService.List.
type ListFileVersionRetentionsOptions struct {
	FileID            string            `url:"file_id,omitempty"`
	FileVersionID     string            `url:"file_version_id,omitempty"`
	PolicyID          string            `url:"policy_id,omitempty"`
	DispositionAction DispositionAction `url:"disposition_action,omitempty"`
	// DispositionBefore and DispositionAfter keep the retentions that end
	// before or after a time (sent as RFC 3339).
	DispositionBefore time.Time `url:"disposition_before,omitempty"`
	DispositionAfter  time.Time `url:"disposition_after,omitempty"`
	// Marker is where to start (a NextMarker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
}

// List returns one page of file version retentions, marker-paged
// (GET /file_version_retentions).
func (s *FileVersionRetentionsService) List(ctx context.Context, opts *ListFileVersionRetentionsOptions) (*MarkerPage[*FileVersionRetention], *Response, error) {
	if opts == nil {
		opts = &ListFileVersionRetentionsOptions{}
	}
	if err := checkEnum("disposition_action", opts.DispositionAction, DispositionActionPermanentlyDelete, DispositionActionRemoveRetention); err != nil {
		return nil, nil, err
	}
	q := *opts
	q.DispositionBefore = q.DispositionBefore.UTC()
	q.DispositionAfter = q.DispositionAfter.UTC()
	return getMarkerPage[*FileVersionRetention](ctx, s.client, opts.Limit, &q, "file_version_retentions")
}

// ListIter yields every file version retention, fetching marker pages
// (GET /file_version_retentions) lazily. It never changes opts.
func (s *FileVersionRetentionsService) ListIter(ctx context.Context, opts *ListFileVersionRetentionsOptions) iter.Seq2[*FileVersionRetention, error] {
	start, fetch := pageFuncs(opts, func(o *ListFileVersionRetentionsOptions) *string { return &o.Marker }, s.List)
	return markerSeq(ctx, start, fetch)
}

// NewListPaginator walks the file version retentions one marker page at a
// time (GET /file_version_retentions). It never changes opts.
func (s *FileVersionRetentionsService) NewListPaginator(opts *ListFileVersionRetentionsOptions) *MarkerPaginator[*FileVersionRetention] {
	return newMarkerPaginator(pageFuncs(opts, func(o *ListFileVersionRetentionsOptions) *string { return &o.Marker }, s.List))
}

// Get fetches a file version retention
// (GET /file_version_retentions/{file_version_retention_id}).
func (s *FileVersionRetentionsService) Get(ctx context.Context, retentionID string) (*FileVersionRetention, *Response, error) {
	if err := checkID("file version retention", retentionID); err != nil {
		return nil, nil, err
	}
	return getAPI[FileVersionRetention](ctx, s.client, nil, "file_version_retentions", retentionID)
}
