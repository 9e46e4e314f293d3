package state

import (
	"strconv"
	"time"
)

// Retention policies (this file), their assignments
// (retention_assignments.go) and the file version retentions they create
// (retention_versions.go): their state and rules; the endpoints'
// transactions are in internal/governance. Only the enterprise admin may
// use them.
//
// Rules: a policy is finite (retention_length in days) or indefinite; a
// non_modifiable policy may not be shortened or made modifiable again (403:
// the two refusals the spec documents for PUT; its name, description,
// disposition and notifications may change, and it may be lengthened or
// retired), and neither it nor its assignments can be deleted. Retiring is one-way. A retired policy
// stops applying to new content, but what it already retains stays retained
// until its disposition date: retiring is allowed for non_modifiable
// policies, so it cannot be a way around them. A version under retention
// cannot be deleted for good before its disposition date.

// retentionState is the server's state for retention policies, assignments
// and file version retentions, reached only through a transaction.
type retentionState struct {
	Policies    Table[*RetentionPolicy]
	PolicyOrder []*RetentionPolicy // creation (id) order
	Assignments Table[*RetentionAssignment]
	AssignOrder []*RetentionAssignment
	Fvrs        Table[*FileVersionRetention]     // by id
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

// The wire values of a retention policy's policy_type, disposition_action,
// retention_type and status, and the longest description.
const (
	RetentionFinite         = "finite"
	RetentionIndefinite     = "indefinite"
	DispositionDelete       = "permanently_delete"
	DispositionRemove       = "remove_retention"
	RetentionModifiable     = "modifiable"
	RetentionNonModifiable  = "non_modifiable"
	RetentionStatusActive   = "active"
	RetentionStatusRetired  = "retired"
	MaxRetentionDescription = 500
)

// InitRetention prepares the state of retention policies, assignments and
// file version retentions; called by InitResources, and to empty the state
// before a restore.
func (s *Tx) InitRetention() {
	s.Retention = retentionState{
		Policies:    newTable[*RetentionPolicy](s.Env, KRetPolicies),
		Assignments: newTable[*RetentionAssignment](s.Env, KRetAssignments),
		Fvrs:        newTable[*FileVersionRetention](s.Env, KRetVersions),
		ByVersion:   map[string]*FileVersionRetention{},
	}
}

// LengthString is retention_length on the wire: days as a string, or "indefinite".
func (rp *RetentionPolicy) LengthString() string {
	if rp.PolicyType == RetentionIndefinite {
		return RetentionIndefinite
	}
	return strconv.Itoa(rp.Days)
}

// LongerOrEqual reports whether rp retains at least as long as other.
func (rp *RetentionPolicy) LongerOrEqual(other *RetentionPolicy) bool {
	if rp.PolicyType == RetentionIndefinite {
		return true
	}
	return other.PolicyType != RetentionIndefinite && rp.Days >= other.Days
}

// MaxExtensionString is max_extension_length on the wire: days as a string,
// or "none".
func (rp *RetentionPolicy) MaxExtensionString() string {
	if rp.MaxExtension == 0 {
		return "none"
	}
	return strconv.Itoa(rp.MaxExtension)
}
