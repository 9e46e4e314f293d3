package refserver

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

func (s *state) retPolicyKeys() []string { return sortedKeys(s.retention.policies) }

func (s *state) retPolicyRec(id string) (recRetPolicy, bool) {
	rp, ok := s.retention.policies[id]
	if !ok {
		return recRetPolicy{}, false
	}
	r := recRetPolicy{Name: rp.name, Description: rp.description, PolicyType: rp.policyType, Days: rp.days,
		Disposition: rp.disposition, RetentionType: rp.retentionType, CanOwnerExtend: rp.canOwnerExtend,
		MaxExtension: rp.maxExtension, OwnersNotified: rp.ownersNotified, Status: rp.status,
		CreatedBy: uid(rp.createdBy), CreatedAt: utc(rp.createdAt), ModifiedAt: utc(rp.modifiedAt)}
	if rp.recipients != nil {
		r.Recipients = []string{}
	}
	for _, u := range rp.recipients {
		r.Recipients = append(r.Recipients, u.id)
	}
	return r, true
}

func (s *state) loadRetPolicy(id string, r recRetPolicy) error {
	by, err := s.userByRef(r.CreatedBy)
	if err != nil {
		return err
	}
	rp := &retentionPolicy{id: id, name: r.Name, description: r.Description, policyType: r.PolicyType, days: r.Days,
		disposition: r.Disposition, retentionType: r.RetentionType, canOwnerExtend: r.CanOwnerExtend,
		maxExtension: r.MaxExtension, ownersNotified: r.OwnersNotified, status: r.Status,
		createdBy: by, createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt}
	if r.Recipients != nil {
		if rp.recipients, err = s.usersByRef(r.Recipients...); err != nil {
			return err
		}
	}
	s.retention.policies[id] = rp
	return nil
}

// recRetAssignment is a retention policy assignment.
type recRetAssignment struct {
	Policy, ToType, ToID string
	FilterFields         []filterField
	StartDateField, By   string
	At                   time.Time
}

func (s *state) retAssignmentKeys() []string { return sortedKeys(s.retention.assignments) }

func (s *state) retAssignmentRec(id string) (recRetAssignment, bool) {
	a, ok := s.retention.assignments[id]
	if !ok {
		return recRetAssignment{}, false
	}
	return recRetAssignment{Policy: a.policy.id, ToType: a.toType, ToID: a.toID, FilterFields: a.filterFields,
		StartDateField: a.startDateField, By: uid(a.by), At: utc(a.at)}, true
}

func (s *state) loadRetAssignment(id string, r recRetAssignment) error {
	by, err := s.userByRef(r.By)
	if err != nil {
		return err
	}
	rp := s.retention.policies[r.Policy]
	if rp == nil {
		return fmt.Errorf("unknown retention policy %s", r.Policy)
	}
	s.retention.assignments[id] = &retentionAssignment{id: id, policy: rp, toType: r.ToType, toID: r.ToID,
		filterFields: r.FilterFields, startDateField: r.StartDateField, by: by, at: r.At}
	return nil
}

// recFVR is a file version retention; its sources are assignment ids with
// the time each applied.
type recFVR struct {
	fileRef
	Sources map[string]time.Time
	Applied time.Time
}

func (s *state) fvrKeys() []string { return sortedKeys(s.retention.fvrs) }

func (s *state) fvrRec(id string) (recFVR, bool) {
	fvr, ok := s.retention.fvrs[id]
	if !ok {
		return recFVR{}, false
	}
	r := recFVR{fileRef: s.encodeFileRef(fvr.file, fvr.version), Sources: map[string]time.Time{}, Applied: utc(fvr.applied)}
	for a, at := range fvr.sources {
		r.Sources[a.id] = utc(at)
	}
	return r, true
}

func (s *Server) loadFVR(id string, r recFVR) error {
	f, v, err := s.decodeFileRef(r.fileRef, s.persist.load.purged)
	if err != nil {
		return err
	}
	fvr := &fileVersionRetention{id: id, file: f, version: v, sources: map[*retentionAssignment]time.Time{}, applied: r.Applied}
	for aid, at := range r.Sources {
		a := s.retention.assignments[aid]
		if a == nil {
			return fmt.Errorf("unknown retention assignment %s", aid)
		}
		fvr.sources[a] = at
	}
	s.retention.fvrs[id] = fvr
	s.retention.byVersion[v.id] = fvr
	return nil
}

