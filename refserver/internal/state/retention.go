package state

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Retention policies (this file), their assignments
// (retention_assignments.go) and the file version retentions they create
// (retention_versions.go). Only the enterprise admin may use them.
//
// Rules: a policy is finite (retention_length in days) or indefinite; a
// non_modifiable policy may only be lengthened, retired, or have its
// disposition and notifications changed (403 otherwise), and neither it nor
// its assignments can be deleted. Retiring is one-way. A retired policy
// stops applying to new content, but what it already retains stays retained
// until its disposition date: retiring is allowed for non_modifiable
// policies, so it cannot be a way around them. A version under retention
// cannot be deleted for good before its disposition date.

// retentionState is the server's state for retention policies, assignments
// and file version retentions, guarded by Server.mu.
type retentionState struct {
	Policies    map[string]*RetentionPolicy
	PolicyOrder []*RetentionPolicy // creation (id) order
	Assignments map[string]*RetentionAssignment
	AssignOrder []*RetentionAssignment
	Fvrs        map[string]*FileVersionRetention // by id
	ByVersion   map[string]*FileVersionRetention // by file version id
	FvrOrder    []*FileVersionRetention
}

// RetentionPolicy is one retention policy.
type RetentionPolicy struct {
	ID, Name, Description string
	PolicyType            string // finite | indefinite
	Days                  int    // retention_length of a finite policy
	Disposition           string // permanently_delete | remove_retention
	RetentionType         string // modifiable | non_modifiable
	CanOwnerExtend        bool
	MaxExtension          int // days; 0 = "none"
	OwnersNotified        bool
	Recipients            []*User
	Status                string // active | retired
	CreatedBy             *User
	CreatedAt, ModifiedAt time.Time
}

const (
	RetentionFinite         = "finite"
	RetentionIndefinite     = "indefinite"
	dispositionDelete       = "permanently_delete"
	dispositionRemove       = "remove_retention"
	RetentionModifiable     = "modifiable"
	RetentionNonModifiable  = "non_modifiable"
	RetentionStatusActive   = "active"
	retentionStatusRetired  = "retired"
	MaxRetentionDescription = 500
)

// InitRetention prepares the state of retention policies, assignments and
// file version retentions; called once by newServer.
func (s *State) InitRetention() {
	s.Retention = retentionState{
		Policies:    map[string]*RetentionPolicy{},
		Assignments: map[string]*RetentionAssignment{},
		Fvrs:        map[string]*FileVersionRetention{},
		ByVersion:   map[string]*FileVersionRetention{},
	}
}

// ParseDays reads a length in days sent as a JSON number or a string of
// digits (the service accepts both), at least 1 and at most int32; word is
// the one string also accepted ("indefinite" or "none"), reported by isWord.
func ParseDays(raw json.RawMessage, field, word string) (days int, isWord bool, aerr *wire.Error) {
	bad := wire.BadRequest("Invalid value for %q: a number of days (1 or more) or %q", field, word)
	var str string
	if err := json.Unmarshal(raw, &str); err == nil {
		if str == word {
			return 0, true, nil
		}
	} else {
		str = strings.TrimSpace(string(raw))
	}
	n, err := strconv.ParseInt(str, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt32 {
		return 0, false, bad
	}
	return int(n), false, nil
}

// RetentionPolicyBody is the body of POST and PUT /retention_policies.
// Pointer, raw and opt fields tell "absent" from a value (and null).
type RetentionPolicyBody struct {
	PolicyName                   wire.Nullable[string]    `json:"policy_name"`
	Description                  wire.Nullable[string]    `json:"description"`
	PolicyType                   wire.Nullable[string]    `json:"policy_type"`
	DispositionAction            wire.Nullable[string]    `json:"disposition_action"`
	RetentionLength              json.RawMessage          `json:"retention_length"`
	RetentionType                wire.Nullable[string]    `json:"retention_type"`
	Status                       wire.Nullable[string]    `json:"status"`
	CanOwnerExtendRetention      wire.Nullable[bool]      `json:"can_owner_extend_retention"`
	MaxExtensionLength           json.RawMessage          `json:"max_extension_length"`
	AreOwnersNotified            wire.Nullable[bool]      `json:"are_owners_notified"`
	CustomNotificationRecipients wire.Nullable[[]userRef] `json:"custom_notification_recipients"`
}

func ValidDisposition(v string) bool { return v == dispositionDelete || v == dispositionRemove }

// recipients resolves custom_notification_recipients: every user must exist
// (400 bad_request otherwise; the spec names no code).
func (s *State) recipients(refs []userRef) ([]*User, *wire.Error) {
	out := make([]*User, 0, len(refs))
	for _, ref := range refs {
		if ref.Type != "" && ref.Type != "user" {
			return nil, wire.BadRequest("custom_notification_recipients: type must be \"user\"")
		}
		u := s.knownUser(ref.ID)
		if u == nil {
			return nil, wire.BadRequest("custom_notification_recipients: unknown user %q", ref.ID)
		}
		out = append(out, u)
	}
	return out, nil
}

// CheckMaxExtension applies the spec's rule: max_extension_length only for
// a finite policy that deletes ("none" is always accepted).
func CheckMaxExtension(raw json.RawMessage, policyType, disposition string) (int, *wire.Error) {
	days, none, aerr := ParseDays(raw, "max_extension_length", "none")
	if aerr != nil {
		return 0, aerr
	}
	if none {
		return 0, nil
	}
	if policyType != RetentionFinite || disposition != dispositionDelete {
		return 0, wire.BadRequest("max_extension_length is allowed only for a finite policy with disposition_action permanently_delete")
	}
	return days, nil
}

// CreateRetentionPolicyTx is the transaction of POST /retention_policies
// (createRetentionPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *State) CreateRetentionPolicyTx(b RetentionPolicyBody, rp *RetentionPolicy) (Reply, *wire.Error) {
	if refs, ok := b.CustomNotificationRecipients.Value(); ok {
		users, aerr := s.recipients(refs)
		if aerr != nil {
			return Reply{}, aerr
		}
		rp.Recipients = users
	}
	if s.retentionPolicyNamed(rp.Name, nil) != nil {
		return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A retention policy with this name already exists")
	}
	rp.ID = s.NewID()
	rp.CreatedAt = s.NowSec()
	rp.ModifiedAt = rp.CreatedAt
	s.Retention.Policies[rp.ID] = rp
	s.Retention.PolicyOrder = append(s.Retention.PolicyOrder, rp)
	s.Dirty(KRetPolicies, rp.ID)
	return Reply{wire.StatusCreated, s.RetentionPolicyRecord(rp)}, nil
}

