package cms

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"time"
	"unicode/utf8"
)

// LegalHoldPoliciesService handles legal hold policies
// (/legal_hold_policies): freezes of content for litigation. Only an
// enterprise admin may use it.
type LegalHoldPoliciesService service

// LegalHoldPolicyStatus is where a policy is in its lifecycle: applying,
// then active; after Delete, releasing, then released.
type LegalHoldPolicyStatus string

// Legal hold policy statuses.
const (
	LegalHoldPolicyStatusApplying  LegalHoldPolicyStatus = "applying"
	LegalHoldPolicyStatusActive    LegalHoldPolicyStatus = "active"
	LegalHoldPolicyStatusReleasing LegalHoldPolicyStatus = "releasing"
	LegalHoldPolicyStatusReleased  LegalHoldPolicyStatus = "released"
)

const (
	maxLegalHoldName = 254
	maxLegalHoldText = 500
)

// LegalHoldAssignmentCounts counts a policy's assignments by target type
// (User counts "user" custodian assignments).
type LegalHoldAssignmentCounts struct {
	User         int `json:"user"`
	Folder       int `json:"folder"`
	File         int `json:"file"`
	FileVersion  int `json:"file_version"`
	Ownership    int `json:"ownership"`
	Interactions int `json:"interactions"`
}

// LegalHoldPolicy is a legal hold policy.
type LegalHoldPolicy struct {
	ID               string                     `json:"id"`
	Type             string                     `json:"type,omitzero"`
	PolicyName       string                     `json:"policy_name,omitzero"`
	Description      string                     `json:"description,omitzero"`
	Status           LegalHoldPolicyStatus      `json:"status,omitzero"`
	AssignmentCounts *LegalHoldAssignmentCounts `json:"assignment_counts,omitzero"`
	CreatedBy        *UserMini                  `json:"created_by,omitzero"`
	CreatedAt        time.Time                  `json:"created_at,omitzero"`
	ModifiedAt       time.Time                  `json:"modified_at,omitzero"`
	// DeletedAt is when the release was asked for (zero if it was not).
	DeletedAt       time.Time `json:"deleted_at,omitzero"`
	FilterStartedAt time.Time `json:"filter_started_at,omitzero"`
	FilterEndedAt   time.Time `json:"filter_ended_at,omitzero"`
	ReleaseNotes    string    `json:"release_notes,omitzero"`
}

// CreateLegalHoldPolicyRequest is the body of LegalHoldPoliciesService.Create.
// Either IsOngoing or both filter dates are required.
type CreateLegalHoldPolicyRequest struct {
	// PolicyName is required, at most 254 characters, unique (409 otherwise).
	PolicyName string `json:"policy_name"`
	// Description is at most 500 characters.
	Description string `json:"description,omitzero"`
	// FilterStartedAt and FilterEndedAt limit custodian (user) assignments
	// to the versions created between them.
	FilterStartedAt time.Time `json:"filter_started_at,omitzero"`
	FilterEndedAt   time.Time `json:"filter_ended_at,omitzero"`
	// IsOngoing keeps holding new versions of what is assigned.
	IsOngoing bool `json:"is_ongoing,omitzero"`
}

func (b *CreateLegalHoldPolicyRequest) validate() error {
	switch {
	case b == nil:
		return invalidArg("request", "nil")
	case b.PolicyName == "":
		return invalidArg("policy_name", "empty")
	case utf8.RuneCountInString(b.PolicyName) > maxLegalHoldName:
		return invalidArg("policy_name", "longer than 254 characters")
	case utf8.RuneCountInString(b.Description) > maxLegalHoldText:
		return invalidArg("description", "longer than 500 characters")
	case b.FilterStartedAt.IsZero() != b.FilterEndedAt.IsZero():
		return invalidArg("filter dates", "give both or neither")
	case !b.IsOngoing && b.FilterStartedAt.IsZero():
		return invalidArg("is_ongoing", "set it, or give both filter dates")
	case b.FilterEndedAt.Before(b.FilterStartedAt):
		return invalidArg("filter dates", "start after end")
	}
	return nil
}

// Create creates a legal hold policy (POST /legal_hold_policies). It starts
// "applying"; WaitForStatus waits until it is active.
func (s *LegalHoldPoliciesService) Create(ctx context.Context, body *CreateLegalHoldPolicyRequest) (*LegalHoldPolicy, *Response, error) {
	if err := body.validate(); err != nil {
		return nil, nil, err
	}
	return callAPI[LegalHoldPolicy](ctx, s.client, http.MethodPost, body, nil, "legal_hold_policies")
}

// Get fetches a legal hold policy (GET /legal_hold_policies/{legal_hold_policy_id}).
func (s *LegalHoldPoliciesService) Get(ctx context.Context, policyID string) (*LegalHoldPolicy, *Response, error) {
	if err := checkID("legal hold policy", policyID); err != nil {
		return nil, nil, err
	}
	return getAPI[LegalHoldPolicy](ctx, s.client, nil, "legal_hold_policies", policyID)
}

