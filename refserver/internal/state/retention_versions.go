package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// FileVersionRetention records that a file version is under retention. A
// version has at most one: every assignment that retains it is a source,
// with the time it was applied; the winning policy is the source whose
// disposition comes last (an indefinite policy always wins).
type FileVersionRetention struct {
	ID      string
	File    *Item
	Version *Version
	Sources map[*RetentionAssignment]time.Time
	Applied time.Time // when the version first came under retention
}

// Winner is the source that retains the version longest, with its
// disposition time (zero for an indefinite policy).
func (fvr *FileVersionRetention) Winner() (*RetentionAssignment, time.Time) {
	var best *RetentionAssignment
	var bestAt time.Time
	for a, at := range fvr.Sources {
		var disp time.Time
		if a.Policy.PolicyType == RetentionFinite {
			disp = at.AddDate(0, 0, a.Policy.Days)
		}
		better := best == nil
		if !better {
			switch {
			case bestAt.IsZero():
			case disp.IsZero():
				better = true
			case disp.After(bestAt):
				better = true
			case disp.Equal(bestAt):
				better = wire.CompareIDs(a.ID, best.ID) < 0
			}
		}
		if better {
			best, bestAt = a, disp
		}
	}
	return best, bestAt
}

// retainedAt reports whether the version may not be deleted for good at now.
func (fvr *FileVersionRetention) retainedAt(now time.Time) bool {
	_, disp := fvr.Winner()
	return disp.IsZero() || now.Before(disp)
}

// RetainVersionFrom puts version v of f under assignment a, its retention
// counted from start (RetentionStart). A version a already retains keeps
// its start unless start is later: retention is extended, never shortened.
func (s *Tx) RetainVersionFrom(f *Item, v *Version, a *RetentionAssignment, start time.Time) {
	fvr, ok := s.Retention.ByVersion[v.ID]
	if !ok {
		fvr = &FileVersionRetention{ID: s.NewID(), File: f, Version: v, Sources: map[*RetentionAssignment]time.Time{}, Applied: s.NowSec()}
		s.Retention.Fvrs.Put(fvr.ID, fvr)
		s.Retention.ByVersion[v.ID] = fvr
		s.Retention.FvrOrder = append(s.Retention.FvrOrder, fvr)
	}
	if cur, ok := fvr.Sources[a]; !ok || start.After(cur) {
		s.Retention.Fvrs.Update(fvr.ID, func(fvr *FileVersionRetention) { fvr.Sources[a] = start })
	}
}

// retentionVersionAdded applies the retention policies that cover f to its
// new version v: the assignments of active policies on the enterprise, on
// a folder above f or on a template f carries a matching instance of.
// Earlier versions keep their own retention.
func (s *Tx) retentionVersionAdded(f *Item, v *Version) {
	for _, a := range s.Retention.AssignOrder {
		if a.Policy.Status == RetentionStatusActive && s.RetentionCovers(a, f) {
			s.RetainVersionFrom(f, v, a, s.RetentionStart(a, f, v))
		}
	}
}

// retentionBlocksPurge returns the error that a retained version under it
// gives to a permanent delete, or nil: 403
// access_denied_insufficient_permissions, the answer the service gives to a
// permanent delete it refuses (box/box-python-sdk#547), with context_info
// naming the file version retention.
func (s *Tx) retentionBlocksPurge(it *Item) *wire.Error {
	now := s.Now()
	for _, f := range s.filesUnder(it) {
		for _, v := range f.Versions {
			fvr, ok := s.Retention.ByVersion[v.ID]
			if !ok || !fvr.retainedAt(now) {
				continue
			}
			e := wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "File version %s of file %s is under retention and cannot be deleted permanently", v.ID, f.ID)
			e.ContextInfo = map[string]any{"file_version_retention": map[string]any{"type": "file_version_retention", "id": fvr.ID}}
			return e
		}
	}
	return nil
}

// RetainedBy reports whether a policy is among the sources of fvr.
func (fvr *FileVersionRetention) RetainedBy(policyID string) bool {
	for a := range fvr.Sources {
		if a.Policy.ID == policyID {
			return true
		}
	}
	return false
}
