package cms

import (
	"context"
	"iter"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"
)

// RetentionPoliciesService handles retention policies (/retention_policies):
// rules that keep file versions from being deleted for good for a number of
// days, or indefinitely. Only an enterprise admin may use it.
type RetentionPoliciesService service

// RetentionPolicyType says whether a policy retains for a known time.
type RetentionPolicyType string

// Retention policy types.
const (
	RetentionPolicyTypeFinite     RetentionPolicyType = "finite"
	RetentionPolicyTypeIndefinite RetentionPolicyType = "indefinite"
)

// DispositionAction is what happens when retention ends.
type DispositionAction string

// Disposition actions.
const (
	// DispositionActionPermanentlyDelete deletes the retained content for good.
	DispositionActionPermanentlyDelete DispositionAction = "permanently_delete"
	// DispositionActionRemoveRetention lifts the retention, so users may delete it.
	DispositionActionRemoveRetention DispositionAction = "remove_retention"
)

// RetentionType says how far a policy may be changed.
type RetentionType string

// Retention types.
const (
	// RetentionTypeModifiable policies may be changed in every way.
	RetentionTypeModifiable RetentionType = "modifiable"
	// RetentionTypeNonModifiable policies may only be lengthened, retired, or
	// have their disposition or notifications changed; neither they nor
	// their assignments can be deleted, and they never become modifiable.
	RetentionTypeNonModifiable RetentionType = "non_modifiable"
)

// RetentionPolicyStatus is active until a policy is retired, for good.
type RetentionPolicyStatus string

// Retention policy statuses.
const (
	RetentionPolicyStatusActive  RetentionPolicyStatus = "active"
	RetentionPolicyStatusRetired RetentionPolicyStatus = "retired"
)

const maxRetentionDescription = 500

// RetentionLength is how long a policy retains: a number of days, or
// indefinitely. The service sends it as a string ("365" or "indefinite")
// and takes a string or a number; it decodes from all of them. The zero
// value is "not set".
type RetentionLength struct {
	days       int
	indefinite bool
}

// RetentionDays is a retention of n days.
func RetentionDays(n int) RetentionLength { return RetentionLength{days: n} }

// RetentionForever is an indefinite retention ("indefinite" on the wire).
func RetentionForever() RetentionLength { return RetentionLength{indefinite: true} }

// Days returns the number of days (0 when indefinite or not set).
func (l RetentionLength) Days() int { return l.days }

// IsIndefinite reports an indefinite retention.
func (l RetentionLength) IsIndefinite() bool { return l.indefinite }

// IsZero reports a length that is not set (omitted from requests).
func (l RetentionLength) IsZero() bool { return l.days == 0 && !l.indefinite }

// String is "365" or "indefinite" ("" when not set).
func (l RetentionLength) String() string {
	switch {
	case l.indefinite:
		return string(RetentionPolicyTypeIndefinite)
	case l.days == 0:
		return ""
	}
	return strconv.Itoa(l.days)
}

// MarshalJSON sends days as a number and indefinite as "indefinite".
func (l RetentionLength) MarshalJSON() ([]byte, error) {
	if l.indefinite {
		return []byte(`"indefinite"`), nil
	}
	return []byte(strconv.Itoa(l.days)), nil
}

// UnmarshalJSON reads a number, a string of digits or "indefinite".
func (l *RetentionLength) UnmarshalJSON(b []byte) error {
	days, word, err := decodeDays(b, string(RetentionPolicyTypeIndefinite))
	if err != nil {
		return err
	}
	*l = RetentionLength{days: days, indefinite: word}
	return nil
}

// MaxExtensionLength is how many days owners may extend a retention, or
// "none". The zero value is "not set".
type MaxExtensionLength struct {
	days int
	none bool
}

// ExtensionDays allows extending a retention by up to n days.
func ExtensionDays(n int) MaxExtensionLength { return MaxExtensionLength{days: n} }

// NoExtension allows no extension ("none" on the wire).
func NoExtension() MaxExtensionLength { return MaxExtensionLength{none: true} }

// Days returns the number of days (0 for none or not set).
func (l MaxExtensionLength) Days() int { return l.days }

// IsNone reports "none".
func (l MaxExtensionLength) IsNone() bool { return l.none }