// ListLegalHoldPoliciesOptions are the options of LegalHoldPoliciesService.List.
type ListLegalHoldPoliciesOptions struct {
	// PolicyName keeps the policies whose name starts with it (ignoring case).
	PolicyName string `url:"policy_name,omitempty"`
	// Fields selects the fields of each policy.
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is where to start (a NextMarker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
}

// List returns one page of legal hold policies, marker-paged
// (GET /legal_hold_policies).
func (s *LegalHoldPoliciesService) List(ctx context.Context, opts *ListLegalHoldPoliciesOptions) (*MarkerPage[*LegalHoldPolicy], *Response, error) {
	if opts == nil {
		opts = &ListLegalHoldPoliciesOptions{}
	}
	return getMarkerPage[*LegalHoldPolicy](ctx, s.client, opts.Limit, opts, "legal_hold_policies")
}

// ListIter yields every legal hold policy, fetching marker pages
// (GET /legal_hold_policies) lazily. It never changes opts.
func (s *LegalHoldPoliciesService) ListIter(ctx context.Context, opts *ListLegalHoldPoliciesOptions) iter.Seq2[*LegalHoldPolicy, error] {
	start, fetch := pageFuncs(opts, func(o *ListLegalHoldPoliciesOptions) *string { return &o.Marker }, s.List)
	return markerSeq(ctx, start, fetch)
}

// NewListPaginator walks the legal hold policies one marker page at a time
// (GET /legal_hold_policies). It never changes opts.
func (s *LegalHoldPoliciesService) NewListPaginator(opts *ListLegalHoldPoliciesOptions) *MarkerPaginator[*LegalHoldPolicy] {
	return newMarkerPaginator(pageFuncs(opts, func(o *ListLegalHoldPoliciesOptions) *string { return &o.Marker }, s.List))
}

// UpdateLegalHoldPolicyRequest is the body of LegalHoldPoliciesService.Update;
// empty fields are not sent.
type UpdateLegalHoldPolicyRequest struct {
	PolicyName string `json:"policy_name,omitzero"`
	// Description, when set, replaces the description; a pointer to ""
	// clears it (the service takes no null here). nil leaves it.
	Description  *string `json:"description,omitempty"`
	ReleaseNotes string  `json:"release_notes,omitzero"`
}

// Update changes a policy's name, description or release notes
// (PUT /legal_hold_policies/{legal_hold_policy_id}).
func (s *LegalHoldPoliciesService) Update(ctx context.Context, policyID string, body *UpdateLegalHoldPolicyRequest) (*LegalHoldPolicy, *Response, error) {
	if err := checkID("legal hold policy", policyID); err != nil {
		return nil, nil, err
	}
	switch {
	case body == nil:
		return nil, nil, invalidArg("request", "nil")
	case utf8.RuneCountInString(body.PolicyName) > maxLegalHoldName:
		return nil, nil, invalidArg("policy_name", "longer than 254 characters")
	case body.Description != nil && utf8.RuneCountInString(*body.Description) > maxLegalHoldText:
		return nil, nil, invalidArg("description", "longer than 500 characters")
	case utf8.RuneCountInString(body.ReleaseNotes) > maxLegalHoldText:
		return nil, nil, invalidArg("release_notes", "longer than 500 characters")
	}
	return callAPI[LegalHoldPolicy](ctx, s.client, http.MethodPut, body, nil, "legal_hold_policies", policyID)
}

// LegalHoldDeletion is the result of the two legal hold deletes,
// LegalHoldPoliciesService.Delete (a release) and
// LegalHoldPolicyAssignmentsService.Delete, which the service finishes in
// the background.
type LegalHoldDeletion struct {
	// Accepted is true when the service accepted the deletion and finishes
	// it later (202 Accepted, its documented answer): a policy is releasing
	// until it is released (WaitForStatus with LegalHoldPolicyStatusReleased), an
	// assignment keeps holding, with DeletedAt set, until it is gone
	// (WaitDeleted). False when the service answered that it is done
	// (another 2xx, such as 204).
	Accepted bool
}

// deleteLegalHold sends a legal hold delete and tells an accepted one from
// one already done.
func deleteLegalHold(ctx context.Context, c *Client, segments ...string) (*LegalHoldDeletion, *Response, error) {
	resp, err := deleteAPI(ctx, c, nil, segments...)
	if err != nil {
		return nil, resp, err
	}
	return &LegalHoldDeletion{Accepted: resp.StatusCode == http.StatusAccepted}, resp, nil
}

// Delete releases a legal hold policy (DELETE
// /legal_hold_policies/{legal_hold_policy_id}). The service accepts the
// request (202; LegalHoldDeletion.Accepted is true) and releases it in the
// background: the status goes releasing, then released, when the holds
// lift. Use WaitForStatus(ctx, id, LegalHoldPolicyStatusReleased, nil) to wait for it.
func (s *LegalHoldPoliciesService) Delete(ctx context.Context, policyID string) (*LegalHoldDeletion, *Response, error) {
	if err := checkID("legal hold policy", policyID); err != nil {
		return nil, nil, err
	}
	return deleteLegalHold(ctx, s.client, "legal_hold_policies", policyID)
}

// WaitForStatus reads a policy (GET /legal_hold_policies/{legal_hold_policy_id})
// every opts.Interval (default 1 s; negative is an *ArgError), waiting
// with the client's sleep hook, until it has the status want, and
// returns it. It stops with ctx, with an API error, or with an error
// matching ErrWaitStopped when want can no longer come (a policy being
// released never becomes active).
func (s *LegalHoldPoliciesService) WaitForStatus(ctx context.Context, policyID string, want LegalHoldPolicyStatus, opts *PollOptions) (*LegalHoldPolicy, *Response, error) {
	var p *LegalHoldPolicy
	var resp *Response
	err := s.client.poll(ctx, opts, func() (bool, error) {
		var err error
		p, resp, err = s.Get(ctx, policyID)
		if err != nil {
			return false, err
		}
		if p.Status == want {
			return true, nil
		}
		if (want == LegalHoldPolicyStatusApplying || want == LegalHoldPolicyStatusActive) && (p.Status == LegalHoldPolicyStatusReleasing || p.Status == LegalHoldPolicyStatusReleased) {
			return false, fmt.Errorf("%w: policy %s is %s, waiting for %s", ErrWaitStopped, policyID, p.Status, want)
		}
		return false, nil
	})
	if err != nil {
		return nil, resp, err
	}
	return p, resp, nil
}
