package cms

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"time"
)

// LegalHoldPolicyAssignmentsService handles legal hold policy assignments
// (/legal_hold_policy_assignments): what a legal hold policy holds.
type LegalHoldPolicyAssignmentsService service

// LegalHoldAssignmentType is what a legal hold policy is assigned to.
type LegalHoldAssignmentType string

// Legal hold assignment targets.
const (
	LegalHoldAssignmentTypeFile        LegalHoldAssignmentType = "file"
	LegalHoldAssignmentTypeFileVersion LegalHoldAssignmentType = "file_version"
	// LegalHoldAssignmentTypeFolder holds everything below a folder.
	LegalHoldAssignmentTypeFolder LegalHoldAssignmentType = "folder"
	// LegalHoldAssignmentTypeUser, LegalHoldAssignmentTypeOwnership and
	// LegalHoldAssignmentTypeInteractions hold a custodian's content (the policy's
	// filter dates apply to them).
	LegalHoldAssignmentTypeUser         LegalHoldAssignmentType = "user"
	LegalHoldAssignmentTypeOwnership    LegalHoldAssignmentType = "ownership"
	LegalHoldAssignmentTypeInteractions LegalHoldAssignmentType = "interactions"
)

// checkLegalHoldTarget rejects an assignment type other than the six.
func checkLegalHoldTarget(arg string, t LegalHoldAssignmentType) error {
	return checkEnum(arg, t, LegalHoldAssignmentTypeFile, LegalHoldAssignmentTypeFileVersion, LegalHoldAssignmentTypeFolder,
		LegalHoldAssignmentTypeUser, LegalHoldAssignmentTypeOwnership, LegalHoldAssignmentTypeInteractions)
}

// LegalHoldAssignTo names the target of an assignment.
type LegalHoldAssignTo struct {
	Type LegalHoldAssignmentType `json:"type"`
	ID   string                  `json:"id"`
}

// LegalHoldPolicyMini is the short form of a legal hold policy.
type LegalHoldPolicyMini struct {
	ID         string `json:"id"`
	Type       string `json:"type,omitzero"`
	PolicyName string `json:"policy_name,omitzero"`
}

// LegalHoldPolicyAssignment is a legal hold policy assignment.
type LegalHoldPolicyAssignment struct {
	ID              string               `json:"id"`
	Type            string               `json:"type,omitzero"`
	LegalHoldPolicy *LegalHoldPolicyMini `json:"legal_hold_policy,omitzero"`
	AssignedTo      LegalHoldAssignTo    `json:"assigned_to,omitzero"`
	AssignedBy      *UserMini            `json:"assigned_by,omitzero"`
	AssignedAt      time.Time            `json:"assigned_at,omitzero"`
	// DeletedAt is when its deletion was asked for (zero if it was not).
	DeletedAt time.Time `json:"deleted_at,omitzero"`
}

// CreateLegalHoldPolicyAssignmentRequest is the body of
// LegalHoldPolicyAssignmentsService.Create.
type CreateLegalHoldPolicyAssignmentRequest struct {
	PolicyID string            `json:"policy_id"`
	AssignTo LegalHoldAssignTo `json:"assign_to"`
}

// Create assigns a legal hold policy (POST /legal_hold_policy_assignments);
// every file version it covers is held at once.
func (s *LegalHoldPolicyAssignmentsService) Create(ctx context.Context, body *CreateLegalHoldPolicyAssignmentRequest) (*LegalHoldPolicyAssignment, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("legal hold policy", body.PolicyID); err != nil {
		return nil, nil, err
	}
	if body.AssignTo.Type == "" {
		return nil, nil, invalidArg("assign_to.type", "empty")
	}
	if err := checkLegalHoldTarget("assign_to.type", body.AssignTo.Type); err != nil {
		return nil, nil, err
	}
	if err := checkID("assign_to", body.AssignTo.ID); err != nil {
		return nil, nil, err
	}
	return callAPI[LegalHoldPolicyAssignment](ctx, s.client, http.MethodPost, body, nil, "legal_hold_policy_assignments")
}

// Get fetches an assignment (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}).
func (s *LegalHoldPolicyAssignmentsService) Get(ctx context.Context, assignmentID string, opts *FieldsOptions) (*LegalHoldPolicyAssignment, *Response, error) {
	if err := checkID("legal hold policy assignment", assignmentID); err != nil {
		return nil, nil, err
	}
	return getAPI[LegalHoldPolicyAssignment](ctx, s.client, opts, "legal_hold_policy_assignments", assignmentID)
}