// IsZero reports a length that is not set (omitted from requests).
func (l MaxExtensionLength) IsZero() bool { return l.days == 0 && !l.none }

// MarshalJSON sends days as a number and none as "none".
func (l MaxExtensionLength) MarshalJSON() ([]byte, error) {
	if l.none {
		return []byte(`"none"`), nil
	}
	return []byte(strconv.Itoa(l.days)), nil
}

// UnmarshalJSON reads a number, a string of digits or "none".
func (l *MaxExtensionLength) UnmarshalJSON(b []byte) error {
	days, word, err := decodeDays(b, "none")
	if err != nil {
		return err
	}
	*l = MaxExtensionLength{days: days, none: word}
	return nil
}

// RetentionPolicyMini is the short form of a retention policy
// (RetentionPolicy--Mini).
type RetentionPolicyMini struct {
	ID                 string             `json:"id"`
	Type               string             `json:"type,omitzero"`
	PolicyName         string             `json:"policy_name,omitzero"`
	RetentionLength    RetentionLength    `json:"retention_length,omitzero"`
	DispositionAction  DispositionAction  `json:"disposition_action,omitzero"`
	MaxExtensionLength MaxExtensionLength `json:"max_extension_length,omitzero"`
}

// RetentionAssignmentCounts counts a policy's assignments by target type.
type RetentionAssignmentCounts struct {
	Enterprise       int `json:"enterprise"`
	Folder           int `json:"folder"`
	MetadataTemplate int `json:"metadata_template"`
}

// RetentionPolicy is a retention policy (RetentionPolicy).
type RetentionPolicy struct {
	RetentionPolicyMini
	Description                  string                     `json:"description,omitzero"`
	PolicyType                   RetentionPolicyType        `json:"policy_type,omitzero"`
	RetentionType                RetentionType              `json:"retention_type,omitzero"`
	Status                       RetentionPolicyStatus      `json:"status,omitzero"`
	CreatedBy                    *UserMini                  `json:"created_by,omitzero"`
	CreatedAt                    time.Time                  `json:"created_at,omitzero"`
	ModifiedAt                   time.Time                  `json:"modified_at,omitzero"`
	CanOwnerExtendRetention      bool                       `json:"can_owner_extend_retention,omitzero"`
	AreOwnersNotified            bool                       `json:"are_owners_notified,omitzero"`
	CustomNotificationRecipients []*UserMini                `json:"custom_notification_recipients,omitzero"`
	AssignmentCounts             *RetentionAssignmentCounts `json:"assignment_counts,omitzero"`
}

// CreateRetentionPolicyRequest is the body of RetentionPoliciesService.Create.
type CreateRetentionPolicyRequest struct {
	// PolicyName is required and unique in the enterprise (409 otherwise).
	PolicyName string `json:"policy_name"`
	// Description is at most 500 characters.
	Description string `json:"description,omitzero"`
	// PolicyType is required: finite (with RetentionLength) or indefinite.
	PolicyType RetentionPolicyType `json:"policy_type"`
	// DispositionAction is required.
	DispositionAction DispositionAction `json:"disposition_action"`
	// RetentionLength is required for a finite policy (RetentionDays);
	// leave it unset (or RetentionForever()) for an indefinite one.
	RetentionLength RetentionLength `json:"retention_length,omitzero"`
	// RetentionType is modifiable when unset.
	RetentionType RetentionType `json:"retention_type,omitzero"`
	// CanOwnerExtendRetention lets owners extend the retention.
	CanOwnerExtendRetention bool `json:"can_owner_extend_retention,omitzero"`
	// MaxExtensionLength is allowed only for a finite policy that deletes.
	MaxExtensionLength MaxExtensionLength `json:"max_extension_length,omitzero"`
	// AreOwnersNotified notifies owners when retention nears its end.
	AreOwnersNotified bool `json:"are_owners_notified,omitzero"`
	// CustomNotificationRecipients are notified too (only ID is needed).
	CustomNotificationRecipients []*UserMini `json:"custom_notification_recipients,omitzero"`
}

