package cms

import (
	"context"
	"iter"
	"time"
)

// FileVersionLegalHoldsService handles file version legal holds
// (/file_version_legal_holds): one record per held file version, with the
// assignments that hold it. The service keeps these endpoints for its
// legacy architecture; the files and file versions on hold of an
// assignment (LegalHoldPolicyAssignmentsService) are the newer way.
type FileVersionLegalHoldsService service

// FileVersionLegalHold is a held file version (type file_version_legal_hold).
type FileVersionLegalHold struct {
	ID          string           `json:"id"`
	Type        string           `json:"type,omitzero"`
	FileVersion *FileVersionMini `json:"file_version,omitzero"`
	// File is the version's file; its current version may not be held.
	File                       *FileMini                    `json:"file,omitzero"`
	LegalHoldPolicyAssignments []*LegalHoldPolicyAssignment `json:"legal_hold_policy_assignments,omitzero"`
	DeletedAt                  time.Time                    `json:"deleted_at,omitzero"`
}

// fileVersionLegalHoldsQuery adds the required policy_id.
type fileVersionLegalHoldsQuery struct {
	PolicyID string `url:"policy_id"`
	GovernancePageOptions
}

// ListByPolicy returns one page of the file versions a policy holds, marker-paged
// (GET /file_version_legal_holds?policy_id=...).
func (s *FileVersionLegalHoldsService) ListByPolicy(ctx context.Context, policyID string, opts *GovernancePageOptions) (*MarkerPage[*FileVersionLegalHold], *Response, error) {
	if err := checkID("legal hold policy", policyID); err != nil {
		return nil, nil, err
	}
	o := cloneOptions(opts)
	return getMarkerPage[*FileVersionLegalHold](ctx, s.client, o.Limit, fileVersionLegalHoldsQuery{policyID, o}, "file_version_legal_holds")
}

// ListByPolicyIter yields every file version a policy holds, fetching marker pages
// (GET /file_version_legal_holds) lazily. It never changes opts.
func (s *FileVersionLegalHoldsService) ListByPolicyIter(ctx context.Context, policyID string, opts *GovernancePageOptions) iter.Seq2[*FileVersionLegalHold, error] {
	start, fetch := s.byPolicyPages(policyID, opts)
	return markerSeq(ctx, start, fetch)
}

// NewListByPolicyPaginator walks the file version legal holds of a policy
// one marker page at a time (GET /file_version_legal_holds). It never
// changes opts.
func (s *FileVersionLegalHoldsService) NewListByPolicyPaginator(policyID string, opts *GovernancePageOptions) *MarkerPaginator[*FileVersionLegalHold] {
	return newMarkerPaginator(s.byPolicyPages(policyID, opts))
}

// byPolicyPages pages ListByPolicy with a private copy of opts.
func (s *FileVersionLegalHoldsService) byPolicyPages(policyID string, opts *GovernancePageOptions) (string, markerPageFunc[*FileVersionLegalHold]) {
	return pageFuncs(opts, func(o *GovernancePageOptions) *string { return &o.Marker },
		func(ctx context.Context, o *GovernancePageOptions) (*MarkerPage[*FileVersionLegalHold], *Response, error) {
			return s.ListByPolicy(ctx, policyID, o)
		})
}

// Get fetches a file version legal hold
// (GET /file_version_legal_holds/{file_version_legal_hold_id}).
func (s *FileVersionLegalHoldsService) Get(ctx context.Context, holdID string) (*FileVersionLegalHold, *Response, error) {
	if err := checkID("file version legal hold", holdID); err != nil {
		return nil, nil, err
	}
	return getAPI[FileVersionLegalHold](ctx, s.client, nil, "file_version_legal_holds", holdID)
}
