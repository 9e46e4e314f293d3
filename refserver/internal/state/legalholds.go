package state

import (
	"time"
)

// Legal hold policies (this file), their assignments
// (legalhold_assignments.go) and the file version legal holds they create
// (legalhold_versions.go): their state and rules; the endpoints'
// transactions are in internal/governance. Only the enterprise admin may
// use them.
//
// Lifecycle: a new policy is "applying", then "active"; DELETE releases it
// (202): "releasing", then "released", when its holds lift. A deleted
// assignment (202) stays listed, with deleted_at, until it is gone. Each
// transition takes Options.LegalHoldReleaseDelay on the server clock and is
// computed when the record is read. No member of a policy body is wire.Nullable
// in the spec: a null is 400 bad_request (wire.DecodeJSONObject), not "absent".

// legalHoldState is the server's state for legal hold policies,
// assignments and file version legal holds, reached only through a transaction.
type legalHoldState struct {
	Policies    Table[*LegalHoldPolicy]
	PolicyOrder []*LegalHoldPolicy
	Assignments Table[*LegalHoldAssignment]
	AssignOrder []*LegalHoldAssignment
	Holds       Table[*FileVersionLegalHold]     // by id
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

// The statuses of a legal hold policy, and the longest name and
// description (or release notes) the service takes.
const (
	holdApplying  = "applying"
	holdActive    = "active"
	HoldReleasing = "releasing"
	HoldReleased  = "released"

	MaxHoldPolicyName = 254
	MaxHoldText       = 500
)

// InitLegalHolds prepares the state of legal hold policies, assignments
// and file version legal holds; called by InitResources, and to empty the
// state before a restore.
func (s *Tx) InitLegalHolds() {
	s.Holds = legalHoldState{
		Policies:    newTable[*LegalHoldPolicy](s.Env, KHoldPolicies),
		Assignments: newTable[*LegalHoldAssignment](s.Env, KHoldAssignments),
		Holds:       newTable[*FileVersionLegalHold](s.Env, KHoldVersions),
		ByVersion:   map[string]*FileVersionLegalHold{},
	}
}

// holdDelay is Options.LegalHoldReleaseDelay with its default.
func (s *Tx) holdDelay() time.Duration {
	switch d := s.Cfg.LegalHoldReleaseDelay; {
	case d < 0:
		return 0
	case d == 0:
		return defaultLegalHoldDelay
	default:
		return d
	}
}

// HoldStatus is the status of a policy now.
func (s *Tx) HoldStatus(hp *LegalHoldPolicy) string {
	now := s.Now()
	if !hp.Released.IsZero() {
		if now.Before(hp.Released.Add(s.holdDelay())) {
			return HoldReleasing
		}
		return HoldReleased
	}
	if now.Before(hp.Created.Add(s.holdDelay())) {
		return holdApplying
	}
	return holdActive
}