// retentionPolicyNamed finds a policy by name (names are unique ignoring
// case), other than skip.
func (s *State) retentionPolicyNamed(name string, skip *RetentionPolicy) *RetentionPolicy {
	for _, rp := range s.Retention.PolicyOrder {
		if rp != skip && strings.EqualFold(rp.Name, name) {
			return rp
		}
	}
	return nil
}

// lengthString is retention_length on the wire: days as a string, or "indefinite".
func (rp *RetentionPolicy) lengthString() string {
	if rp.PolicyType == RetentionIndefinite {
		return RetentionIndefinite
	}
	return strconv.Itoa(rp.Days)
}

// longerOrEqual reports whether rp retains at least as long as other.
func (rp *RetentionPolicy) longerOrEqual(other *RetentionPolicy) bool {
	if rp.PolicyType == RetentionIndefinite {
		return true
	}
	return other.PolicyType != RetentionIndefinite && rp.Days >= other.Days
}

func (rp *RetentionPolicy) maxExtensionString() string {
	if rp.MaxExtension == 0 {
		return "none"
	}
	return strconv.Itoa(rp.MaxExtension)
}

// retentionPolicyMini is the RetentionPolicy--Mini record.
func retentionPolicyMini(rp *RetentionPolicy) map[string]any {
	return map[string]any{
		"type": "retention_policy", "id": rp.ID, "policy_name": rp.Name,
		"retention_length": rp.lengthString(), "disposition_action": rp.Disposition,
		"max_extension_length": rp.maxExtensionString(),
	}
}

// RetentionPolicyRecord is the RetentionPolicy record. Callers hold s.mu.
func (s *State) RetentionPolicyRecord(rp *RetentionPolicy) map[string]any {
	m := retentionPolicyMini(rp)
	counts := map[string]any{"enterprise": 0, "folder": 0, "metadata_template": 0}
	for _, a := range s.Retention.AssignOrder {
		if a.Policy == rp {
			counts[a.ToType] = counts[a.ToType].(int) + 1
		}
	}
	m["description"] = rp.Description
	m["policy_type"] = rp.PolicyType
	m["retention_type"] = rp.RetentionType
	m["status"] = rp.Status
	m["created_by"] = rp.CreatedBy.Mini()
	m["created_at"] = FmtTime(rp.CreatedAt)
	m["modified_at"] = FmtTime(rp.ModifiedAt)
	m["can_owner_extend_retention"] = rp.CanOwnerExtend
	m["are_owners_notified"] = rp.OwnersNotified
	m["custom_notification_recipients"] = wire.RenderEach(rp.Recipients, (*User).Mini)
	m["assignment_counts"] = counts
	return m
}

// RetentionPolicyByID finds a policy: 404 not_found when unknown.
func (s *State) RetentionPolicyByID(id string) (*RetentionPolicy, *wire.Error) {
	return RecordIn(s.Retention.Policies, id, "retention_policy")
}

func PickRetentionFields(rec map[string]any, fields []string) map[string]any {
	return PickFields(rec, fields, "type", "id", "policy_name", "retention_length", "disposition_action", "max_extension_length")
}

// ListRetentionPoliciesTx is the transaction of GET /retention_policies
// (listRetentionPolicies): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *State) ListRetentionPoliciesTx(by string, name string, typ string, q wire.Page, fields []string) (Reply, *wire.Error) {
	if by != "" && s.knownUser(by) == nil {
		return Reply{}, wire.NotFound("user")
	}
	var list []*RetentionPolicy
	for _, rp := range s.Retention.PolicyOrder {
		if strings.HasPrefix(rp.Name, name) && (typ == "" || rp.PolicyType == typ) && (by == "" || rp.CreatedBy.ID == by) {
			list = append(list, rp)
		}
	}
	return Reply{wire.StatusOK, wire.PositionEntries(list, q, func(rp *RetentionPolicy) any {
		return PickRetentionFields(s.RetentionPolicyRecord(rp), fields)
	})}, nil
}

