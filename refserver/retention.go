package refserver

import (
	"encoding/json"
	"math"
	"net/http"
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
	policies    map[string]*retentionPolicy
	policyOrder []*retentionPolicy // creation (id) order
	assignments map[string]*retentionAssignment
	assignOrder []*retentionAssignment
	fvrs        map[string]*fileVersionRetention // by id
	byVersion   map[string]*fileVersionRetention // by file version id
	fvrOrder    []*fileVersionRetention
}

// retentionPolicy is one retention policy.
type retentionPolicy struct {
	id, name, description string
	policyType            string // finite | indefinite
	days                  int    // retention_length of a finite policy
	disposition           string // permanently_delete | remove_retention
	retentionType         string // modifiable | non_modifiable
	canOwnerExtend        bool
	maxExtension          int // days; 0 = "none"
	ownersNotified        bool
	recipients            []*user
	status                string // active | retired
	createdBy             *user
	createdAt, modifiedAt time.Time
}

const (
	retentionFinite         = "finite"
	retentionIndefinite     = "indefinite"
	dispositionDelete       = "permanently_delete"
	dispositionRemove       = "remove_retention"
	retentionModifiable     = "modifiable"
	retentionNonModifiable  = "non_modifiable"
	retentionStatusActive   = "active"
	retentionStatusRetired  = "retired"
	maxRetentionDescription = 500
)

// initRetention prepares the state of retention policies, assignments and
// file version retentions; called once by newServer.
func (s *state) initRetention() {
	s.retention = retentionState{
		policies:    map[string]*retentionPolicy{},
		assignments: map[string]*retentionAssignment{},
		fvrs:        map[string]*fileVersionRetention{},
		byVersion:   map[string]*fileVersionRetention{},
	}
}

