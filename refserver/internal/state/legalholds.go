package state

import (
	"strings"
	"time"

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
	Policies    map[string]*LegalHoldPolicy
	PolicyOrder []*LegalHoldPolicy
	Assignments map[string]*LegalHoldAssignment
	AssignOrder []*LegalHoldAssignment
	Holds       map[string]*FileVersionLegalHold // by id
	ByVersion   map[string]*FileVersionLegalHold // by file version id
	HoldOrder   []*FileVersionLegalHold
}

// LegalHoldPolicy is one legal hold policy.
type LegalHoldPolicy struct {
	ID, Name, Description, ReleaseNotes string
	Ongoing                             bool
	FilterStart, FilterEnd              time.Time
	CreatedBy                           *User
	CreatedAt, ModifiedAt               time.Time // to the second, for the record
	Created                             time.Time // exact, for the status
	Released                            time.Time // exact time of the release request; zero = not released
}

const (
	holdApplying  = "applying"
	holdActive    = "active"
	holdReleasing = "releasing"
	holdReleased  = "released"

	MaxHoldPolicyName = 254
	MaxHoldText       = 500
)

// InitLegalHolds prepares the state of legal hold policies, assignments
// and file version legal holds; called once by newServer.
func (s *State) InitLegalHolds() {
	s.Holds = legalHoldState{
		Policies:    map[string]*LegalHoldPolicy{},
		Assignments: map[string]*LegalHoldAssignment{},
		Holds:       map[string]*FileVersionLegalHold{},
		ByVersion:   map[string]*FileVersionLegalHold{},
	}
}

// holdDelay is Options.LegalHoldReleaseDelay with its default.
func (s *State) holdDelay() time.Duration {
	switch d := s.Cfg.LegalHoldReleaseDelay; {
	case d < 0:
		return 0
	case d == 0:
		return defaultLegalHoldDelay
	default:
		return d
	}
}

// holdStatus is the status of a policy now.
func (s *State) holdStatus(hp *LegalHoldPolicy) string {
	now := s.Now()
	if !hp.Released.IsZero() {
		if now.Before(hp.Released.Add(s.holdDelay())) {
			return holdReleasing
		}
		return holdReleased
	}
	if now.Before(hp.Created.Add(s.holdDelay())) {
		return holdApplying
	}
	return holdActive
}

// LegalHoldPolicyBody is the body of POST and PUT /legal_hold_policies.
type LegalHoldPolicyBody struct {
	PolicyName      *string    `json:"policy_name"`
	Description     *string    `json:"description"`
	FilterStartedAt *time.Time `json:"filter_started_at"`
	FilterEndedAt   *time.Time `json:"filter_ended_at"`
	IsOngoing       *bool      `json:"is_ongoing"`
	ReleaseNotes    *string    `json:"release_notes"`
}

// legalHoldPolicyNamed finds a policy that is not released by name (names
// are unique ignoring case among policies not released), other than skip.
func (s *State) legalHoldPolicyNamed(name string, skip *LegalHoldPolicy) *LegalHoldPolicy {
	for _, hp := range s.Holds.PolicyOrder {
		if hp != skip && strings.EqualFold(hp.Name, name) && s.holdStatus(hp) != holdReleased {
			return hp
		}
	}
	return nil
}

// CreateLegalHoldPolicyTx is the transaction of POST /legal_hold_policies
// (createLegalHoldPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *State) CreateLegalHoldPolicyTx(hp *LegalHoldPolicy) (Reply, *wire.Error) {
	if s.legalHoldPolicyNamed(hp.Name, nil) != nil {
		return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A legal hold policy with this name already exists")
	}
	hp.ID = s.NewID()
	hp.Created = s.Now()
	hp.CreatedAt = s.NowSec()
	hp.ModifiedAt = hp.CreatedAt
	s.Holds.Policies[hp.ID] = hp
	s.Dirty(KHoldPolicies, hp.ID)
	s.Holds.PolicyOrder = append(s.Holds.PolicyOrder, hp)
	return Reply{wire.StatusCreated, s.LegalHoldPolicyRecord(hp)}, nil
}

// LegalHoldPolicyRecord is the LegalHoldPolicy record. Callers hold s.mu.
func (s *State) LegalHoldPolicyRecord(hp *LegalHoldPolicy) map[string]any {
	counts := map[string]any{}
	for _, t := range HoldTargetTypes {
		counts[t] = 0
	}
	now := s.Now()
	for _, a := range s.Holds.AssignOrder {
		if a.Policy == hp && !s.holdAssignmentGone(a, now) {
			counts[a.ToType] = counts[a.ToType].(int) + 1
		}
	}
	return map[string]any{
		"type": "legal_hold_policy", "id": hp.ID,
		"policy_name":       hp.Name,
		"description":       hp.Description,
		"status":            s.holdStatus(hp),
		"assignment_counts": counts,
		"created_by":        hp.CreatedBy.Mini(),
		"created_at":        FmtTime(hp.CreatedAt),
		"modified_at":       FmtTime(hp.ModifiedAt),
		"deleted_at":        FmtTime(hp.Released.Truncate(time.Second)),
		"filter_started_at": FmtTime(hp.FilterStart),
		"filter_ended_at":   FmtTime(hp.FilterEnd),
		"release_notes":     hp.ReleaseNotes,
	}
}

func (s *State) LegalHoldPolicyByID(id string) (*LegalHoldPolicy, *wire.Error) {
	return RecordIn(s.Holds.Policies, id, "legal_hold_policy")
}

// ListLegalHoldPoliciesTx is the transaction of GET /legal_hold_policies
// (listLegalHoldPolicies): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *State) ListLegalHoldPoliciesTx(prefix string, q wire.Page, fields []string) (Reply, *wire.Error) {
	var list []*LegalHoldPolicy
	for _, hp := range s.Holds.PolicyOrder {
		if strings.HasPrefix(strings.ToLower(hp.Name), prefix) {
			list = append(list, hp)
		}
	}
	return Reply{wire.StatusOK, wire.PositionEntries(list, q, func(hp *LegalHoldPolicy) any {
		return PickFields(s.LegalHoldPolicyRecord(hp), fields, "type", "id")
	})}, nil
}

// UpdateLegalHoldPolicyTx is the transaction of PUT /legal_hold_policies/{id}
// (updateLegalHoldPolicy): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *State) UpdateLegalHoldPolicyTx(pathValue string, b LegalHoldPolicyBody) (Reply, *wire.Error) {
	hp, aerr := s.LegalHoldPolicyByID(pathValue)
	if aerr != nil {
		return Reply{}, aerr
	}
	if b.PolicyName != nil && s.legalHoldPolicyNamed(*b.PolicyName, hp) != nil {
		return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A legal hold policy with this name already exists")
	}
	if b.PolicyName != nil {
		hp.Name = *b.PolicyName
	}
	if b.Description != nil {
		hp.Description = *b.Description
	}
	if b.ReleaseNotes != nil {
		hp.ReleaseNotes = *b.ReleaseNotes
	}
	hp.ModifiedAt = s.NowSec()
	s.Dirty(KHoldPolicies, hp.ID)
	return Reply{wire.StatusOK, s.LegalHoldPolicyRecord(hp)}, nil
}

// ReleaseLegalHold starts the release of hp (releasing, then released);
// a second release changes nothing. Callers hold mu.
func (s *State) ReleaseLegalHold(hp *LegalHoldPolicy) *wire.Error {
	if hp.Released.IsZero() {
		hp.Released = s.Now()
		s.Dirty(KHoldPolicies, hp.ID)
	}
	return nil
}
