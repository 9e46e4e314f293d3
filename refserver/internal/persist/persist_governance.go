package persist

import (
	"fmt"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// Records of retention policies, assignments and file version retentions,
// and of legal hold policies, assignments and file version legal holds.
// The lists are in id order, which is their creation order.

// recRetPolicy is a retention policy.
type recRetPolicy struct {
	Name, Description, PolicyType string
	Days                          int
	Disposition, RetentionType    string
	CanOwnerExtend                bool
	MaxExtension                  int
	OwnersNotified                bool
	Recipients                    []string
	Status, CreatedBy             string
	CreatedAt, ModifiedAt         time.Time
}

// RetPolicyKeys lists the ids of the retention policies, sorted.
func RetPolicyKeys(s *state.ReadTx) []string { return s.Retention.Policies.Keys() }

// RetPolicyRec is the record of retention policy id, false when it is
// gone.
func RetPolicyRec(s *state.ReadTx, id string) (recRetPolicy, bool) {
	rp, ok := s.Retention.Policies.Get(id)
	if !ok {
		return recRetPolicy{}, false
	}
	r := recRetPolicy{Name: rp.Name, Description: rp.Description, PolicyType: rp.PolicyType, Days: rp.Days,
		Disposition: rp.Disposition, RetentionType: rp.RetentionType, CanOwnerExtend: rp.CanOwnerExtend,
		MaxExtension: rp.MaxExtension, OwnersNotified: rp.OwnersNotified, Status: rp.Status,
		CreatedBy: userID(rp.CreatedBy), CreatedAt: utcTime(rp.CreatedAt), ModifiedAt: utcTime(rp.ModifiedAt)}
	if rp.Recipients != nil {
		r.Recipients = []string{}
	}
	for _, u := range rp.Recipients {
		r.Recipients = append(r.Recipients, u.ID)
	}
	return r, true
}

// LoadRetPolicy restores retention policy id (after the users it names).
func LoadRetPolicy(s *state.Tx, id string, r recRetPolicy) error {
	by, err := userByRef(&s.Users, r.CreatedBy)
	if err != nil {
		return err
	}
	rp := &state.RetentionPolicy{ID: id, Name: r.Name, Description: r.Description, PolicyType: r.PolicyType, Days: r.Days,
		Disposition: r.Disposition, RetentionType: r.RetentionType, CanOwnerExtend: r.CanOwnerExtend,
		MaxExtension: r.MaxExtension, OwnersNotified: r.OwnersNotified, Status: r.Status,
		CreatedBy: by, CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt}
	if r.Recipients != nil {
		if rp.Recipients, err = usersByRef(&s.Users, r.Recipients...); err != nil {
			return err
		}
	}
	s.Retention.Policies.Put(id, rp)
	return nil
}

// recRetAssignment is a retention policy assignment.
type recRetAssignment struct {
	Policy, ToType, ToID string
	FilterFields         []state.FilterField
	StartDateField, By   string
	At                   time.Time
}

// RetAssignmentKeys lists the ids of the retention policy assignments,
// sorted.
func RetAssignmentKeys(s *state.ReadTx) []string { return s.Retention.Assignments.Keys() }

// RetAssignmentRec is the record of retention assignment id, false when
// it is gone.
func RetAssignmentRec(s *state.ReadTx, id string) (recRetAssignment, bool) {
	a, ok := s.Retention.Assignments.Get(id)
	if !ok {
		return recRetAssignment{}, false
	}
	return recRetAssignment{Policy: a.Policy.ID, ToType: a.ToType, ToID: a.ToID, FilterFields: a.FilterFields,
		StartDateField: a.StartDateField, By: userID(a.By), At: utcTime(a.At)}, true
}

// LoadRetAssignment restores retention assignment id (after its policy).
func LoadRetAssignment(s *state.Tx, id string, r recRetAssignment) error {
	by, err := userByRef(&s.Users, r.By)
	if err != nil {
		return err
	}
	rp := s.Retention.Policies.At(r.Policy)
	if rp == nil {
		return fmt.Errorf("unknown retention policy %s", r.Policy)
	}
	s.Retention.Assignments.Put(id, &state.RetentionAssignment{ID: id, Policy: rp, ToType: r.ToType, ToID: r.ToID,
		FilterFields: r.FilterFields, StartDateField: r.StartDateField, By: by, At: r.At})
	return nil
}

// RecFVR is a file version retention; its sources are assignment ids with
// the time each applied.
type RecFVR struct {
	FileRef
	Sources map[string]time.Time
	Applied time.Time
}

// FvrKeys lists the ids of the file version retentions, sorted.
func FvrKeys(s *state.ReadTx) []string { return s.Retention.Fvrs.Keys() }

// FvrRec is the record of file version retention id (its file copied in
// once purged), false when it is gone.
func FvrRec(s *state.ReadTx, id string) (RecFVR, bool) {
	fvr, ok := s.Retention.Fvrs.Get(id)
	if !ok {
		return RecFVR{}, false
	}
	r := RecFVR{FileRef: EncodeFileRef(s, fvr.File, fvr.Version), Sources: map[string]time.Time{}, Applied: utcTime(fvr.Applied)}
	for a, at := range fvr.Sources {
		r.Sources[a.ID] = utcTime(at)
	}
	return r, true
}

// RetentionLoaded rebuilds the creation orders.
func RetentionLoaded(s *state.Tx) error {
	rs := &s.Retention
	rs.PolicyOrder = orderedByID(&rs.Policies, func(x *state.RetentionPolicy) string { return x.ID })
	rs.AssignOrder = orderedByID(&rs.Assignments, func(x *state.RetentionAssignment) string { return x.ID })
	rs.FvrOrder = orderedByID(&rs.Fvrs, func(x *state.FileVersionRetention) string { return x.ID })
	return nil
}

// recHoldPolicy is a legal hold policy.
type recHoldPolicy struct {
	Name, Description, ReleaseNotes string
	Ongoing                         bool
	FilterStart, FilterEnd          time.Time
	CreatedBy                       string
	CreatedAt, ModifiedAt           time.Time
	Created, Released               time.Time
}

// HoldPolicyKeys lists the ids of the legal hold policies, sorted.
func HoldPolicyKeys(s *state.ReadTx) []string { return s.Holds.Policies.Keys() }

// HoldPolicyRec is the record of legal hold policy id, false when it is
// gone.
func HoldPolicyRec(s *state.ReadTx, id string) (recHoldPolicy, bool) {
	hp, ok := s.Holds.Policies.Get(id)
	if !ok {
		return recHoldPolicy{}, false
	}
	return recHoldPolicy{Name: hp.Name, Description: hp.Description, ReleaseNotes: hp.ReleaseNotes, Ongoing: hp.Ongoing,
		FilterStart: utcTime(hp.FilterStart), FilterEnd: utcTime(hp.FilterEnd), CreatedBy: userID(hp.CreatedBy),
		CreatedAt: utcTime(hp.CreatedAt), ModifiedAt: utcTime(hp.ModifiedAt), Created: utcTime(hp.Created), Released: utcTime(hp.Released)}, true
}

// LoadHoldPolicy restores legal hold policy id (after its creator).
func LoadHoldPolicy(s *state.Tx, id string, r recHoldPolicy) error {
	by, err := userByRef(&s.Users, r.CreatedBy)
	if err != nil {
		return err
	}
	s.Holds.Policies.Put(id, &state.LegalHoldPolicy{ID: id, Name: r.Name, Description: r.Description, ReleaseNotes: r.ReleaseNotes,
		Ongoing: r.Ongoing, FilterStart: r.FilterStart, FilterEnd: r.FilterEnd, CreatedBy: by,
		CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt, Created: r.Created, Released: r.Released})
	return nil
}

// recHoldAssignment is a legal hold policy assignment.
type recHoldAssignment struct {
	Policy, ToType, ToID, By string
	At, Deleted              time.Time
}

// HoldAssignmentKeys lists the ids of the legal hold policy assignments,
// sorted.
func HoldAssignmentKeys(s *state.ReadTx) []string { return s.Holds.Assignments.Keys() }

// HoldAssignmentRec is the record of legal hold assignment id, false when
// it is gone.
func HoldAssignmentRec(s *state.ReadTx, id string) (recHoldAssignment, bool) {
	a, ok := s.Holds.Assignments.Get(id)
	if !ok {
		return recHoldAssignment{}, false
	}
	return recHoldAssignment{Policy: a.Policy.ID, ToType: a.ToType, ToID: a.ToID, By: userID(a.By), At: utcTime(a.At), Deleted: utcTime(a.Deleted)}, true
}

// LoadHoldAssignment restores legal hold assignment id (after its policy).
func LoadHoldAssignment(s *state.Tx, id string, r recHoldAssignment) error {
	by, err := userByRef(&s.Users, r.By)
	if err != nil {
		return err
	}
	hp := s.Holds.Policies.At(r.Policy)
	if hp == nil {
		return fmt.Errorf("unknown legal hold policy %s", r.Policy)
	}
	s.Holds.Assignments.Put(id, &state.LegalHoldAssignment{ID: id, Policy: hp, ToType: r.ToType, ToID: r.ToID, By: by, At: r.At, Deleted: r.Deleted})
	return nil
}

// RecHold is a file version legal hold; its sources are assignment ids in
// the order they came.
type RecHold struct {
	FileRef
	Sources []string
}

// HoldKeys lists the ids of the file version legal holds, sorted.
func HoldKeys(s *state.ReadTx) []string { return s.Holds.Holds.Keys() }

// HoldRec is the record of file version legal hold id (its file copied in
// once purged), false when it is gone.
func HoldRec(s *state.ReadTx, id string) (RecHold, bool) {
	h, ok := s.Holds.Holds.Get(id)
	if !ok {
		return RecHold{}, false
	}
	r := RecHold{FileRef: EncodeFileRef(s, h.File, h.Version), Sources: []string{}}
	for _, a := range h.Sources {
		r.Sources = append(r.Sources, a.ID)
	}
	return r, true
}

// HoldsLoaded rebuilds the creation orders.
func HoldsLoaded(s *state.Tx) error {
	hs := &s.Holds
	hs.PolicyOrder = orderedByID(&hs.Policies, func(x *state.LegalHoldPolicy) string { return x.ID })
	hs.AssignOrder = orderedByID(&hs.Assignments, func(x *state.LegalHoldAssignment) string { return x.ID })
	hs.HoldOrder = orderedByID(&hs.Holds, func(x *state.FileVersionLegalHold) string { return x.ID })
	s.Persist.Load.Purged = nil
	return nil
}
