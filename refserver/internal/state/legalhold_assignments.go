package state

import (
	"time"
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

// HoldAssignmentGone reports whether a deleted assignment has finished
// going away.
func (s *Tx) HoldAssignmentGone(a *LegalHoldAssignment, now time.Time) bool {
	return !a.Deleted.IsZero() && !now.Before(a.Deleted.Add(s.holdDelay()))
}

// HoldAssignmentHolds reports whether a still holds what it covers: not
// gone, and its policy not released.
func (s *Tx) HoldAssignmentHolds(a *LegalHoldAssignment, now time.Time) bool {
	return !s.HoldAssignmentGone(a, now) && s.HoldStatus(a.Policy) != HoldReleased
}

// HoldCovers reports whether assignment a covers version v of file f. The
// policy's filter dates limit the custodian assignments (user, ownership,
// interactions) to versions created in the range.
func (s *Tx) HoldCovers(a *LegalHoldAssignment, f *Item, v *Version) bool {
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
	return hp.FilterStart.IsZero() || !v.CreatedAt().Before(hp.FilterStart) && !v.CreatedAt().After(hp.FilterEnd)
}