// ListLegalHoldPolicyAssignmentsOptions are the options of
// LegalHoldPolicyAssignmentsService.List.
type ListLegalHoldPolicyAssignmentsOptions struct {
	// AssignToType and AssignToID keep the assignments to one target type or id.
	AssignToType LegalHoldAssignmentType `url:"assign_to_type,omitempty"`
	AssignToID   string                  `url:"assign_to_id,omitempty"`
	// Fields selects the fields of each assignment.
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is where to start (a NextMarker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
}

// holdAssignmentsQuery adds the required policy_id.
type holdAssignmentsQuery struct {
	PolicyID string `url:"policy_id"`
	*ListLegalHoldPolicyAssignmentsOptions
}

// ListByPolicy returns one page of a policy's assignments, marker-paged
// (GET /legal_hold_policy_assignments?policy_id=...).
func (s *LegalHoldPolicyAssignmentsService) ListByPolicy(ctx context.Context, policyID string, opts *ListLegalHoldPolicyAssignmentsOptions) (*MarkerPage[*LegalHoldPolicyAssignment], *Response, error) {
	if err := checkID("legal hold policy", policyID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListLegalHoldPolicyAssignmentsOptions{}
	}
	if err := checkLegalHoldTarget("assign_to_type", opts.AssignToType); err != nil {
		return nil, nil, err
	}
	return getMarkerPage[*LegalHoldPolicyAssignment](ctx, s.client, opts.Limit, holdAssignmentsQuery{policyID, opts}, "legal_hold_policy_assignments")
}

// ListByPolicyIter yields every assignment of a policy, fetching marker pages
// (GET /legal_hold_policy_assignments) lazily. It never changes opts.
func (s *LegalHoldPolicyAssignmentsService) ListByPolicyIter(ctx context.Context, policyID string, opts *ListLegalHoldPolicyAssignmentsOptions) iter.Seq2[*LegalHoldPolicyAssignment, error] {
	start, fetch := s.byPolicyPages(policyID, opts)
	return markerSeq(ctx, start, fetch)
}

// NewListByPolicyPaginator walks a policy's assignments one marker page at
// a time (GET /legal_hold_policy_assignments). It never changes opts.
func (s *LegalHoldPolicyAssignmentsService) NewListByPolicyPaginator(policyID string, opts *ListLegalHoldPolicyAssignmentsOptions) *MarkerPaginator[*LegalHoldPolicyAssignment] {
	return newMarkerPaginator(s.byPolicyPages(policyID, opts))
}

// byPolicyPages pages ListByPolicy with a private copy of opts.
func (s *LegalHoldPolicyAssignmentsService) byPolicyPages(policyID string, opts *ListLegalHoldPolicyAssignmentsOptions) (string, markerPageFunc[*LegalHoldPolicyAssignment]) {
	return pageFuncs(opts, func(o *ListLegalHoldPolicyAssignmentsOptions) *string { return &o.Marker },
		func(ctx context.Context, o *ListLegalHoldPolicyAssignmentsOptions) (*MarkerPage[*LegalHoldPolicyAssignment], *Response, error) {
			return s.ListByPolicy(ctx, policyID, o)
		})
}

// Delete removes an assignment (DELETE
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}). The
// service accepts the request (202; LegalHoldDeletion.Accepted is true)
// and finishes it in the background; the assignment keeps holding, listed
// with DeletedAt, until it is gone. WaitDeleted waits for that.
func (s *LegalHoldPolicyAssignmentsService) Delete(ctx context.Context, assignmentID string) (*LegalHoldDeletion, *Response, error) {
	if err := checkID("legal hold policy assignment", assignmentID); err != nil {
		return nil, nil, err
	}
	return deleteLegalHold(ctx, s.client, "legal_hold_policy_assignments", assignmentID)
}

// WaitDeleted reads an assignment (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}) every
// opts.Interval (default 1 s; negative is an *ArgError), waiting with the
// client's sleep hook, until the service answers 404, and returns that
// answer's *Response with a nil error. It stops with ctx or any other
// error (with the last response). The shape of a delete: (*Response,
// error), as WaitForStatus has the shape of a get.
func (s *LegalHoldPolicyAssignmentsService) WaitDeleted(ctx context.Context, assignmentID string, opts *PollOptions) (*Response, error) {
	var resp *Response
	err := s.client.poll(ctx, opts, func() (bool, error) {
		var err error
		_, resp, err = s.Get(ctx, assignmentID, nil)
		if errors.Is(err, ErrNotFound) {
			return true, nil
		}
		return false, err
	})
	return resp, err
}

