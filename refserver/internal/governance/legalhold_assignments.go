package governance

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// HoldTargetTypes are the assign_to types, in the order of assignment_counts.
var HoldTargetTypes = []string{"user", "folder", "file", "file_version", "ownership", "interactions"}

// LegalHoldAssignmentBody is the body of POST /legal_hold_policy_assignments.
type LegalHoldAssignmentBody struct {
	PolicyID *string `json:"policy_id"`
	AssignTo *struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"assign_to"`
}

// CreateLegalHoldAssignment serves POST /legal_hold_policy_assignments
// (refserver's createLegalHoldAssignment): a (target checked) puts the
// policy on its target and holds every version it covers now; 400 for a
// policy releasing or released, 409 for the same target twice. 201 with
// its record.
func CreateLegalHoldAssignment(s *state.Tx, b LegalHoldAssignmentBody, p *state.Principal, a *state.LegalHoldAssignment) (state.Reply, *wire.Error) {
	hp, aerr := LegalHoldPolicyByID(s, *b.PolicyID)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	if st := s.HoldStatus(hp); st == state.HoldReleasing || st == state.HoldReleased {
		return state.Reply{}, wire.BadRequest("The legal hold policy is %s", st)
	}
	if aerr := HoldTargetExists(s, p, a.ToType, a.ToID); aerr != nil {
		return state.Reply{}, aerr
	}
	now := s.Now()
	for _, other := range s.Holds.AssignOrder {
		if other.Policy == hp && other.ToType == a.ToType && other.ToID == a.ToID && other.Deleted.IsZero() && !s.HoldAssignmentGone(other, now) {
			return state.Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "The policy is already assigned to this %s", a.ToType)
		}
	}
	a.Policy = hp
	a.ID = s.NewID()
	a.At = s.NowSec()
	s.Holds.Assignments.Put(a.ID, a)
	s.Holds.AssignOrder = append(s.Holds.AssignOrder, a)
	for _, f := range FilesByID(s) {
		for _, v := range f.Versions {
			if s.HoldCovers(a, f, v) {
				s.HoldVersion(f, v, a)
			}
		}
	}
	return state.Reply{Status: wire.StatusCreated, Body: LegalHoldAssignmentRecord(s, a)}, nil
}

// HoldTargetExists checks the target of an assignment: 404 not_found when
// there is no such file, version, folder or user.
func HoldTargetExists(s *state.Tx, p *state.Principal, typ, id string) *wire.Error {
	switch typ {
	case "file", "folder":
		if !state.ValidID(id) || id == state.RootID {
			return wire.NotFound(typ)
		}
		_, aerr := s.Lookup(p, typ, id)
		return aerr
	case "file_version":
		for _, it := range s.Items.All() {
			for _, v := range it.Versions {
				if v.ID == id {
					return nil
				}
			}
		}
		return wire.NotFound("file_version")
	default:
		if KnownUser(s, id) == nil {
			return wire.NotFound("user")
		}
		return nil
	}
}

// LegalHoldAssignmentRecord is the LegalHoldPolicyAssignment record.
func LegalHoldAssignmentRecord(s *state.Tx, a *state.LegalHoldAssignment) map[string]any {
	return map[string]any{
		"type": "legal_hold_policy_assignment", "id": a.ID,
		"legal_hold_policy": map[string]any{"type": "legal_hold_policy", "id": a.Policy.ID, "policy_name": a.Policy.Name},
		"assigned_to":       map[string]any{"type": a.ToType, "id": a.ToID},
		"assigned_by":       a.By.Mini(),
		"assigned_at":       state.FmtTime(a.At),
		"deleted_at":        state.FmtTime(a.Deleted.Truncate(time.Second)),
	}
}

// LegalHoldAssignmentByID finds an assignment that is not gone: 404 otherwise.
func LegalHoldAssignmentByID(s *state.Tx, id string) (*state.LegalHoldAssignment, *wire.Error) {
	a, ok := s.Holds.Assignments.Get(id)
	if !ok || s.HoldAssignmentGone(a, s.Now()) {
		return nil, wire.NotFound("legal_hold_policy_assignment")
	}
	return a, nil
}

// ListLegalHoldAssignments serves GET /legal_hold_policy_assignments
// (listLegalHoldAssignments): a marker page of the policy's assignments
// not gone, of type typ and target toID when given.
func ListLegalHoldAssignments(s *state.Tx, policyID string, typ string, toID string, q wire.Page, fields []string) (state.Reply, *wire.Error) {
	hp, aerr := LegalHoldPolicyByID(s, policyID)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	now := s.Now()
	var list []*state.LegalHoldAssignment
	for _, a := range s.Holds.AssignOrder {
		if a.Policy == hp && !s.HoldAssignmentGone(a, now) && (typ == "" || a.ToType == typ) && (toID == "" || a.ToID == toID) {
			list = append(list, a)
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(a *state.LegalHoldAssignment) any {
		return state.PickFields(LegalHoldAssignmentRecord(s, a), fields, "type", "id")
	})}, nil
}

// RemoveLegalHoldAssignment starts the deletion of a (it stays listed for
// LegalHoldReleaseDelay); a second delete changes nothing.
func RemoveLegalHoldAssignment(s *state.Tx, a *state.LegalHoldAssignment) *wire.Error {
	if a.Deleted.IsZero() {
		s.Holds.Assignments.Update(a.ID, func(a *state.LegalHoldAssignment) { a.Deleted = s.Now() })
	}
	return nil
}