// UpdateRetentionPolicyTx is the transaction of PUT /retention_policies/{id}
// (updateRetentionPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *State) UpdateRetentionPolicyTx(pathValue string, b RetentionPolicyBody) (Reply, *wire.Error) {
	rp, aerr := s.RetentionPolicyByID(pathValue)
	if aerr != nil {
		return Reply{}, aerr
	}
	next := *rp // checked in full before anything changes
	if v, ok := b.PolicyName.Value(); ok {
		if strings.TrimSpace(v) == "" {
			return Reply{}, wire.BadRequest("policy_name cannot be empty")
		}
		next.Name = v
	}
	if b.Description.Present {
		next.Description = b.Description.V
		if utf8.RuneCountInString(next.Description) > MaxRetentionDescription {
			return Reply{}, wire.BadRequest("description is longer than %d characters", MaxRetentionDescription)
		}
	}
	if v, ok := b.DispositionAction.Value(); ok {
		if !ValidDisposition(v) {
			return Reply{}, wire.BadRequest("disposition_action must be permanently_delete or remove_retention")
		}
		next.Disposition = v
	}
	if v, ok := b.RetentionType.Value(); ok {
		switch v {
		case RetentionNonModifiable, "non-modifiable":
			next.RetentionType = RetentionNonModifiable
		case RetentionModifiable:
			if rp.RetentionType == RetentionNonModifiable {
				return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be made modifiable")
			}
			return Reply{}, wire.BadRequest("retention_type can only be changed to non_modifiable")
		default:
			return Reply{}, wire.BadRequest("retention_type can only be changed to non_modifiable")
		}
	}
	if len(b.RetentionLength) > 0 && string(b.RetentionLength) != "null" {
		days, indefinite, aerr := ParseDays(b.RetentionLength, "retention_length", RetentionIndefinite)
		switch {
		case aerr != nil:
			return Reply{}, aerr
		case rp.PolicyType == RetentionIndefinite && !indefinite:
			return Reply{}, wire.BadRequest("retention_length cannot be set for an indefinite policy")
		case rp.PolicyType == RetentionFinite && indefinite:
			return Reply{}, wire.BadRequest("retention_length of a finite policy must be a number of days")
		case rp.PolicyType == RetentionFinite:
			if days < rp.Days && rp.RetentionType == RetentionNonModifiable {
				return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be shortened")
			}
			next.Days = days
		}
	}
	if v, ok := b.Status.Value(); ok {
		switch {
		case v == retentionStatusRetired:
			next.Status = retentionStatusRetired
		case v == RetentionStatusActive && rp.Status == RetentionStatusActive:
		case v == RetentionStatusActive:
			return Reply{}, wire.BadRequest("A retired retention policy cannot become active again")
		default:
			return Reply{}, wire.BadRequest("status can only be set to retired")
		}
	}
	if v, ok := b.CanOwnerExtendRetention.Value(); ok {
		next.CanOwnerExtend = v
	}
	if v, ok := b.AreOwnersNotified.Value(); ok {
		next.OwnersNotified = v
	}
	if len(b.MaxExtensionLength) > 0 && string(b.MaxExtensionLength) != "null" {
		days, aerr := CheckMaxExtension(b.MaxExtensionLength, next.PolicyType, next.Disposition)
		if aerr != nil {
			return Reply{}, aerr
		}
		next.MaxExtension = days
	}
	if b.CustomNotificationRecipients.Present {
		users, aerr := s.recipients(b.CustomNotificationRecipients.V)
		if aerr != nil {
			return Reply{}, aerr
		}
		next.Recipients = users
	}
	if next.Name != rp.Name && s.retentionPolicyNamed(next.Name, rp) != nil {
		return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A retention policy with this name already exists")
	}
	next.ModifiedAt = s.NowSec()
	*rp = next
	s.Dirty(KRetPolicies, rp.ID)
	return Reply{wire.StatusOK, s.RetentionPolicyRecord(rp)}, nil
}

// RemoveRetentionPolicy deletes rp and its assignments; a non-modifiable
// policy is 403. Callers hold mu.
func (s *State) RemoveRetentionPolicy(rp *RetentionPolicy) *wire.Error {
	if rp.RetentionType == RetentionNonModifiable {
		return wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be deleted")
	}
	for _, a := range append([]*RetentionAssignment(nil), s.Retention.AssignOrder...) {
		if a.Policy == rp {
			s.RemoveRetentionAssignment(a)
		}
	}
	delete(s.Retention.Policies, rp.ID)
	s.Retention.PolicyOrder = wire.RemoveFrom(s.Retention.PolicyOrder, rp)
	s.Dirty(KRetPolicies, rp.ID)
	return nil
}
