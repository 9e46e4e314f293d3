package cms

import (
	"context"
	"iter"
	"net/http"
)

// MetadataCascadePoliciesService manages metadata cascade policies
// (/metadata_cascade_policies): a policy copies a folder's instance of a
// template to every file and folder below it, those added later included.
// The policy cascades the folder's own instance of the template: the guides
// ask for the instance before the policy, and Apply, which copies it to the
// items already there, fails while the folder has none.
type MetadataCascadePoliciesService service

// MetadataCascadePolicyParent is the folder a cascade policy is on
// (parent).
type MetadataCascadePolicyParent struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
}

// MetadataCascadePolicy is a metadata cascade policy (MetadataCascadePolicy).
type MetadataCascadePolicy struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
	// OwnerEnterprise is the enterprise that owns the policy.
	OwnerEnterprise *Enterprise                  `json:"owner_enterprise,omitzero"`
	Parent          *MetadataCascadePolicyParent `json:"parent,omitzero"`
	// Scope and TemplateKey name the template cascaded; the service answers
	// with the full scope (global or enterprise_<id>).
	Scope       MetadataScope `json:"scope,omitzero"`
	TemplateKey string        `json:"templateKey,omitzero"`
}

// CreateMetadataCascadePolicyRequest is the body of
// MetadataCascadePoliciesService.Create.
type CreateMetadataCascadePolicyRequest struct {
	// FolderID is the folder (not the root), which should hold an
	// instance of the template.
	FolderID string `json:"folder_id"`
	// Scope is MetadataScopeGlobal or MetadataScopeEnterprise.
	Scope       MetadataScope `json:"scope"`
	TemplateKey string        `json:"templateKey"`
}

// Create puts a cascade policy on a folder (POST /metadata_cascade_policies;
// the service answers 201). A template the caller cannot see fails with an
// *APIError (404 instance_tuple_not_found); a second policy for the same
// template on the folder with one matching ErrTupleAlreadyExists (and
// ErrConflict). A POST is not retried blindly.
func (s *MetadataCascadePoliciesService) Create(ctx context.Context, body *CreateMetadataCascadePolicyRequest) (*MetadataCascadePolicy, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("folder", body.FolderID); err != nil {
		return nil, nil, err
	}
	if body.FolderID == "0" {
		return nil, nil, &ArgError{Arg: "folder id", Reason: "the root folder cannot hold a cascade policy", Err: ErrInvalidID}
	}
	if err := checkScopeKey(body.Scope, body.TemplateKey); err != nil {
		return nil, nil, err
	}
	return callAPI[MetadataCascadePolicy](ctx, s.client, http.MethodPost, body, nil, "metadata_cascade_policies")
}

// Get fetches a cascade policy
// (GET /metadata_cascade_policies/{metadata_cascade_policy_id}).
func (s *MetadataCascadePoliciesService) Get(ctx context.Context, policyID string) (*MetadataCascadePolicy, *Response, error) {
	if err := checkID("metadata cascade policy", policyID); err != nil {
		return nil, nil, err
	}
	return getAPI[MetadataCascadePolicy](ctx, s.client, nil, "metadata_cascade_policies", policyID)
}

// Delete removes a cascade policy
// (DELETE /metadata_cascade_policies/{metadata_cascade_policy_id}). The
// instances it copied stay.
func (s *MetadataCascadePoliciesService) Delete(ctx context.Context, policyID string) (*Response, error) {
	if err := checkID("metadata cascade policy", policyID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "metadata_cascade_policies", policyID)
}

// ListMetadataCascadePoliciesOptions are the options of
// MetadataCascadePoliciesService.ListByFolder.
type ListMetadataCascadePoliciesOptions struct {
	// OwnerEnterpriseID lists the policies of another enterprise than the
	// caller's.
	OwnerEnterpriseID string `url:"owner_enterprise_id,omitempty"`
	// Marker resumes the list where an earlier page ended.
	Marker string `url:"marker,omitempty"`
	// Offset starts the list at an offset instead (at most 10000).
	Offset int `url:"offset,omitempty"`
}

// cascadePoliciesQuery is the query of GET /metadata_cascade_policies.
type cascadePoliciesQuery struct {
	FolderID string `url:"folder_id"`
	*ListMetadataCascadePoliciesOptions
}

