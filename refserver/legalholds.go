package refserver

import (
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Legal hold policies (this file), their assignments
// (legalhold_assignments.go) and the file version legal holds they create
// (legalhold_versions.go). Only the enterprise admin may use them.
//
// Lifecycle: a new policy is "applying", then "active"; DELETE releases it
// (202): "releasing", then "released", when its holds lift. A deleted
// assignment (202) stays listed, with deleted_at, until it is gone. Each
// transition takes Options.LegalHoldReleaseDelay on the server clock and is
// computed when the record is read. No member of a policy body is wire.Nullable
// in the spec: a null is 400 bad_request (wire.DecodeJSONObject), not "absent".

// legalHoldState is the server's state for legal hold policies,
// assignments and file version legal holds, guarded by Server.mu.
type legalHoldState struct {
	policies    map[string]*legalHoldPolicy
	policyOrder []*legalHoldPolicy
	assignments map[string]*legalHoldAssignment
	assignOrder []*legalHoldAssignment
	holds       map[string]*fileVersionLegalHold // by id
	byVersion   map[string]*fileVersionLegalHold // by file version id
	holdOrder   []*fileVersionLegalHold
}

// legalHoldPolicy is one legal hold policy.
type legalHoldPolicy struct {
	id, name, description, releaseNotes string
	ongoing                             bool
	filterStart, filterEnd              time.Time
	createdBy                           *user
	createdAt, modifiedAt               time.Time // to the second, for the record
	created                             time.Time // exact, for the status
	released                            time.Time // exact time of the release request; zero = not released
}

const (
	holdApplying  = "applying"
	holdActive    = "active"
	holdReleasing = "releasing"
	holdReleased  = "released"

	maxHoldPolicyName = 254
	maxHoldText       = 500
)

// initLegalHolds prepares the state of legal hold policies, assignments
// and file version legal holds; called once by newServer.
func (s *state) initLegalHolds() {
	s.holds = legalHoldState{
		policies:    map[string]*legalHoldPolicy{},
		assignments: map[string]*legalHoldAssignment{},
		holds:       map[string]*fileVersionLegalHold{},
		byVersion:   map[string]*fileVersionLegalHold{},
	}
}

// holdDelay is Options.LegalHoldReleaseDelay with its default.
func (s *state) holdDelay() time.Duration {
	switch d := s.cfg.LegalHoldReleaseDelay; {
	case d < 0:
		return 0
	case d == 0:
		return defaultLegalHoldDelay
	default:
		return d
	}
}

// holdStatus is the status of a policy now.
func (s *state) holdStatus(hp *legalHoldPolicy) string {
	now := s.now()
	if !hp.released.IsZero() {
		if now.Before(hp.released.Add(s.holdDelay())) {
			return holdReleasing
		}
		return holdReleased
	}
	if now.Before(hp.created.Add(s.holdDelay())) {
		return holdApplying
	}
	return holdActive
}

// legalHoldPolicyBody is the body of POST and PUT /legal_hold_policies.
type legalHoldPolicyBody struct {
	PolicyName      *string    `json:"policy_name"`
	Description     *string    `json:"description"`
	FilterStartedAt *time.Time `json:"filter_started_at"`
	FilterEndedAt   *time.Time `json:"filter_ended_at"`
	IsOngoing       *bool      `json:"is_ongoing"`
	ReleaseNotes    *string    `json:"release_notes"`
}

// checkHoldText applies the length limits of names, descriptions and notes.
func checkHoldText(b *legalHoldPolicyBody) *wire.Error {
	if b.PolicyName != nil {
		if strings.TrimSpace(*b.PolicyName) == "" {
			return wire.BadRequest("policy_name cannot be empty")
		}
		if utf8.RuneCountInString(*b.PolicyName) > maxHoldPolicyName {
			return wire.BadRequest("policy_name is longer than %d characters", maxHoldPolicyName)
		}
	}
	for name, v := range map[string]*string{"description": b.Description, "release_notes": b.ReleaseNotes} {
		if v != nil && utf8.RuneCountInString(*v) > maxHoldText {
			return wire.BadRequest("%s is longer than %d characters", name, maxHoldText)
		}
	}
	return nil
}

// legalHoldPolicyNamed finds a policy that is not released by name (names
// are unique ignoring case among policies not released), other than skip.
func (s *state) legalHoldPolicyNamed(name string, skip *legalHoldPolicy) *legalHoldPolicy {
	for _, hp := range s.holds.policyOrder {
		if hp != skip && strings.EqualFold(hp.name, name) && s.holdStatus(hp) != holdReleased {
			return hp
		}
	}
	return nil
}

// createLegalHoldPolicy serves POST /legal_hold_policies: 201
// LegalHoldPolicy with status applying. 400 bad_request: no policy_name, a
// name over 254 or a description over 500 characters, neither is_ongoing
// true nor both filter dates, a start after the end, release_notes (not a
// create field). 409 conflict: the name is taken (the spec names no code).
func (s *Server) createLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b legalHoldPolicyBody
	if aerr := wire.DecodeJSONObject(r.Body, &b, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if b.PolicyName == nil {
		return wire.BadRequest("Missing required field: policy_name")
	}
	if b.ReleaseNotes != nil {
		return wire.BadRequest("Unknown field: release_notes")
	}
	if aerr := checkHoldText(&b); aerr != nil {
		return aerr
	}
	hp := &legalHoldPolicy{name: *b.PolicyName, createdBy: p.user}
	if b.Description != nil {
		hp.description = *b.Description
	}
	hp.ongoing = b.IsOngoing != nil && *b.IsOngoing
	if b.FilterStartedAt != nil {
		hp.filterStart = b.FilterStartedAt.UTC()
	}
	if b.FilterEndedAt != nil {
		hp.filterEnd = b.FilterEndedAt.UTC()
	}
	if (b.FilterStartedAt == nil) != (b.FilterEndedAt == nil) {
		return wire.BadRequest("filter_started_at and filter_ended_at go together")
	}
	if !hp.ongoing && b.FilterStartedAt == nil {
		return wire.BadRequest("is_ongoing must be true, or filter_started_at and filter_ended_at given")
	}
	if b.FilterStartedAt != nil && hp.filterEnd.Before(hp.filterStart) {
		return wire.BadRequest("filter_started_at is after filter_ended_at")
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.createLegalHoldPolicyTx(hp)
	})
}