// parseDays reads a length in days sent as a JSON number or a string of
// digits (the service accepts both), at least 1 and at most int32; word is
// the one string also accepted ("indefinite" or "none"), reported by isWord.
func parseDays(raw json.RawMessage, field, word string) (days int, isWord bool, aerr *wire.Error) {
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

// retentionPolicyBody is the body of POST and PUT /retention_policies.
// Pointer, raw and opt fields tell "absent" from a value (and null).
type retentionPolicyBody struct {
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

func validDisposition(v string) bool { return v == dispositionDelete || v == dispositionRemove }

// recipients resolves custom_notification_recipients: every user must exist
// (400 bad_request otherwise; the spec names no code).
func (s *state) recipients(refs []userRef) ([]*user, *wire.Error) {
	out := make([]*user, 0, len(refs))
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

// checkMaxExtension applies the spec's rule: max_extension_length only for
// a finite policy that deletes ("none" is always accepted).
func checkMaxExtension(raw json.RawMessage, policyType, disposition string) (int, *wire.Error) {
	days, none, aerr := parseDays(raw, "max_extension_length", "none")
	if aerr != nil {
		return 0, aerr
	}
	if none {
		return 0, nil
	}
	if policyType != retentionFinite || disposition != dispositionDelete {
		return 0, wire.BadRequest("max_extension_length is allowed only for a finite policy with disposition_action permanently_delete")
	}
	return days, nil
}

// createRetentionPolicy serves POST /retention_policies: 201 RetentionPolicy;
// 400 bad_request for a missing or invalid field; 409 conflict when the name
// is taken (the spec names no code for it).
func (s *Server) createRetentionPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b retentionPolicyBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	rp := &retentionPolicy{retentionType: retentionModifiable, status: retentionStatusActive, createdBy: p.user}
	var ok bool
	if rp.name, ok = b.PolicyName.Value(); !ok || strings.TrimSpace(rp.name) == "" {
		return wire.BadRequest("Missing required field: policy_name")
	}
	if rp.policyType, ok = b.PolicyType.Value(); !ok || rp.policyType != retentionFinite && rp.policyType != retentionIndefinite {
		return wire.BadRequest("policy_type must be finite or indefinite")
	}
	if rp.disposition, ok = b.DispositionAction.Value(); !ok || !validDisposition(rp.disposition) {
		return wire.BadRequest("disposition_action must be permanently_delete or remove_retention")
	}
	if b.Status.Present {
		return wire.BadRequest("Unknown field: status")
	}
	switch {
	case rp.policyType == retentionIndefinite && len(b.RetentionLength) > 0 && string(b.RetentionLength) != "null":
		if _, indefinite, _ := parseDays(b.RetentionLength, "retention_length", retentionIndefinite); !indefinite {
			return wire.BadRequest("retention_length cannot be set for an indefinite policy")
		}
	case rp.policyType == retentionFinite:
		if len(b.RetentionLength) == 0 || string(b.RetentionLength) == "null" {
			return wire.BadRequest("Missing required field: retention_length (a finite policy needs it)")
		}
		days, indefinite, aerr := parseDays(b.RetentionLength, "retention_length", retentionIndefinite)
		if aerr != nil {
			return aerr
		}
		if indefinite {
			return wire.BadRequest("retention_length of a finite policy must be a number of days")
		}
		rp.days = days
	}
	if v, ok := b.RetentionType.Value(); ok {
		if v != retentionModifiable && v != retentionNonModifiable {
			return wire.BadRequest("retention_type must be modifiable or non_modifiable")
		}
		rp.retentionType = v
	}
	rp.description, _ = b.Description.Value()
	if utf8.RuneCountInString(rp.description) > maxRetentionDescription {
		return wire.BadRequest("description is longer than %d characters", maxRetentionDescription)
	}
	if len(b.MaxExtensionLength) > 0 && string(b.MaxExtensionLength) != "null" {
		days, aerr := checkMaxExtension(b.MaxExtensionLength, rp.policyType, rp.disposition)
		if aerr != nil {
			return aerr
		}
		rp.maxExtension = days
	}
	rp.canOwnerExtend, _ = b.CanOwnerExtendRetention.Value()
	rp.ownersNotified, _ = b.AreOwnersNotified.Value()
	return s.change(w, func() (reply, *wire.Error) {
		return s.createRetentionPolicyTx(b, rp)
	})
}

// createRetentionPolicyTx is the transaction of POST /retention_policies
// (createRetentionPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) createRetentionPolicyTx(b retentionPolicyBody, rp *retentionPolicy) (reply, *wire.Error) {
	if refs, ok := b.CustomNotificationRecipients.Value(); ok {
		users, aerr := s.recipients(refs)
		if aerr != nil {
			return reply{}, aerr
		}
		rp.recipients = users
	}
	if s.retentionPolicyNamed(rp.name, nil) != nil {
		return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "A retention policy with this name already exists")
	}
	rp.id = s.newID()
	rp.createdAt = s.nowSec()
	rp.modifiedAt = rp.createdAt
	s.retention.policies[rp.id] = rp
	s.retention.policyOrder = append(s.retention.policyOrder, rp)
	s.dirty(kRetPolicies, rp.id)
	return reply{http.StatusCreated, s.retentionPolicyRecord(rp)}, nil
}

// retentionPolicyNamed finds a policy by name (names are unique ignoring
// case), other than skip.
func (s *state) retentionPolicyNamed(name string, skip *retentionPolicy) *retentionPolicy {
	for _, rp := range s.retention.policyOrder {
		if rp != skip && strings.EqualFold(rp.name, name) {
			return rp
		}
	}
	return nil
}

// lengthString is retention_length on the wire: days as a string, or "indefinite".
func (rp *retentionPolicy) lengthString() string {
	if rp.policyType == retentionIndefinite {
		return retentionIndefinite
	}
	return strconv.Itoa(rp.days)
}

// longerOrEqual reports whether rp retains at least as long as other.
func (rp *retentionPolicy) longerOrEqual(other *retentionPolicy) bool {
	if rp.policyType == retentionIndefinite {
		return true
	}
	return other.policyType != retentionIndefinite && rp.days >= other.days
}

func (rp *retentionPolicy) maxExtensionString() string {
	if rp.maxExtension == 0 {
		return "none"
	}
	return strconv.Itoa(rp.maxExtension)
}

// retentionPolicyMini is the RetentionPolicy--Mini record.
func retentionPolicyMini(rp *retentionPolicy) map[string]any {
	return map[string]any{
		"type": "retention_policy", "id": rp.id, "policy_name": rp.name,
		"retention_length": rp.lengthString(), "disposition_action": rp.disposition,
		"max_extension_length": rp.maxExtensionString(),
	}
}