func (b *CreateRetentionPolicyRequest) validate() error {
	switch {
	case b == nil:
		return invalidArg("request", "nil")
	case b.PolicyName == "":
		return invalidArg("policy_name", "empty")
	case b.PolicyType != RetentionPolicyTypeFinite && b.PolicyType != RetentionPolicyTypeIndefinite:
		return invalidArg("policy_type", "must be finite or indefinite")
	case b.DispositionAction != DispositionActionPermanentlyDelete && b.DispositionAction != DispositionActionRemoveRetention:
		return invalidArg("disposition_action", "must be permanently_delete or remove_retention")
	case b.PolicyType == RetentionPolicyTypeFinite && (b.RetentionLength.days < 1 || b.RetentionLength.indefinite):
		return invalidArg("retention_length", "a finite policy needs RetentionDays(n), n >= 1")
	case b.PolicyType == RetentionPolicyTypeIndefinite && b.RetentionLength.days != 0:
		return invalidArg("retention_length", "an indefinite policy has no number of days")
	case b.RetentionType != "" && b.RetentionType != RetentionTypeModifiable && b.RetentionType != RetentionTypeNonModifiable:
		return invalidArg("retention_type", "must be modifiable or non_modifiable")
	case utf8.RuneCountInString(b.Description) > maxRetentionDescription:
		return invalidArg("description", "longer than 500 characters")
	case b.MaxExtensionLength.days > 0 && (b.PolicyType != RetentionPolicyTypeFinite || b.DispositionAction != DispositionActionPermanentlyDelete):
		return invalidArg("max_extension_length", "only for a finite policy with disposition permanently_delete")
	}
	return nil
}

// Create creates a retention policy (POST /retention_policies). A name
// already used fails with an *APIError matching ErrConflict.
func (s *RetentionPoliciesService) Create(ctx context.Context, body *CreateRetentionPolicyRequest) (*RetentionPolicy, *Response, error) {
	if err := body.validate(); err != nil {
		return nil, nil, err
	}
	return callAPI[RetentionPolicy](ctx, s.client, http.MethodPost, body, nil, "retention_policies")
}

// Get fetches a retention policy (GET /retention_policies/{retention_policy_id}).
func (s *RetentionPoliciesService) Get(ctx context.Context, policyID string, opts *FieldsOptions) (*RetentionPolicy, *Response, error) {
	if err := checkID("retention policy", policyID); err != nil {
		return nil, nil, err
	}
	return getAPI[RetentionPolicy](ctx, s.client, opts, "retention_policies", policyID)
}

