package governance

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

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

// RetentionLength applies the rule of retention_length to a policy of
// policyType, the one rule for POST and PUT /retention_policies: a finite
// policy retains a number of days, an indefinite one takes no length
// (only the word "indefinite"). Absent or null is 0 and no error, unless
// required (a new finite policy needs its length). days is 0 for an
// indefinite policy.
func RetentionLength(raw json.RawMessage, policyType string, required bool) (days int, aerr *wire.Error) {
	if len(raw) == 0 || string(raw) == "null" {
		if required && policyType == state.RetentionFinite {
			return 0, wire.BadRequest("Missing required field: retention_length (a finite policy needs it)")
		}
		return 0, nil
	}
	days, indefinite, aerr := ParseDays(raw, "retention_length", state.RetentionIndefinite)
	switch {
	case policyType == state.RetentionIndefinite && !indefinite:
		return 0, wire.BadRequest("retention_length cannot be set for an indefinite policy")
	case policyType == state.RetentionIndefinite:
		return 0, nil
	case aerr != nil:
		return 0, aerr
	case indefinite:
		return 0, wire.BadRequest("retention_length of a finite policy must be a number of days")
	}
	return days, nil
}

// ValidDisposition reports whether v is a disposition_action
// (permanently_delete or remove_retention).
func ValidDisposition(v string) bool {
	return v == state.DispositionDelete || v == state.DispositionRemove
}