// retentionLoaded rebuilds the creation orders.
func (s *state) retentionLoaded() error {
	rs := &s.retention
	rs.policyOrder = orderedByID(rs.policies, func(x *retentionPolicy) string { return x.id })
	rs.assignOrder = orderedByID(rs.assignments, func(x *retentionAssignment) string { return x.id })
	rs.fvrOrder = orderedByID(rs.fvrs, func(x *fileVersionRetention) string { return x.id })
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

func (s *state) holdPolicyKeys() []string { return sortedKeys(s.holds.policies) }

func (s *state) holdPolicyRec(id string) (recHoldPolicy, bool) {
	hp, ok := s.holds.policies[id]
	if !ok {
		return recHoldPolicy{}, false
	}
	return recHoldPolicy{Name: hp.name, Description: hp.description, ReleaseNotes: hp.releaseNotes, Ongoing: hp.ongoing,
		FilterStart: utc(hp.filterStart), FilterEnd: utc(hp.filterEnd), CreatedBy: uid(hp.createdBy),
		CreatedAt: utc(hp.createdAt), ModifiedAt: utc(hp.modifiedAt), Created: utc(hp.created), Released: utc(hp.released)}, true
}

func (s *state) loadHoldPolicy(id string, r recHoldPolicy) error {
	by, err := s.userByRef(r.CreatedBy)
	if err != nil {
		return err
	}
	s.holds.policies[id] = &legalHoldPolicy{id: id, name: r.Name, description: r.Description, releaseNotes: r.ReleaseNotes,
		ongoing: r.Ongoing, filterStart: r.FilterStart, filterEnd: r.FilterEnd, createdBy: by,
		createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt, created: r.Created, released: r.Released}
	return nil
}

// recHoldAssignment is a legal hold policy assignment.
type recHoldAssignment struct {
	Policy, ToType, ToID, By string
	At, Deleted              time.Time
}

func (s *state) holdAssignmentKeys() []string { return sortedKeys(s.holds.assignments) }

func (s *state) holdAssignmentRec(id string) (recHoldAssignment, bool) {
	a, ok := s.holds.assignments[id]
	if !ok {
		return recHoldAssignment{}, false
	}
	return recHoldAssignment{Policy: a.policy.id, ToType: a.toType, ToID: a.toID, By: uid(a.by), At: utc(a.at), Deleted: utc(a.deleted)}, true
}

func (s *state) loadHoldAssignment(id string, r recHoldAssignment) error {
	by, err := s.userByRef(r.By)
	if err != nil {
		return err
	}
	hp := s.holds.policies[r.Policy]
	if hp == nil {
		return fmt.Errorf("unknown legal hold policy %s", r.Policy)
	}
	s.holds.assignments[id] = &legalHoldAssignment{id: id, policy: hp, toType: r.ToType, toID: r.ToID, by: by, at: r.At, deleted: r.Deleted}
	return nil
}

// recHold is a file version legal hold; its sources are assignment ids in
// the order they came.
type recHold struct {
	fileRef
	Sources []string
}

func (s *state) holdKeys() []string { return sortedKeys(s.holds.holds) }

func (s *state) holdRec(id string) (recHold, bool) {
	h, ok := s.holds.holds[id]
	if !ok {
		return recHold{}, false
	}
	r := recHold{fileRef: s.encodeFileRef(h.file, h.version), Sources: []string{}}
	for _, a := range h.sources {
		r.Sources = append(r.Sources, a.id)
	}
	return r, true
}

func (s *Server) loadHold(id string, r recHold) error {
	f, v, err := s.decodeFileRef(r.fileRef, s.persist.load.purged)
	if err != nil {
		return err
	}
	h := &fileVersionLegalHold{id: id, file: f, version: v}
	for _, aid := range r.Sources {
		a := s.holds.assignments[aid]
		if a == nil {
			return fmt.Errorf("unknown legal hold assignment %s", aid)
		}
		h.sources = append(h.sources, a)
	}
	s.holds.holds[id] = h
	s.holds.byVersion[v.id] = h
	return nil
}

// holdsLoaded rebuilds the creation orders.
func (s *state) holdsLoaded() error {
	hs := &s.holds
	hs.policyOrder = orderedByID(hs.policies, func(x *legalHoldPolicy) string { return x.id })
	hs.assignOrder = orderedByID(hs.assignments, func(x *legalHoldAssignment) string { return x.id })
	hs.holdOrder = orderedByID(hs.holds, func(x *fileVersionLegalHold) string { return x.id })
	s.persist.load.purged = nil
	return nil
}