// OnHoldOptions are the options of the files and file versions on hold of
// an assignment.
type OnHoldOptions struct {
	// Fields selects the fields of each entry.
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is where to start (a NextMarker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
}

// FileVersionOnHold is a file version held by an assignment (the service's
// FileVersion record).
type FileVersionOnHold struct {
	ID                  string    `json:"id"`
	Type                string    `json:"type,omitzero"`
	SHA1                string    `json:"sha1,omitzero"`
	Name                string    `json:"name,omitzero"`
	Size                int64     `json:"size,omitzero"`
	CreatedAt           time.Time `json:"created_at,omitzero"`
	ModifiedAt          time.Time `json:"modified_at,omitzero"`
	ModifiedBy          *UserMini `json:"modified_by,omitzero"`
	TrashedAt           time.Time `json:"trashed_at,omitzero"`
	PurgedAt            time.Time `json:"purged_at,omitzero"`
	VersionNumber       string    `json:"version_number,omitzero"`
	UploaderDisplayName string    `json:"uploader_display_name,omitzero"`
}

// ListFilesOnHold returns one page of the files whose current version an
// assignment holds (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}/files_on_hold).
func (s *LegalHoldPolicyAssignmentsService) ListFilesOnHold(ctx context.Context, assignmentID string, opts *OnHoldOptions) (*MarkerPage[*FileMini], *Response, error) {
	return onHold[*FileMini](ctx, s, assignmentID, "files_on_hold", opts)
}

// ListFilesOnHoldIter yields every file whose current version an
// assignment holds, fetching marker pages (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}/files_on_hold)
// lazily as the loop advances. It never changes opts.
func (s *LegalHoldPolicyAssignmentsService) ListFilesOnHoldIter(ctx context.Context, assignmentID string, opts *OnHoldOptions) iter.Seq2[*FileMini, error] {
	return onHoldIter[*FileMini](ctx, s, assignmentID, "files_on_hold", opts)
}

// ListFileVersionsOnHold returns one page of the earlier (not current)
// file versions an assignment holds (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}/file_versions_on_hold).
// The official SDKs lack this endpoint.
func (s *LegalHoldPolicyAssignmentsService) ListFileVersionsOnHold(ctx context.Context, assignmentID string, opts *OnHoldOptions) (*MarkerPage[*FileVersionOnHold], *Response, error) {
	return onHold[*FileVersionOnHold](ctx, s, assignmentID, "file_versions_on_hold", opts)
}

// ListFileVersionsOnHoldIter yields every earlier file version an
// assignment holds, fetching marker pages (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}/file_versions_on_hold)
// lazily as the loop advances. It never changes opts.
func (s *LegalHoldPolicyAssignmentsService) ListFileVersionsOnHoldIter(ctx context.Context, assignmentID string, opts *OnHoldOptions) iter.Seq2[*FileVersionOnHold, error] {
	return onHoldIter[*FileVersionOnHold](ctx, s, assignmentID, "file_versions_on_hold", opts)
}

func onHold[T any](ctx context.Context, s *LegalHoldPolicyAssignmentsService, assignmentID, what string, opts *OnHoldOptions) (*MarkerPage[T], *Response, error) {
	if err := checkID("legal hold policy assignment", assignmentID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &OnHoldOptions{}
	}
	return getMarkerPage[T](ctx, s.client, opts.Limit, opts, "legal_hold_policy_assignments", assignmentID, what)
}

func onHoldIter[T any](ctx context.Context, s *LegalHoldPolicyAssignmentsService, assignmentID, what string, opts *OnHoldOptions) iter.Seq2[T, error] {
	start, fetch := onHoldPages[T](s, assignmentID, what, opts)
	return markerSeq(ctx, start, fetch)
}

// onHoldPages pages what an assignment holds with a private copy of opts.
func onHoldPages[T any](s *LegalHoldPolicyAssignmentsService, assignmentID, what string, opts *OnHoldOptions) (string, markerPageFunc[T]) {
	return pageFuncs(opts, func(o *OnHoldOptions) *string { return &o.Marker },
		func(ctx context.Context, o *OnHoldOptions) (*MarkerPage[T], *Response, error) {
			return onHold[T](ctx, s, assignmentID, what, o)
		})
}

// NewListFilesOnHoldPaginator walks the files an assignment holds one
// marker page at a time (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}/files_on_hold).
// It never changes opts.
func (s *LegalHoldPolicyAssignmentsService) NewListFilesOnHoldPaginator(assignmentID string, opts *OnHoldOptions) *MarkerPaginator[*FileMini] {
	return newMarkerPaginator(onHoldPages[*FileMini](s, assignmentID, "files_on_hold", opts))
}

// NewListFileVersionsOnHoldPaginator walks the earlier file versions an
// assignment holds one marker page at a time (GET
// /legal_hold_policy_assignments/{legal_hold_policy_assignment_id}/file_versions_on_hold).
// It never changes opts.
func (s *LegalHoldPolicyAssignmentsService) NewListFileVersionsOnHoldPaginator(assignmentID string, opts *OnHoldOptions) *MarkerPaginator[*FileVersionOnHold] {
	return newMarkerPaginator(onHoldPages[*FileVersionOnHold](s, assignmentID, "file_versions_on_hold", opts))
}