// Recipients resolves custom_notification_recipients: every user must exist
// (400 bad_request otherwise; the spec names no code).
func Recipients(s *state.Tx, refs []userRef) ([]*state.User, *wire.Error) {
	out := make([]*state.User, 0, len(refs))
	for _, ref := range refs {
		if ref.Type != "" && ref.Type != "user" {
			return nil, wire.BadRequest("custom_notification_recipients: type must be \"user\"")
		}
		u := KnownUser(s, ref.ID)
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
	if policyType != state.RetentionFinite || disposition != state.DispositionDelete {
		return 0, wire.BadRequest("max_extension_length is allowed only for a finite policy with disposition_action permanently_delete")
	}
	return days, nil
}

// CreateRetentionPolicy serves POST /retention_policies (refserver's
// createRetentionPolicy): rp (built from the checked body) is added, with
// body's notification recipients (400 for an unknown user); 409 for a
// name taken. 201 with its record.
func CreateRetentionPolicy(s *state.Tx, b RetentionPolicyBody, rp *state.RetentionPolicy) (state.Reply, *wire.Error) {
	if refs, ok := b.CustomNotificationRecipients.Value(); ok {
		users, aerr := Recipients(s, refs)
		if aerr != nil {
			return state.Reply{}, aerr
		}
		rp.Recipients = users
	}
	if RetentionPolicyNamed(s, rp.Name, nil) != nil {
		return state.Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A retention policy with this name already exists")
	}
	rp.ID = s.NewID()
	rp.CreatedAt = s.NowSec()
	rp.ModifiedAt = rp.CreatedAt
	s.Retention.Policies.Put(rp.ID, rp)
	s.Retention.PolicyOrder = append(s.Retention.PolicyOrder, rp)
	return state.Reply{Status: wire.StatusCreated, Body: RetentionPolicyRecord(s, rp)}, nil
}

// RetentionPolicyNamed finds a policy by name (names are unique ignoring
// case), other than skip.
func RetentionPolicyNamed(s *state.Tx, name string, skip *state.RetentionPolicy) *state.RetentionPolicy {
	for _, rp := range s.Retention.PolicyOrder {
		if rp != skip && strings.EqualFold(rp.Name, name) {
			return rp
		}
	}
	return nil
}

// retentionPolicyMini is the RetentionPolicy--Mini record.
func retentionPolicyMini(rp *state.RetentionPolicy) map[string]any {
	return map[string]any{
		"type": "retention_policy", "id": rp.ID, "policy_name": rp.Name,
		"retention_length": rp.LengthString(), "disposition_action": rp.Disposition,
		"max_extension_length": rp.MaxExtensionString(),
	}
}

// RetentionPolicyRecord is the RetentionPolicy record.
func RetentionPolicyRecord(s *state.Tx, rp *state.RetentionPolicy) map[string]any {
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
	m["created_at"] = state.FmtTime(rp.CreatedAt)
	m["modified_at"] = state.FmtTime(rp.ModifiedAt)
	m["can_owner_extend_retention"] = rp.CanOwnerExtend
	m["are_owners_notified"] = rp.OwnersNotified
	m["custom_notification_recipients"] = wire.RenderEach(rp.Recipients, (*state.User).Mini)
	m["assignment_counts"] = counts
	return m
}

// RetentionPolicyByID finds a policy: 404 not_found when unknown.
func RetentionPolicyByID(s *state.Tx, id string) (*state.RetentionPolicy, *wire.Error) {
	return state.TableRecord(&s.Retention.Policies, id, "retention_policy")
}

// PickRetentionFields is rec for a fields parameter: the fields asked plus
// those of RetentionPolicy--Mini, which every answer carries.
func PickRetentionFields(rec map[string]any, fields []string) map[string]any {
	return state.PickFields(rec, fields, "type", "id", "policy_name", "retention_length", "disposition_action", "max_extension_length")
}

// ListRetentionPolicies serves GET /retention_policies
// (listRetentionPolicies): a marker page of the policies whose name starts
// with name (case-sensitive), of type typ and created by user by when
// given (404 for an unknown user).
func ListRetentionPolicies(s *state.Tx, by string, name string, typ string, q wire.Page, fields []string) (state.Reply, *wire.Error) {
	if by != "" && KnownUser(s, by) == nil {
		return state.Reply{}, wire.NotFound("user")
	}
	var list []*state.RetentionPolicy
	for _, rp := range s.Retention.PolicyOrder {
		if strings.HasPrefix(rp.Name, name) && (typ == "" || rp.PolicyType == typ) && (by == "" || rp.CreatedBy.ID == by) {
			list = append(list, rp)
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(rp *state.RetentionPolicy) any {
		return PickRetentionFields(RetentionPolicyRecord(s, rp), fields)
	})}, nil
}

// UpdateRetentionPolicy serves PUT /retention_policies/{id}
// (updateRetentionPolicy): body's changes, checked in full on a copy
// before the policy takes them (a non_modifiable policy is 403 for being
// made modifiable or shortened; retiring is one-way).
func UpdateRetentionPolicy(s *state.Tx, pathValue string, b RetentionPolicyBody) (state.Reply, *wire.Error) {
	rp, aerr := RetentionPolicyByID(s, pathValue)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	next := *rp // checked in full before anything changes
	if v, ok := b.PolicyName.Value(); ok {
		if strings.TrimSpace(v) == "" {
			return state.Reply{}, wire.BadRequest("policy_name cannot be empty")
		}
		next.Name = v
	}
	if b.Description.Present {
		next.Description = b.Description.V
		if utf8.RuneCountInString(next.Description) > state.MaxRetentionDescription {
			return state.Reply{}, wire.BadRequest("description is longer than %d characters", state.MaxRetentionDescription)
		}
	}
	if v, ok := b.DispositionAction.Value(); ok {
		if !ValidDisposition(v) {
			return state.Reply{}, wire.BadRequest("disposition_action must be permanently_delete or remove_retention")
		}
		next.Disposition = v
	}
	if v, ok := b.RetentionType.Value(); ok {
		switch v {
		case state.RetentionNonModifiable, "non-modifiable":
			next.RetentionType = state.RetentionNonModifiable
		case state.RetentionModifiable:
			if rp.RetentionType == state.RetentionNonModifiable {
				return state.Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be made modifiable")
			}
			return state.Reply{}, wire.BadRequest("retention_type can only be changed to non_modifiable")
		default:
			return state.Reply{}, wire.BadRequest("retention_type can only be changed to non_modifiable")
		}
	}
	if days, aerr := RetentionLength(b.RetentionLength, rp.PolicyType, false); aerr != nil {
		return state.Reply{}, aerr
	} else if days > 0 {
		if days < rp.Days && rp.RetentionType == state.RetentionNonModifiable {
			return state.Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be shortened")
		}
		next.Days = days
	}
	if v, ok := b.Status.Value(); ok {
		switch {
		case v == state.RetentionStatusRetired:
			next.Status = state.RetentionStatusRetired
		case v == state.RetentionStatusActive && rp.Status == state.RetentionStatusActive:
		case v == state.RetentionStatusActive:
			return state.Reply{}, wire.BadRequest("A retired retention policy cannot become active again")
		default:
			return state.Reply{}, wire.BadRequest("status can only be set to retired")
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
			return state.Reply{}, aerr
		}
		next.MaxExtension = days
	}
	if b.CustomNotificationRecipients.Present {
		users, aerr := Recipients(s, b.CustomNotificationRecipients.V)
		if aerr != nil {
			return state.Reply{}, aerr
		}
		next.Recipients = users
	}
	if next.Name != rp.Name && RetentionPolicyNamed(s, next.Name, rp) != nil {
		return state.Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A retention policy with this name already exists")
	}
	next.ModifiedAt = s.NowSec()
	s.Retention.Policies.Update(rp.ID, func(rp *state.RetentionPolicy) { *rp = next })
	return state.Reply{Status: wire.StatusOK, Body: RetentionPolicyRecord(s, rp)}, nil
}

// RemoveRetentionPolicy deletes rp and its assignments; a non-modifiable
// policy is 403.
func RemoveRetentionPolicy(s *state.Tx, rp *state.RetentionPolicy) *wire.Error {
	if rp.RetentionType == state.RetentionNonModifiable {
		return wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be deleted")
	}
	for _, a := range append([]*state.RetentionAssignment(nil), s.Retention.AssignOrder...) {
		if a.Policy == rp {
			RemoveRetentionAssignment(s, a)
		}
	}
	s.Retention.Policies.Delete(rp.ID)
	s.Retention.PolicyOrder = wire.RemoveFrom(s.Retention.PolicyOrder, rp)
	return nil
}
