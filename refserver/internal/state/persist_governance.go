package state

import (
	"fmt"
	"time"
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

func (s *State) RetPolicyKeys() []string { return SortedKeys(s.Retention.policies) }

func (s *State) RetPolicyRec(id string) (recRetPolicy, bool) {
	rp, ok := s.Retention.policies[id]
	if !ok {
		return recRetPolicy{}, false
	}
	r := recRetPolicy{Name: rp.Name, Description: rp.Description, PolicyType: rp.PolicyType, Days: rp.Days,
		Disposition: rp.Disposition, RetentionType: rp.RetentionType, CanOwnerExtend: rp.CanOwnerExtend,
		MaxExtension: rp.MaxExtension, OwnersNotified: rp.OwnersNotified, Status: rp.Status,
		CreatedBy: Uid(rp.CreatedBy), CreatedAt: Utc(rp.createdAt), ModifiedAt: Utc(rp.ModifiedAt)}
	if rp.Recipients != nil {
		r.Recipients = []string{}
	}
	for _, u := range rp.Recipients {
		r.Recipients = append(r.Recipients, u.ID)
	}
	return r, true
}

func (s *State) LoadRetPolicy(id string, r recRetPolicy) error {
	by, err := s.UserByRef(r.CreatedBy)
	if err != nil {
		return err
	}
	rp := &RetentionPolicy{ID: id, Name: r.Name, Description: r.Description, PolicyType: r.PolicyType, Days: r.Days,
		Disposition: r.Disposition, RetentionType: r.RetentionType, CanOwnerExtend: r.CanOwnerExtend,
		MaxExtension: r.MaxExtension, OwnersNotified: r.OwnersNotified, Status: r.Status,
		CreatedBy: by, createdAt: r.CreatedAt, ModifiedAt: r.ModifiedAt}
	if r.Recipients != nil {
		if rp.Recipients, err = s.UsersByRef(r.Recipients...); err != nil {
			return err
		}
	}
	s.Retention.policies[id] = rp
	return nil
}

// recRetAssignment is a retention policy assignment.
type recRetAssignment struct {
	Policy, ToType, ToID string
	FilterFields         []filterField
	StartDateField, By   string
	At                   time.Time
}

func (s *State) RetAssignmentKeys() []string { return SortedKeys(s.Retention.Assignments) }

func (s *State) RetAssignmentRec(id string) (recRetAssignment, bool) {
	a, ok := s.Retention.Assignments[id]
	if !ok {
		return recRetAssignment{}, false
	}
	return recRetAssignment{Policy: a.Policy.ID, ToType: a.ToType, ToID: a.ToID, FilterFields: a.FilterFields,
		StartDateField: a.StartDateField, By: Uid(a.By), At: Utc(a.at)}, true
}

func (s *State) LoadRetAssignment(id string, r recRetAssignment) error {
	by, err := s.UserByRef(r.By)
	if err != nil {
		return err
	}
	rp := s.Retention.policies[r.Policy]
	if rp == nil {
		return fmt.Errorf("unknown retention policy %s", r.Policy)
	}
	s.Retention.Assignments[id] = &RetentionAssignment{ID: id, Policy: rp, ToType: r.ToType, ToID: r.ToID,
		FilterFields: r.FilterFields, StartDateField: r.StartDateField, By: by, at: r.At}
	return nil
}

// RecFVR is a file version retention; its sources are assignment ids with
// the time each applied.
type RecFVR struct {
	FileRef
	Sources map[string]time.Time
	Applied time.Time
}

func (s *State) FvrKeys() []string { return SortedKeys(s.Retention.Fvrs) }

func (s *State) FvrRec(id string) (RecFVR, bool) {
	fvr, ok := s.Retention.Fvrs[id]
	if !ok {
		return RecFVR{}, false
	}
	r := RecFVR{FileRef: s.encodeFileRef(fvr.File, fvr.Version), Sources: map[string]time.Time{}, Applied: Utc(fvr.Applied)}
	for a, at := range fvr.Sources {
		r.Sources[a.ID] = Utc(at)
	}
	return r, true
}

// RetentionLoaded rebuilds the creation orders.
func (s *State) RetentionLoaded() error {
	rs := &s.Retention
	rs.PolicyOrder = orderedByID(rs.policies, func(x *RetentionPolicy) string { return x.ID })
	rs.AssignOrder = orderedByID(rs.Assignments, func(x *RetentionAssignment) string { return x.ID })
	rs.FvrOrder = orderedByID(rs.Fvrs, func(x *FileVersionRetention) string { return x.ID })
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

func (s *State) HoldPolicyKeys() []string { return SortedKeys(s.Holds.policies) }

func (s *State) HoldPolicyRec(id string) (recHoldPolicy, bool) {
	hp, ok := s.Holds.policies[id]
	if !ok {
		return recHoldPolicy{}, false
	}
	return recHoldPolicy{Name: hp.Name, Description: hp.Description, ReleaseNotes: hp.ReleaseNotes, Ongoing: hp.Ongoing,
		FilterStart: Utc(hp.FilterStart), FilterEnd: Utc(hp.FilterEnd), CreatedBy: Uid(hp.CreatedBy),
		CreatedAt: Utc(hp.createdAt), ModifiedAt: Utc(hp.modifiedAt), Created: Utc(hp.created), Released: Utc(hp.Released)}, true
}

func (s *State) LoadHoldPolicy(id string, r recHoldPolicy) error {
	by, err := s.UserByRef(r.CreatedBy)
	if err != nil {
		return err
	}
	s.Holds.policies[id] = &LegalHoldPolicy{ID: id, Name: r.Name, Description: r.Description, ReleaseNotes: r.ReleaseNotes,
		Ongoing: r.Ongoing, FilterStart: r.FilterStart, FilterEnd: r.FilterEnd, CreatedBy: by,
		createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt, created: r.Created, Released: r.Released}
	return nil
}

// recHoldAssignment is a legal hold policy assignment.
type recHoldAssignment struct {
	Policy, ToType, ToID, By string
	At, Deleted              time.Time
}

func (s *State) HoldAssignmentKeys() []string { return SortedKeys(s.Holds.Assignments) }

func (s *State) HoldAssignmentRec(id string) (recHoldAssignment, bool) {
	a, ok := s.Holds.Assignments[id]
	if !ok {
		return recHoldAssignment{}, false
	}
	return recHoldAssignment{Policy: a.Policy.ID, ToType: a.ToType, ToID: a.ToID, By: Uid(a.By), At: Utc(a.at), Deleted: Utc(a.Deleted)}, true
}

func (s *State) LoadHoldAssignment(id string, r recHoldAssignment) error {
	by, err := s.UserByRef(r.By)
	if err != nil {
		return err
	}
	hp := s.Holds.policies[r.Policy]
	if hp == nil {
		return fmt.Errorf("unknown legal hold policy %s", r.Policy)
	}
	s.Holds.Assignments[id] = &LegalHoldAssignment{ID: id, Policy: hp, ToType: r.ToType, ToID: r.ToID, By: by, at: r.At, Deleted: r.Deleted}
	return nil
}

// RecHold is a file version legal hold; its sources are assignment ids in
// the order they came.
type RecHold struct {
	FileRef
	Sources []string
}

func (s *State) HoldKeys() []string { return SortedKeys(s.Holds.Holds) }

func (s *State) HoldRec(id string) (RecHold, bool) {
	h, ok := s.Holds.Holds[id]
	if !ok {
		return RecHold{}, false
	}
	r := RecHold{FileRef: s.encodeFileRef(h.File, h.Version), Sources: []string{}}
	for _, a := range h.Sources {
		r.Sources = append(r.Sources, a.ID)
	}
	return r, true
}

// HoldsLoaded rebuilds the creation orders.
func (s *State) HoldsLoaded() error {
	hs := &s.Holds
	hs.PolicyOrder = orderedByID(hs.policies, func(x *LegalHoldPolicy) string { return x.ID })
	hs.AssignOrder = orderedByID(hs.Assignments, func(x *LegalHoldAssignment) string { return x.ID })
	hs.HoldOrder = orderedByID(hs.Holds, func(x *FileVersionLegalHold) string { return x.ID })
	s.Persist.Load.Purged = nil
	return nil
}
