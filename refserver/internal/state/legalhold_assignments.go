package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// LegalHoldAssignment puts a legal hold policy on a file, a file version, a
// folder (everything below it) or a user (custodian: "user" for the files
// the user can access — here the files they own —, "ownership" for the
// files they own, "interactions" for the versions they uploaded).
type LegalHoldAssignment struct {
	ID           string
	Policy       *LegalHoldPolicy
	ToType, ToID string
	By           *User
	At           time.Time // to the second
	Deleted      time.Time // exact time of the delete request; zero = not deleted
}

// holdTargetTypes are the assign_to types, in the order of assignment_counts.
var HoldTargetTypes = []string{"user", "folder", "file", "file_version", "ownership", "interactions"}

// holdAssignmentGone reports whether a deleted assignment has finished
// going away.
func (s *State) holdAssignmentGone(a *LegalHoldAssignment, now time.Time) bool {
	return !a.Deleted.IsZero() && !now.Before(a.Deleted.Add(s.holdDelay()))
}

// holdAssignmentHolds reports whether a still holds what it covers: not
// gone, and its policy not released.
func (s *State) holdAssignmentHolds(a *LegalHoldAssignment, now time.Time) bool {
	return !s.holdAssignmentGone(a, now) && s.holdStatus(a.Policy) != holdReleased
}

// holdCovers reports whether assignment a covers version v of file f. The
// policy's filter dates limit the custodian assignments (user, ownership,
// interactions) to versions created in the range.
func (s *State) holdCovers(a *LegalHoldAssignment, f *Item, v *Version) bool {
	hp := a.Policy
	custodian := false
	switch a.ToType {
	case "file":
		return f.ID == a.ToID
	case "file_version":
		return v.ID == a.ToID
	case "folder":
		return s.IsUnder(f, a.ToID)
	case "user", "ownership":
		custodian = f.Owner != nil && f.Owner.ID == a.ToID
	case "interactions":
		custodian = v.By != nil && v.By.ID == a.ToID
	}
	if !custodian {
		return false
	}
	return hp.FilterStart.IsZero() || !v.CreatedAt.Before(hp.FilterStart) && !v.CreatedAt.After(hp.FilterEnd)
}

// LegalHoldAssignmentBody is the body of POST /legal_hold_policy_assignments.
type LegalHoldAssignmentBody struct {
	PolicyID *string `json:"policy_id"`
	AssignTo *struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"assign_to"`
}

// CreateLegalHoldAssignmentTx is the transaction of POST
// /legal_hold_policy_assignments (createLegalHoldAssignment): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *State) CreateLegalHoldAssignmentTx(b LegalHoldAssignmentBody, p *Principal, a *LegalHoldAssignment) (Reply, *wire.Error) {
	hp, aerr := s.LegalHoldPolicyByID(*b.PolicyID)
	if aerr != nil {
		return Reply{}, aerr
	}
	if st := s.holdStatus(hp); st == holdReleasing || st == holdReleased {
		return Reply{}, wire.BadRequest("The legal hold policy is %s", st)
	}
	if aerr := s.holdTargetExists(p, a.ToType, a.ToID); aerr != nil {
		return Reply{}, aerr
	}
	now := s.Now()
	for _, other := range s.Holds.AssignOrder {
		if other.Policy == hp && other.ToType == a.ToType && other.ToID == a.ToID && other.Deleted.IsZero() && !s.holdAssignmentGone(other, now) {
			return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "The policy is already assigned to this %s", a.ToType)
		}
	}
	a.Policy = hp
	a.ID = s.NewID()
	a.At = s.NowSec()
	s.Holds.Assignments[a.ID] = a
	s.Dirty(KHoldAssignments, a.ID)
	s.Holds.AssignOrder = append(s.Holds.AssignOrder, a)
	for _, f := range s.filesByID() {
		for _, v := range f.Versions {
			if s.holdCovers(a, f, v) {
				s.holdVersion(f, v, a)
			}
		}
	}
	return Reply{wire.StatusCreated, s.LegalHoldAssignmentRecord(a)}, nil
}

// holdTargetExists checks the target of an assignment: 404 not_found when
// there is no such file, version, folder or user.
func (s *State) holdTargetExists(p *Principal, typ, id string) *wire.Error {
	switch typ {
	case "file", "folder":
		if !ValidID(id) || id == RootID {
			return wire.NotFound(typ)
		}
		_, aerr := s.Lookup(p, typ, id)
		return aerr
	case "file_version":
		for _, it := range s.Items {
			for _, v := range it.Versions {
				if v.ID == id {
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

// LegalHoldAssignmentRecord is the LegalHoldPolicyAssignment record.
func (s *State) LegalHoldAssignmentRecord(a *LegalHoldAssignment) map[string]any {
	return map[string]any{
		"type": "legal_hold_policy_assignment", "id": a.ID,
		"legal_hold_policy": map[string]any{"type": "legal_hold_policy", "id": a.Policy.ID, "policy_name": a.Policy.Name},
		"assigned_to":       map[string]any{"type": a.ToType, "id": a.ToID},
		"assigned_by":       a.By.Mini(),
		"assigned_at":       FmtTime(a.At),
		"deleted_at":        FmtTime(a.Deleted.Truncate(time.Second)),
	}
}

// LegalHoldAssignmentByID finds an assignment that is not gone: 404 otherwise.
func (s *State) LegalHoldAssignmentByID(id string) (*LegalHoldAssignment, *wire.Error) {
	a, ok := s.Holds.Assignments[id]
	if !ok || s.holdAssignmentGone(a, s.Now()) {
		return nil, wire.NotFound("legal_hold_policy_assignment")
	}
	return a, nil
}

// ListLegalHoldAssignmentsTx is the transaction of GET
// /legal_hold_policy_assignments (listLegalHoldAssignments): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *State) ListLegalHoldAssignmentsTx(policyID string, typ string, toID string, q wire.Page, fields []string) (Reply, *wire.Error) {
	hp, aerr := s.LegalHoldPolicyByID(policyID)
	if aerr != nil {
		return Reply{}, aerr
	}
	now := s.Now()
	var list []*LegalHoldAssignment
	for _, a := range s.Holds.AssignOrder {
		if a.Policy == hp && !s.holdAssignmentGone(a, now) && (typ == "" || a.ToType == typ) && (toID == "" || a.ToID == toID) {
			list = append(list, a)
		}
	}
	return Reply{wire.StatusOK, wire.PositionEntries(list, q, func(a *LegalHoldAssignment) any {
		return PickFields(s.LegalHoldAssignmentRecord(a), fields, "type", "id")
	})}, nil
}

// RemoveLegalHoldAssignment starts the deletion of a (it stays listed for
// LegalHoldReleaseDelay); a second delete changes nothing. Callers hold mu.
func (s *State) RemoveLegalHoldAssignment(a *LegalHoldAssignment) *wire.Error {
	if a.Deleted.IsZero() {
		a.Deleted = s.Now()
		s.Dirty(KHoldAssignments, a.ID)
	}
	return nil
}
