package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// FileVersionLegalHold records the holds on one file version: every
// assignment that ever held it is a source; the ones still holding (not
// gone, policy not released) make the record live.
type FileVersionLegalHold struct {
	ID      string
	File    *Item
	Version *Version
	Sources []*LegalHoldAssignment
}

// HoldVersion puts version v of f on hold by assignment a.
func (s *Tx) HoldVersion(f *Item, v *Version, a *LegalHoldAssignment) {
	h, ok := s.Holds.ByVersion[v.ID]
	if !ok {
		h = &FileVersionLegalHold{ID: s.NewID(), File: f, Version: v}
		s.Holds.Holds.Put(h.ID, h)
		s.Holds.ByVersion[v.ID] = h
		s.Holds.HoldOrder = append(s.Holds.HoldOrder, h)
	}
	for _, x := range h.Sources {
		if x == a {
			return
		}
	}
	s.Holds.Holds.Update(h.ID, func(h *FileVersionLegalHold) { h.Sources = append(h.Sources, a) })
}

// ActiveHolds lists the sources of h still holding at now.
func (s *Tx) ActiveHolds(h *FileVersionLegalHold, now time.Time) []*LegalHoldAssignment {
	var out []*LegalHoldAssignment
	for _, a := range h.Sources {
		if s.HoldAssignmentHolds(a, now) {
			out = append(out, a)
		}
	}
	return out
}

// legalHoldVersionAdded keeps the new version v of a held file f on hold
// when the assignment covers it and its policy is ongoing (a policy that is
// not ongoing holds only the versions present when it was assigned). The
// earlier versions stay held either way.
func (s *Tx) legalHoldVersionAdded(f *Item, v *Version) {
	now := s.Now()
	for _, a := range s.Holds.AssignOrder {
		if a.Policy.Ongoing && s.HoldAssignmentHolds(a, now) && s.HoldCovers(a, f, v) {
			s.HoldVersion(f, v, a)
		}
	}
}

// legalHoldBlocksPurge returns the error that a held version under it
// gives to a permanent delete, or nil: 403
// access_denied_insufficient_permissions (as for retention), with
// context_info naming the file version legal hold.
func (s *Tx) legalHoldBlocksPurge(it *Item) *wire.Error {
	now := s.Now()
	for _, f := range s.filesUnder(it) {
		for _, v := range f.Versions {
			h, ok := s.Holds.ByVersion[v.ID]
			if !ok || len(s.ActiveHolds(h, now)) == 0 {
				continue
			}
			e := wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "File version %s of file %s is under legal hold and cannot be deleted permanently", v.ID, f.ID)
			e.ContextInfo = map[string]any{"file_version_legal_hold": map[string]any{"type": "file_version_legal_hold", "id": h.ID}}
			return e
		}
	}
	return nil
}
