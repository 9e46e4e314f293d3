package cms

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"time"
)

// RetentionPolicyAssignmentsService handles retention policy assignments
// (/retention_policy_assignments): which content a policy retains.
type RetentionPolicyAssignmentsService service

// RetentionAssignmentType is what a retention policy is assigned to.
type RetentionAssignmentType string

// Retention assignment targets.
const (
	// RetentionAssignmentTypeEnterprise covers every file of the enterprise (no id).
	RetentionAssignmentTypeEnterprise RetentionAssignmentType = "enterprise"
	// RetentionAssignmentTypeFolder covers a folder and everything below it.
	RetentionAssignmentTypeFolder RetentionAssignmentType = "folder"
	// RetentionAssignmentTypeMetadataTemplate covers the files carrying a metadata
	// template (optionally with one field value).
	RetentionAssignmentTypeMetadataTemplate RetentionAssignmentType = "metadata_template"
)

// StartDateUploadDate is the default start_date_field of a metadata
// template assignment: retention counts from the upload.
const StartDateUploadDate = "upload_date"

// RetentionAssignTo names the target of an assignment. ID is empty for the
// enterprise (sent as null).
type RetentionAssignTo struct {
	Type RetentionAssignmentType `json:"type"`
	ID   string                  `json:"id,omitzero"`
}