// ListByFolder returns one marker page of the cascade policies of a folder
// (GET /metadata_cascade_policies?folder_id=). The root folder has none.
func (s *MetadataCascadePoliciesService) ListByFolder(ctx context.Context, folderID string, opts *ListMetadataCascadePoliciesOptions) (*MarkerPage[*MetadataCascadePolicy], *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if folderID == "0" {
		return nil, nil, &ArgError{Arg: "folder id", Reason: "the root folder holds no cascade policy", Err: ErrInvalidID}
	}
	if opts == nil {
		opts = &ListMetadataCascadePoliciesOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, 0); err != nil {
		return nil, nil, err
	}
	if opts.OwnerEnterpriseID != "" {
		if err := checkID("owner enterprise", opts.OwnerEnterpriseID); err != nil {
			return nil, nil, err
		}
	}
	return getMarkerPage[*MetadataCascadePolicy](ctx, s.client, 0, cascadePoliciesQuery{folderID, opts}, "metadata_cascade_policies")
}

// listByFolderPages pages ListByFolder with a private copy of opts.
func (s *MetadataCascadePoliciesService) listByFolderPages(folderID string, opts *ListMetadataCascadePoliciesOptions) (string, markerPageFunc[*MetadataCascadePolicy]) {
	return pageFuncs(opts, func(o *ListMetadataCascadePoliciesOptions) *string { return &o.Marker },
		func(ctx context.Context, o *ListMetadataCascadePoliciesOptions) (*MarkerPage[*MetadataCascadePolicy], *Response, error) {
			return s.ListByFolder(ctx, folderID, o)
		})
}

// ListByFolderIter yields every cascade policy of a folder, fetching marker
// pages (GET /metadata_cascade_policies) lazily. It never changes opts.
func (s *MetadataCascadePoliciesService) ListByFolderIter(ctx context.Context, folderID string, opts *ListMetadataCascadePoliciesOptions) iter.Seq2[*MetadataCascadePolicy, error] {
	start, fetch := s.listByFolderPages(folderID, opts)
	return markerSeq(ctx, start, fetch)
}

// NewListByFolderPaginator walks the cascade policies of a folder one
// marker page at a time (GET /metadata_cascade_policies). It never changes
// opts.
func (s *MetadataCascadePoliciesService) NewListByFolderPaginator(folderID string, opts *ListMetadataCascadePoliciesOptions) *MarkerPaginator[*MetadataCascadePolicy] {
	return newMarkerPaginator(s.listByFolderPages(folderID, opts))
}

// ConflictResolution says what Apply does with an item that already has an
// instance of the policy's template (conflict_resolution).
type ConflictResolution string

// Conflict resolutions of a force-apply.
const (
	// ConflictResolutionNone keeps the item's own values.
	ConflictResolutionNone ConflictResolution = "none"
	// ConflictResolutionOverwrite replaces them with the folder's.
	ConflictResolutionOverwrite ConflictResolution = "overwrite"
)

// applyCascadePolicyRequest is the body of the force-apply.
type applyCascadePolicyRequest struct {
	ConflictResolution ConflictResolution `json:"conflict_resolution"`
}

// Apply copies the folder's instance to every item already below it
// (POST /metadata_cascade_policies/{metadata_cascade_policy_id}/apply; the
// service answers 202 and works in the background). resolution says what
// happens to items that already have an instance (required). A folder
// without an instance of the template fails with an *APIError. Applying
// again is harmless, so the call is retried as an idempotent one.
func (s *MetadataCascadePoliciesService) Apply(ctx context.Context, policyID string, resolution ConflictResolution) (*Response, error) {
	if err := checkID("metadata cascade policy", policyID); err != nil {
		return nil, err
	}
	if resolution == "" {
		return nil, invalidArg("conflict resolution", "empty")
	}
	if err := checkEnum("conflict resolution", resolution, ConflictResolutionNone, ConflictResolutionOverwrite); err != nil {
		return nil, err
	}
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	r, err := s.client.apiRequest(http.MethodPost, &applyCascadePolicyRequest{resolution}, nil, []string{"metadata_cascade_policies", policyID, "apply"})
	if err != nil {
		return nil, err
	}
	return s.client.do(WithIdempotent(ctx), r, nil)
}
