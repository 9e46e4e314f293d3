package refserver

import (
	"net/http"
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// legalHoldAssignment puts a legal hold policy on a file, a file version, a
// folder (everything below it) or a user (custodian: "user" for the files
// the user can access — here the files they own —, "ownership" for the
// files they own, "interactions" for the versions they uploaded).
type legalHoldAssignment struct {
	id           string
	policy       *legalHoldPolicy
	toType, toID string
	by           *user
	at           time.Time // to the second
	deleted      time.Time // exact time of the delete request; zero = not deleted
}

// holdTargetTypes are the assign_to types, in the order of assignment_counts.
var holdTargetTypes = []string{"user", "folder", "file", "file_version", "ownership", "interactions"}

// holdAssignmentGone reports whether a deleted assignment has finished
// going away.
func (s *state) holdAssignmentGone(a *legalHoldAssignment, now time.Time) bool {
	return !a.deleted.IsZero() && !now.Before(a.deleted.Add(s.holdDelay()))
}

// holdAssignmentHolds reports whether a still holds what it covers: not
// gone, and its policy not released.
func (s *state) holdAssignmentHolds(a *legalHoldAssignment, now time.Time) bool {
	return !s.holdAssignmentGone(a, now) && s.holdStatus(a.policy) != holdReleased
}

// holdCovers reports whether assignment a covers version v of file f. The
// policy's filter dates limit the custodian assignments (user, ownership,
// interactions) to versions created in the range.
func (s *state) holdCovers(a *legalHoldAssignment, f *item, v *version) bool {
	hp := a.policy
	custodian := false
	switch a.toType {
	case "file":
		return f.id == a.toID
	case "file_version":
		return v.id == a.toID
	case "folder":
		return s.isUnder(f, a.toID)
	case "user", "ownership":
		custodian = f.owner != nil && f.owner.id == a.toID
	case "interactions":
		custodian = v.by != nil && v.by.id == a.toID
	}
	if !custodian {
		return false
	}
	return hp.filterStart.IsZero() || !v.createdAt.Before(hp.filterStart) && !v.createdAt.After(hp.filterEnd)
}

// legalHoldAssignmentBody is the body of POST /legal_hold_policy_assignments.
type legalHoldAssignmentBody struct {
	PolicyID *string `json:"policy_id"`
	AssignTo *struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"assign_to"`
}

// createLegalHoldAssignment serves POST /legal_hold_policy_assignments: 201
// LegalHoldPolicyAssignment; every file version it covers is held at once.
// 400 bad_request: missing policy_id or assign_to type/id, an unknown type,
// a policy releasing or released (no code in the spec). 404 not_found:
// unknown policy or target. 409 conflict: the policy is already assigned to
// the target (no code in the spec).
func (s *Server) createLegalHoldAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b legalHoldAssignmentBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	if b.PolicyID == nil || *b.PolicyID == "" {
		return wire.BadRequest("Missing required field: policy_id")
	}
	if b.AssignTo == nil || b.AssignTo.Type == nil || b.AssignTo.ID == nil || *b.AssignTo.ID == "" {
		return wire.BadRequest("Missing required field: assign_to.type and assign_to.id")
	}
	a := &legalHoldAssignment{toType: *b.AssignTo.Type, toID: *b.AssignTo.ID, by: p.user}
	if !slices.Contains(holdTargetTypes, a.toType) {
		return wire.BadRequest("assign_to.type must be file, file_version, folder, user, ownership or interactions")
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.createLegalHoldAssignmentTx(b, p, a)
	})
}

// createLegalHoldAssignmentTx is the transaction of POST
// /legal_hold_policy_assignments (createLegalHoldAssignment): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) createLegalHoldAssignmentTx(b legalHoldAssignmentBody, p *principal, a *legalHoldAssignment) (reply, *wire.Error) {
	hp, aerr := s.legalHoldPolicyByID(*b.PolicyID)
	if aerr != nil {
		return reply{}, aerr
	}
	if st := s.holdStatus(hp); st == holdReleasing || st == holdReleased {
		return reply{}, wire.BadRequest("The legal hold policy is %s", st)
	}
	if aerr := s.holdTargetExists(p, a.toType, a.toID); aerr != nil {
		return reply{}, aerr
	}
	now := s.now()
	for _, other := range s.holds.assignOrder {
		if other.policy == hp && other.toType == a.toType && other.toID == a.toID && other.deleted.IsZero() && !s.holdAssignmentGone(other, now) {
			return reply{}, wire.Errorf(http.StatusConflict, wire.CodeConflict, "The policy is already assigned to this %s", a.toType)
		}
	}
	a.policy = hp
	a.id = s.newID()
	a.at = s.nowSec()
	s.holds.assignments[a.id] = a
	s.dirty(kHoldAssignments, a.id)
	s.holds.assignOrder = append(s.holds.assignOrder, a)
	for _, f := range s.filesByID() {
		for _, v := range f.versions {
			if s.holdCovers(a, f, v) {
				s.holdVersion(f, v, a)
			}
		}
	}
	return reply{http.StatusCreated, s.legalHoldAssignmentRecord(a)}, nil
}

// holdTargetExists checks the target of an assignment: 404 not_found when
// there is no such file, version, folder or user.
func (s *state) holdTargetExists(p *principal, typ, id string) *wire.Error {
	switch typ {
	case "file", "folder":
		if !validID(id) || id == rootID {
			return wire.NotFound(typ)
		}
		_, aerr := s.lookup(p, typ, id)
		return aerr
	case "file_version":
		for _, it := range s.items {
			for _, v := range it.versions {
				if v.id == id {
					return nil
				}
			}
		}
		return wire.NotFound("file_version")
	default:
		if s.knownUser(id) == nil {
			return wire.NotFound("user")
		}
		return nil
	}
}

// legalHoldAssignmentRecord is the LegalHoldPolicyAssignment record.
func (s *state) legalHoldAssignmentRecord(a *legalHoldAssignment) map[string]any {
	return map[string]any{
		"type": "legal_hold_policy_assignment", "id": a.id,
		"legal_hold_policy": map[string]any{"type": "legal_hold_policy", "id": a.policy.id, "policy_name": a.policy.name},
		"assigned_to":       map[string]any{"type": a.toType, "id": a.toID},
		"assigned_by":       a.by.mini(),
		"assigned_at":       fmtTime(a.at),
		"deleted_at":        fmtTime(a.deleted.Truncate(time.Second)),
	}
}

// legalHoldAssignmentByID finds an assignment that is not gone: 404 otherwise.
func (s *state) legalHoldAssignmentByID(id string) (*legalHoldAssignment, *wire.Error) {
	a, ok := s.holds.assignments[id]
	if !ok || s.holdAssignmentGone(a, s.now()) {
		return nil, wire.NotFound("legal_hold_policy_assignment")
	}
	return a, nil
}

// getLegalHoldAssignment serves GET /legal_hold_policy_assignments/{id}.
func (s *Server) getLegalHoldAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	return getRecord(s, w, r, "id", s.legalHoldAssignmentByID, func(a *legalHoldAssignment) map[string]any {
		return pickFields(s.legalHoldAssignmentRecord(a), fields, "type", "id")
	})
}

// listLegalHoldAssignments serves GET /legal_hold_policy_assignments,
// marker-paged: policy_id is required (400), unknown is 404; assign_to_type
// (400 for an unknown type) and assign_to_id filter.
func (s *Server) listLegalHoldAssignments(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	query := r.URL.Query()
	policyID, typ, toID := query.Get("policy_id"), query.Get("assign_to_type"), query.Get("assign_to_id")
	if policyID == "" {
		return wire.BadRequest("Missing required parameter: policy_id")
	}
	if typ != "" && !slices.Contains(holdTargetTypes, typ) {
		return wire.BadRequest("assign_to_type must be file, file_version, folder, user, ownership or interactions")
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.listLegalHoldAssignmentsTx(policyID, typ, toID, q, fields)
	})
}

// listLegalHoldAssignmentsTx is the transaction of GET
// /legal_hold_policy_assignments (listLegalHoldAssignments): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) listLegalHoldAssignmentsTx(policyID string, typ string, toID string, q wire.Page, fields []string) (reply, *wire.Error) {
	hp, aerr := s.legalHoldPolicyByID(policyID)
	if aerr != nil {
		return reply{}, aerr
	}
	now := s.now()
	var list []*legalHoldAssignment
	for _, a := range s.holds.assignOrder {
		if a.policy == hp && !s.holdAssignmentGone(a, now) && (typ == "" || a.toType == typ) && (toID == "" || a.toID == toID) {
			list = append(list, a)
		}
	}
	return reply{http.StatusOK, wire.PositionEntries(list, q, func(a *legalHoldAssignment) any {
		return pickFields(s.legalHoldAssignmentRecord(a), fields, "type", "id")
	})}, nil
}

// deleteLegalHoldAssignment serves DELETE /legal_hold_policy_assignments/{id}:
// 202 with no body; the assignment keeps holding, listed with deleted_at,
// until it is gone. Asking again is accepted again and changes nothing.
func (s *Server) deleteLegalHoldAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "id", http.StatusAccepted, s.legalHoldAssignmentByID, s.removeLegalHoldAssignment)
}

// removeLegalHoldAssignment starts the deletion of a (it stays listed for
// LegalHoldReleaseDelay); a second delete changes nothing. Callers hold mu.
func (s *state) removeLegalHoldAssignment(a *legalHoldAssignment) *wire.Error {
	if a.deleted.IsZero() {
		a.deleted = s.now()
		s.dirty(kHoldAssignments, a.id)
	}
	return nil
}