// ListRetentionPoliciesOptions are the options of RetentionPoliciesService.List.
type ListRetentionPoliciesOptions struct {
	// PolicyName keeps the policies whose name starts with it (case-sensitive).
	PolicyName string `url:"policy_name,omitempty"`
	// PolicyType keeps the policies of one type.
	PolicyType RetentionPolicyType `url:"policy_type,omitempty"`
	// CreatedByUserID keeps the policies a user created.
	CreatedByUserID string `url:"created_by_user_id,omitempty"`
	// Fields selects the fields of each policy.
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is where to start (a NextMarker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
}

// List returns one page of retention policies, marker-paged
// (GET /retention_policies).
func (s *RetentionPoliciesService) List(ctx context.Context, opts *ListRetentionPoliciesOptions) (*MarkerPage[*RetentionPolicy], *Response, error) {
	if opts == nil {
		opts = &ListRetentionPoliciesOptions{}
	}
	if err := checkEnum("policy_type", opts.PolicyType, RetentionPolicyTypeFinite, RetentionPolicyTypeIndefinite); err != nil {
		return nil, nil, err
	}
	if opts.CreatedByUserID != "" {
		if err := checkID("created_by user", opts.CreatedByUserID); err != nil {
			return nil, nil, err
		}
	}
	return getMarkerPage[*RetentionPolicy](ctx, s.client, opts.Limit, opts, "retention_policies")
}

// ListIter yields every retention policy, fetching marker pages
// (GET /retention_policies) lazily. It starts at opts.Marker and never
// changes opts.
func (s *RetentionPoliciesService) ListIter(ctx context.Context, opts *ListRetentionPoliciesOptions) iter.Seq2[*RetentionPolicy, error] {
	start, fetch := pageFuncs(opts, func(o *ListRetentionPoliciesOptions) *string { return &o.Marker }, s.List)
	return markerSeq(ctx, start, fetch)
}

// NewListPaginator walks the retention policies one marker page at a time
// (GET /retention_policies). It never changes opts.
func (s *RetentionPoliciesService) NewListPaginator(opts *ListRetentionPoliciesOptions) *MarkerPaginator[*RetentionPolicy] {
	return newMarkerPaginator(pageFuncs(opts, func(o *ListRetentionPoliciesOptions) *string { return &o.Marker }, s.List))
}

// UpdateRetentionPolicyRequest is the body of RetentionPoliciesService.Update.
// Fields left zero (nil) are not sent and keep their value. The service
// reads an explicit null as "no change" for most fields, so only the two
// whose null means something are Nullable: Description and
// CustomNotificationRecipients, which Null (cms.Null) clears.
type UpdateRetentionPolicyRequest struct {
	PolicyName string `json:"policy_name,omitzero"`
	// Description is at most 500 characters; Null or Set("") clears it.
	Description       Nullable[string]  `json:"description,omitzero"`
	DispositionAction DispositionAction `json:"disposition_action,omitzero"`
	// RetentionType can only be set to RetentionTypeNonModifiable (one-way).
	RetentionType RetentionType `json:"retention_type,omitzero"`
	// RetentionLength lengthens or shortens a finite policy (a
	// non-modifiable one can only be lengthened: 403 otherwise).
	RetentionLength RetentionLength `json:"retention_length,omitzero"`
	// Status can only be set to RetentionPolicyStatusRetired (one-way); see Retire.
	Status RetentionPolicyStatus `json:"status,omitzero"`
	// CanOwnerExtendRetention and AreOwnersNotified are pointers so that
	// false can be sent (cms.Ptr(false)).
	CanOwnerExtendRetention *bool              `json:"can_owner_extend_retention,omitempty"`
	MaxExtensionLength      MaxExtensionLength `json:"max_extension_length,omitzero"`
	AreOwnersNotified       *bool              `json:"are_owners_notified,omitempty"`
	// CustomNotificationRecipients replaces the list (only ID is needed);
	// Null empties it.
	CustomNotificationRecipients Nullable[[]*UserMini] `json:"custom_notification_recipients,omitzero"`
}

func (b *UpdateRetentionPolicyRequest) validate() error {
	if b == nil {
		return invalidArg("request", "nil")
	}
	if b.RetentionType != "" && b.RetentionType != RetentionTypeNonModifiable {
		return invalidArg("retention_type", "can only become non_modifiable")
	}
	if b.Status != "" && b.Status != RetentionPolicyStatusRetired {
		return invalidArg("status", "can only become retired")
	}
	switch b.DispositionAction {
	case "", DispositionActionPermanentlyDelete, DispositionActionRemoveRetention:
	default:
		return invalidArg("disposition_action", "must be permanently_delete or remove_retention")
	}
	if v, ok := b.Description.Get(); ok && utf8.RuneCountInString(v) > maxRetentionDescription {
		return invalidArg("description", "longer than 500 characters")
	}
	return nil
}

// Update changes a retention policy (PUT /retention_policies/{retention_policy_id}).
// The rules of non-modifiable policies answer 403 (ErrForbidden).
func (s *RetentionPoliciesService) Update(ctx context.Context, policyID string, body *UpdateRetentionPolicyRequest) (*RetentionPolicy, *Response, error) {
	if err := checkID("retention policy", policyID); err != nil {
		return nil, nil, err
	}
	if err := body.validate(); err != nil {
		return nil, nil, err
	}
	return callAPI[RetentionPolicy](ctx, s.client, http.MethodPut, body, nil, "retention_policies", policyID)
}

// Retire retires a retention policy for good: it applies to no new content
// (PUT /retention_policies/{retention_policy_id} with status retired).
func (s *RetentionPoliciesService) Retire(ctx context.Context, policyID string) (*RetentionPolicy, *Response, error) {
	return s.Update(ctx, policyID, &UpdateRetentionPolicyRequest{Status: RetentionPolicyStatusRetired})
}

// Delete deletes a modifiable retention policy and its assignments
// (DELETE /retention_policies/{retention_policy_id}); a non-modifiable one
// answers 403 (ErrForbidden).
func (s *RetentionPoliciesService) Delete(ctx context.Context, policyID string) (*Response, error) {
	if err := checkID("retention policy", policyID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "retention_policies", policyID)
}