// createLegalHoldPolicyTx is the transaction of POST /legal_hold_policies
// (createLegalHoldPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) createLegalHoldPolicyTx(hp *legalHoldPolicy) (reply, *wire.Error) {
	if s.legalHoldPolicyNamed(hp.name, nil) != nil {
		return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "A legal hold policy with this name already exists")
	}
	hp.id = s.newID()
	hp.created = s.now()
	hp.createdAt = s.nowSec()
	hp.modifiedAt = hp.createdAt
	s.holds.policies[hp.id] = hp
	s.dirty(kHoldPolicies, hp.id)
	s.holds.policyOrder = append(s.holds.policyOrder, hp)
	return reply{http.StatusCreated, s.legalHoldPolicyRecord(hp)}, nil
}

// legalHoldPolicyRecord is the LegalHoldPolicy record. Callers hold s.mu.
func (s *state) legalHoldPolicyRecord(hp *legalHoldPolicy) map[string]any {
	counts := map[string]any{}
	for _, t := range holdTargetTypes {
		counts[t] = 0
	}
	now := s.now()
	for _, a := range s.holds.assignOrder {
		if a.policy == hp && !s.holdAssignmentGone(a, now) {
			counts[a.toType] = counts[a.toType].(int) + 1
		}
	}
	return map[string]any{
		"type": "legal_hold_policy", "id": hp.id,
		"policy_name":       hp.name,
		"description":       hp.description,
		"status":            s.holdStatus(hp),
		"assignment_counts": counts,
		"created_by":        hp.createdBy.mini(),
		"created_at":        fmtTime(hp.createdAt),
		"modified_at":       fmtTime(hp.modifiedAt),
		"deleted_at":        fmtTime(hp.released.Truncate(time.Second)),
		"filter_started_at": fmtTime(hp.filterStart),
		"filter_ended_at":   fmtTime(hp.filterEnd),
		"release_notes":     hp.releaseNotes,
	}
}