// UnmarshalJSON accepts a null id.
func (a *RetentionAssignTo) UnmarshalJSON(b []byte) error {
	var w struct {
		Type RetentionAssignmentType `json:"type"`
		ID   flexString              `json:"id"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*a = RetentionAssignTo{Type: w.Type, ID: string(w.ID)}
	return nil
}

// MetadataFilterField restricts a metadata template assignment to files
// whose field (a key id) has a value (an enum or multiSelect option id).
type MetadataFilterField struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// RetentionPolicyAssignment is a retention policy assignment.
type RetentionPolicyAssignment struct {
	ID              string                `json:"id"`
	Type            string                `json:"type,omitzero"`
	RetentionPolicy *RetentionPolicyMini  `json:"retention_policy,omitzero"`
	AssignedTo      RetentionAssignTo     `json:"assigned_to,omitzero"`
	FilterFields    []MetadataFilterField `json:"filter_fields,omitzero"`
	AssignedBy      *UserMini             `json:"assigned_by,omitzero"`
	AssignedAt      time.Time             `json:"assigned_at,omitzero"`
	StartDateField  string                `json:"start_date_field,omitzero"`
}

// CreateRetentionPolicyAssignmentRequest is the body of
// RetentionPolicyAssignmentsService.Create.
type CreateRetentionPolicyAssignmentRequest struct {
	PolicyID string            `json:"policy_id"`
	AssignTo RetentionAssignTo `json:"assign_to"`
	// FilterFields (one at most) and StartDateField are for metadata
	// template assignments only.
	FilterFields   []MetadataFilterField `json:"filter_fields,omitzero"`
	StartDateField string                `json:"start_date_field,omitzero"`
}

func (b *CreateRetentionPolicyAssignmentRequest) validate() error {
	if b == nil {
		return invalidArg("request", "nil")
	}
	if err := checkID("retention policy", b.PolicyID); err != nil {
		return err
	}
	switch b.AssignTo.Type {
	case RetentionAssignmentTypeEnterprise:
		if b.AssignTo.ID != "" {
			return invalidArg("assign_to.id", "must be empty for the enterprise")
		}
	case RetentionAssignmentTypeFolder, RetentionAssignmentTypeMetadataTemplate:
		if b.AssignTo.ID == "" {
			return invalidArg("assign_to.id", "empty")
		}
	default:
		return invalidArg("assign_to.type", "must be enterprise, folder or metadata_template")
	}
	if b.AssignTo.Type != RetentionAssignmentTypeMetadataTemplate && (len(b.FilterFields) > 0 || b.StartDateField != "") {
		return invalidArg("filter_fields/start_date_field", "only for a metadata_template assignment")
	}
	if len(b.FilterFields) > 1 {
		return invalidArg("filter_fields", "one field at most")
	}
	return nil
}

// Create assigns a retention policy (POST /retention_policy_assignments).
// Every file version it covers is retained at once. A policy of equal or
// greater length already on the target answers 409 (ErrConflict).
func (s *RetentionPolicyAssignmentsService) Create(ctx context.Context, body *CreateRetentionPolicyAssignmentRequest) (*RetentionPolicyAssignment, *Response, error) {
	if err := body.validate(); err != nil {
		return nil, nil, err
	}
	return callAPI[RetentionPolicyAssignment](ctx, s.client, http.MethodPost, body, nil, "retention_policy_assignments")
}

// Get fetches an assignment
// (GET /retention_policy_assignments/{retention_policy_assignment_id}).
func (s *RetentionPolicyAssignmentsService) Get(ctx context.Context, assignmentID string, opts *FieldsOptions) (*RetentionPolicyAssignment, *Response, error) {
	if err := checkID("retention policy assignment", assignmentID); err != nil {
		return nil, nil, err
	}
	return getAPI[RetentionPolicyAssignment](ctx, s.client, opts, "retention_policy_assignments", assignmentID)
}

// Delete removes an assignment of a modifiable policy, lifting the
// retention it alone gave (DELETE
// /retention_policy_assignments/{retention_policy_assignment_id}); one of a
// non-modifiable policy answers 403 (ErrForbidden).
func (s *RetentionPolicyAssignmentsService) Delete(ctx context.Context, assignmentID string) (*Response, error) {
	if err := checkID("retention policy assignment", assignmentID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "retention_policy_assignments", assignmentID)
}

// ListRetentionPolicyAssignmentsOptions are the options of
// RetentionPolicyAssignmentsService.ListByPolicy.
type ListRetentionPolicyAssignmentsOptions struct {
	// Type keeps the assignments of one target type.
	Type RetentionAssignmentType `url:"type,omitempty"`
	// Fields selects the fields of each assignment.
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is where to start (a NextMarker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
}

// ListByPolicy returns one page of a policy's assignments, marker-paged
// (GET /retention_policies/{retention_policy_id}/assignments).
func (s *RetentionPolicyAssignmentsService) ListByPolicy(ctx context.Context, policyID string, opts *ListRetentionPolicyAssignmentsOptions) (*MarkerPage[*RetentionPolicyAssignment], *Response, error) {
	if err := checkID("retention policy", policyID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListRetentionPolicyAssignmentsOptions{}
	}
	if err := checkEnum("type", opts.Type, RetentionAssignmentTypeEnterprise, RetentionAssignmentTypeFolder, RetentionAssignmentTypeMetadataTemplate); err != nil {
		return nil, nil, err
	}
	return getMarkerPage[*RetentionPolicyAssignment](ctx, s.client, opts.Limit, opts, "retention_policies", policyID, "assignments")
}

// ListByPolicyIter yields every assignment of a policy, fetching marker
// pages (GET /retention_policies/{retention_policy_id}/assignments) lazily.
// It never changes opts.
func (s *RetentionPolicyAssignmentsService) ListByPolicyIter(ctx context.Context, policyID string, opts *ListRetentionPolicyAssignmentsOptions) iter.Seq2[*RetentionPolicyAssignment, error] {
	start, fetch := s.byPolicyPages(policyID, opts)
	return markerSeq(ctx, start, fetch)
}

// NewListByPolicyPaginator walks a policy's assignments one marker page at
// a time (GET /retention_policies/{retention_policy_id}/assignments). It
// never changes opts.
func (s *RetentionPolicyAssignmentsService) NewListByPolicyPaginator(policyID string, opts *ListRetentionPolicyAssignmentsOptions) *MarkerPaginator[*RetentionPolicyAssignment] {
	return newMarkerPaginator(s.byPolicyPages(policyID, opts))
}

// byPolicyPages pages ListByPolicy with a private copy of opts.
func (s *RetentionPolicyAssignmentsService) byPolicyPages(policyID string, opts *ListRetentionPolicyAssignmentsOptions) (string, markerPageFunc[*RetentionPolicyAssignment]) {
	return pageFuncs(opts, func(o *ListRetentionPolicyAssignmentsOptions) *string { return &o.Marker },
		func(ctx context.Context, o *ListRetentionPolicyAssignmentsOptions) (*MarkerPage[*RetentionPolicyAssignment], *Response, error) {
			return s.ListByPolicy(ctx, policyID, o)
		})
}

// ListFilesUnderRetention returns one page of the files whose current
// version an assignment retains (GET
// /retention_policy_assignments/{retention_policy_assignment_id}/files_under_retention).
func (s *RetentionPolicyAssignmentsService) ListFilesUnderRetention(ctx context.Context, assignmentID string, opts *GovernancePageOptions) (*MarkerPage[*FileMini], *Response, error) {
	return s.retained(ctx, assignmentID, "files_under_retention", opts)
}

// ListFilesUnderRetentionIter yields every file whose current version an
// assignment retains, fetching marker pages (GET
// /retention_policy_assignments/{retention_policy_assignment_id}/files_under_retention)
// lazily as the loop advances. It never changes opts.
func (s *RetentionPolicyAssignmentsService) ListFilesUnderRetentionIter(ctx context.Context, assignmentID string, opts *GovernancePageOptions) iter.Seq2[*FileMini, error] {
	return s.retainedIter(ctx, assignmentID, "files_under_retention", opts)
}

// ListFileVersionsUnderRetention returns one page of the earlier (not
// current) file versions an assignment retains, each as its file's mini
// record whose FileVersion is the retained version (GET
// /retention_policy_assignments/{retention_policy_assignment_id}/file_versions_under_retention).
// The official SDKs lack this endpoint.
func (s *RetentionPolicyAssignmentsService) ListFileVersionsUnderRetention(ctx context.Context, assignmentID string, opts *GovernancePageOptions) (*MarkerPage[*FileMini], *Response, error) {
	return s.retained(ctx, assignmentID, "file_versions_under_retention", opts)
}

// ListFileVersionsUnderRetentionIter yields every earlier file version an
// assignment retains (as its file's mini record), fetching marker pages (GET
// /retention_policy_assignments/{retention_policy_assignment_id}/file_versions_under_retention)
// lazily as the loop advances. It never changes opts.
func (s *RetentionPolicyAssignmentsService) ListFileVersionsUnderRetentionIter(ctx context.Context, assignmentID string, opts *GovernancePageOptions) iter.Seq2[*FileMini, error] {
	return s.retainedIter(ctx, assignmentID, "file_versions_under_retention", opts)
}

func (s *RetentionPolicyAssignmentsService) retained(ctx context.Context, assignmentID, what string, opts *GovernancePageOptions) (*MarkerPage[*FileMini], *Response, error) {
	if err := checkID("retention policy assignment", assignmentID); err != nil {
		return nil, nil, err
	}
	o := cloneOptions(opts)
	return getMarkerPage[*FileMini](ctx, s.client, o.Limit, &o, "retention_policy_assignments", assignmentID, what)
}

func (s *RetentionPolicyAssignmentsService) retainedIter(ctx context.Context, assignmentID, what string, opts *GovernancePageOptions) iter.Seq2[*FileMini, error] {
	start, fetch := s.retainedPages(assignmentID, what, opts)
	return markerSeq(ctx, start, fetch)
}

// retainedPages pages what an assignment retains with a private copy of
// opts.
func (s *RetentionPolicyAssignmentsService) retainedPages(assignmentID, what string, opts *GovernancePageOptions) (string, markerPageFunc[*FileMini]) {
	return pageFuncs(opts, func(o *GovernancePageOptions) *string { return &o.Marker },
		func(ctx context.Context, o *GovernancePageOptions) (*MarkerPage[*FileMini], *Response, error) {
			return s.retained(ctx, assignmentID, what, o)
		})
}

// NewListFilesUnderRetentionPaginator walks the files an assignment retains
// one marker page at a time (GET
// /retention_policy_assignments/{retention_policy_assignment_id}/files_under_retention).
// It never changes opts.
func (s *RetentionPolicyAssignmentsService) NewListFilesUnderRetentionPaginator(assignmentID string, opts *GovernancePageOptions) *MarkerPaginator[*FileMini] {
	return newMarkerPaginator(s.retainedPages(assignmentID, "files_under_retention", opts))
}

// NewListFileVersionsUnderRetentionPaginator walks the earlier file versions
// an assignment retains one marker page at a time (GET
// /retention_policy_assignments/{retention_policy_assignment_id}/file_versions_under_retention).
// It never changes opts.
func (s *RetentionPolicyAssignmentsService) NewListFileVersionsUnderRetentionPaginator(assignmentID string, opts *GovernancePageOptions) *MarkerPaginator[*FileMini] {
	return newMarkerPaginator(s.retainedPages(assignmentID, "file_versions_under_retention", opts))
}