// retentionPolicyRecord is the RetentionPolicy record. Callers hold s.mu.
func (s *state) retentionPolicyRecord(rp *retentionPolicy) map[string]any {
	m := retentionPolicyMini(rp)
	counts := map[string]any{"enterprise": 0, "folder": 0, "metadata_template": 0}
	for _, a := range s.retention.assignOrder {
		if a.policy == rp {
			counts[a.toType] = counts[a.toType].(int) + 1
		}
	}
	m["description"] = rp.description
	m["policy_type"] = rp.policyType
	m["retention_type"] = rp.retentionType
	m["status"] = rp.status
	m["created_by"] = rp.createdBy.mini()
	m["created_at"] = fmtTime(rp.createdAt)
	m["modified_at"] = fmtTime(rp.modifiedAt)
	m["can_owner_extend_retention"] = rp.canOwnerExtend
	m["are_owners_notified"] = rp.ownersNotified
	m["custom_notification_recipients"] = wire.RenderEach(rp.recipients, (*user).mini)
	m["assignment_counts"] = counts
	return m
}

// retentionPolicyByID finds a policy: 404 not_found when unknown.
func (s *state) retentionPolicyByID(id string) (*retentionPolicy, *wire.Error) {
	return recordIn(s.retention.policies, id, "retention_policy")
}

// getRetentionPolicy serves GET /retention_policies/{id}: 200 RetentionPolicy
// (fields picks fields; the mini fields always come).
func (s *Server) getRetentionPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	return getRecord(s, w, r, "id", s.retentionPolicyByID, func(rp *retentionPolicy) map[string]any {
		return pickRetentionFields(s.retentionPolicyRecord(rp), fields)
	})
}

func pickRetentionFields(rec map[string]any, fields []string) map[string]any {
	return pickFields(rec, fields, "type", "id", "policy_name", "retention_length", "disposition_action", "max_extension_length")
}

// listRetentionPolicies serves GET /retention_policies, marker-paged, with
// the filters policy_name (case-sensitive prefix), policy_type (400 for
// another value) and created_by_user_id (404 for an unknown user).
func (s *Server) listRetentionPolicies(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	query := r.URL.Query()
	name, typ, by := query.Get("policy_name"), query.Get("policy_type"), query.Get("created_by_user_id")
	if typ != "" && typ != retentionFinite && typ != retentionIndefinite {
		return wire.BadRequest("policy_type must be finite or indefinite")
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.listRetentionPoliciesTx(by, name, typ, q, fields)
	})
}

// listRetentionPoliciesTx is the transaction of GET /retention_policies
// (listRetentionPolicies): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) listRetentionPoliciesTx(by string, name string, typ string, q wire.Page, fields []string) (reply, *wire.Error) {
	if by != "" && s.knownUser(by) == nil {
		return reply{}, wire.NotFound("user")
	}
	var list []*retentionPolicy
	for _, rp := range s.retention.policyOrder {
		if strings.HasPrefix(rp.name, name) && (typ == "" || rp.policyType == typ) && (by == "" || rp.createdBy.id == by) {
			list = append(list, rp)
		}
	}
	return reply{http.StatusOK, wire.PositionEntries(list, q, func(rp *retentionPolicy) any {
		return pickRetentionFields(s.retentionPolicyRecord(rp), fields)
	})}, nil
}

// updateRetentionPolicy serves PUT /retention_policies/{id}: 200
// RetentionPolicy. A null field means "no change" (description null clears
// it, custom_notification_recipients null empties the list). Errors: 400
// bad_request (invalid value; retention_type other than non_modifiable;
// status other than retired, or active again once retired — the spec names
// no code); 403 forbidden when a non_modifiable policy would be shortened or
// made modifiable again (the spec names no code); 409 conflict for a name
// taken; 404 for an unknown policy.
func (s *Server) updateRetentionPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b retentionPolicyBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	if b.PolicyType.Present {
		return wire.BadRequest("policy_type cannot be changed")
	}
	pathValue := r.PathValue("id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateRetentionPolicyTx(pathValue, b)
	})
}