func (s *state) legalHoldPolicyByID(id string) (*legalHoldPolicy, *wire.Error) {
	return recordIn(s.holds.policies, id, "legal_hold_policy")
}

// getLegalHoldPolicy serves GET /legal_hold_policies/{id}.
func (s *Server) getLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	return getRecord(s, w, r, "id", s.legalHoldPolicyByID, s.legalHoldPolicyRecord)
}

// listLegalHoldPolicies serves GET /legal_hold_policies, marker-paged,
// filtered by policy_name (a case-insensitive prefix).
func (s *Server) listLegalHoldPolicies(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	prefix := strings.ToLower(r.URL.Query().Get("policy_name"))
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.listLegalHoldPoliciesTx(prefix, q, fields)
	})
}

// listLegalHoldPoliciesTx is the transaction of GET /legal_hold_policies
// (listLegalHoldPolicies): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) listLegalHoldPoliciesTx(prefix string, q wire.Page, fields []string) (reply, *wire.Error) {
	var list []*legalHoldPolicy
	for _, hp := range s.holds.policyOrder {
		if strings.HasPrefix(strings.ToLower(hp.name), prefix) {
			list = append(list, hp)
		}
	}
	return reply{http.StatusOK, wire.PositionEntries(list, q, func(hp *legalHoldPolicy) any {
		return pickFields(s.legalHoldPolicyRecord(hp), fields, "type", "id")
	})}, nil
}

// updateLegalHoldPolicy serves PUT /legal_hold_policies/{id}: 200
// LegalHoldPolicy; only policy_name, description and release_notes change
// (400 for anything else or a text too long); 409 conflict for a name taken.
func (s *Server) updateLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b legalHoldPolicyBody
	if aerr := wire.DecodeJSONObject(r.Body, &b, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if b.FilterStartedAt != nil || b.FilterEndedAt != nil || b.IsOngoing != nil {
		return wire.BadRequest("Only policy_name, description and release_notes can be changed")
	}
	if aerr := checkHoldText(&b); aerr != nil {
		return aerr
	}
	pathValue := r.PathValue("id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateLegalHoldPolicyTx(pathValue, b)
	})
}

// updateLegalHoldPolicyTx is the transaction of PUT /legal_hold_policies/{id}
// (updateLegalHoldPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) updateLegalHoldPolicyTx(pathValue string, b legalHoldPolicyBody) (reply, *wire.Error) {
	hp, aerr := s.legalHoldPolicyByID(pathValue)
	if aerr != nil {
		return reply{}, aerr
	}
	if b.PolicyName != nil && s.legalHoldPolicyNamed(*b.PolicyName, hp) != nil {
		return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "A legal hold policy with this name already exists")
	}
	if b.PolicyName != nil {
		hp.name = *b.PolicyName
	}
	if b.Description != nil {
		hp.description = *b.Description
	}
	if b.ReleaseNotes != nil {
		hp.releaseNotes = *b.ReleaseNotes
	}
	hp.modifiedAt = s.nowSec()
	s.dirty(kHoldPolicies, hp.id)
	return reply{http.StatusOK, s.legalHoldPolicyRecord(hp)}, nil
}

// releaseLegalHoldPolicy serves DELETE /legal_hold_policies/{id}: 202 with
// no body; the release runs in the background (releasing, then released,
// when the holds lift). Asking again is accepted again and changes nothing.
func (s *Server) releaseLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "id", http.StatusAccepted, s.legalHoldPolicyByID, s.releaseLegalHold)
}

// releaseLegalHold starts the release of hp (releasing, then released);
// a second release changes nothing. Callers hold mu.
func (s *state) releaseLegalHold(hp *legalHoldPolicy) *wire.Error {
	if hp.released.IsZero() {
		hp.released = s.now()
		s.dirty(kHoldPolicies, hp.id)
	}
	return nil
}