// updateRetentionPolicyTx is the transaction of PUT /retention_policies/{id}
// (updateRetentionPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) updateRetentionPolicyTx(pathValue string, b retentionPolicyBody) (reply, *wire.Error) {
	rp, aerr := s.retentionPolicyByID(pathValue)
	if aerr != nil {
		return reply{}, aerr
	}
	next := *rp // checked in full before anything changes
	if v, ok := b.PolicyName.Value(); ok {
		if strings.TrimSpace(v) == "" {
			return reply{}, wire.BadRequest("policy_name cannot be empty")
		}
		next.name = v
	}
	if b.Description.Present {
		next.description = b.Description.V
		if utf8.RuneCountInString(next.description) > maxRetentionDescription {
			return reply{}, wire.BadRequest("description is longer than %d characters", maxRetentionDescription)
		}
	}
	if v, ok := b.DispositionAction.Value(); ok {
		if !validDisposition(v) {
			return reply{}, wire.BadRequest("disposition_action must be permanently_delete or remove_retention")
		}
		next.disposition = v
	}
	if v, ok := b.RetentionType.Value(); ok {
		switch v {
		case retentionNonModifiable, "non-modifiable":
			next.retentionType = retentionNonModifiable
		case retentionModifiable:
			if rp.retentionType == retentionNonModifiable {
				return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be made modifiable")
			}
			return reply{}, wire.BadRequest("retention_type can only be changed to non_modifiable")
		default:
			return reply{}, wire.BadRequest("retention_type can only be changed to non_modifiable")
		}
	}
	if len(b.RetentionLength) > 0 && string(b.RetentionLength) != "null" {
		days, indefinite, aerr := parseDays(b.RetentionLength, "retention_length", retentionIndefinite)
		switch {
		case aerr != nil:
			return reply{}, aerr
		case rp.policyType == retentionIndefinite && !indefinite:
			return reply{}, wire.BadRequest("retention_length cannot be set for an indefinite policy")
		case rp.policyType == retentionFinite && indefinite:
			return reply{}, wire.BadRequest("retention_length of a finite policy must be a number of days")
		case rp.policyType == retentionFinite:
			if days < rp.days && rp.retentionType == retentionNonModifiable {
				return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be shortened")
			}
			next.days = days
		}
	}
	if v, ok := b.Status.Value(); ok {
		switch {
		case v == retentionStatusRetired:
			next.status = retentionStatusRetired
		case v == retentionStatusActive && rp.status == retentionStatusActive:
		case v == retentionStatusActive:
			return reply{}, wire.BadRequest("A retired retention policy cannot become active again")
		default:
			return reply{}, wire.BadRequest("status can only be set to retired")
		}
	}
	if v, ok := b.CanOwnerExtendRetention.Value(); ok {
		next.canOwnerExtend = v
	}
	if v, ok := b.AreOwnersNotified.Value(); ok {
		next.ownersNotified = v
	}
	if len(b.MaxExtensionLength) > 0 && string(b.MaxExtensionLength) != "null" {
		days, aerr := checkMaxExtension(b.MaxExtensionLength, next.policyType, next.disposition)
		if aerr != nil {
			return reply{}, aerr
		}
		next.maxExtension = days
	}
	if b.CustomNotificationRecipients.Present {
		users, aerr := s.recipients(b.CustomNotificationRecipients.V)
		if aerr != nil {
			return reply{}, aerr
		}
		next.recipients = users
	}
	if next.name != rp.name && s.retentionPolicyNamed(next.name, rp) != nil {
		return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "A retention policy with this name already exists")
	}
	next.modifiedAt = s.nowSec()
	*rp = next
	s.dirty(kRetPolicies, rp.id)
	return reply{http.StatusOK, s.retentionPolicyRecord(rp)}, nil
}

// deleteRetentionPolicy serves DELETE /retention_policies/{id}: 204; 403
// forbidden for a non_modifiable policy (the spec names no code); 404 for
// an unknown one. Its assignments go with it, and so does the retention
// they alone gave to file versions.
func (s *Server) deleteRetentionPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "id", http.StatusNoContent, s.retentionPolicyByID, s.removeRetentionPolicy)
}

// removeRetentionPolicy deletes rp and its assignments; a non-modifiable
// policy is 403. Callers hold mu.
func (s *state) removeRetentionPolicy(rp *retentionPolicy) *wire.Error {
	if rp.retentionType == retentionNonModifiable {
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "A non-modifiable retention policy cannot be deleted")
	}
	for _, a := range append([]*retentionAssignment(nil), s.retention.assignOrder...) {
		if a.policy == rp {
			s.removeRetentionAssignment(a)
		}
	}
	delete(s.retention.policies, rp.id)
	s.retention.policyOrder = wire.RemoveFrom(s.retention.policyOrder, rp)
	s.dirty(kRetPolicies, rp.id)
	return nil
}
