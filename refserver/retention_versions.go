package refserver

import (
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// fileVersionRetention records that a file version is under retention. A
// version has at most one: every assignment that retains it is a source,
// with the time it was applied; the winning policy is the source whose
// disposition comes last (an indefinite policy always wins).
type fileVersionRetention struct {
	id      string
	file    *item
	version *version
	sources map[*retentionAssignment]time.Time
	applied time.Time // when the version first came under retention
}

// winner is the source that retains the version longest, with its
// disposition time (zero for an indefinite policy).
func (fvr *fileVersionRetention) winner() (*retentionAssignment, time.Time) {
	var best *retentionAssignment
	var bestAt time.Time
	for a, at := range fvr.sources {
		var disp time.Time
		if a.policy.policyType == retentionFinite {
			disp = at.AddDate(0, 0, a.policy.days)
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
				better = wire.CompareIDs(a.id, best.id) < 0
			}
		}
		if better {
			best, bestAt = a, disp
		}
	}
	return best, bestAt
}

// retainedAt reports whether the version may not be deleted for good at now.
func (fvr *fileVersionRetention) retainedAt(now time.Time) bool {
	_, disp := fvr.winner()
	return disp.IsZero() || now.Before(disp)
}

// retainVersionFrom puts version v of f under assignment a, its retention
// counted from start (retentionStart). A version a already retains keeps
// its start unless start is later: retention is extended, never shortened.
// Callers hold s.mu.
func (s *state) retainVersionFrom(f *item, v *version, a *retentionAssignment, start time.Time) {
	fvr, ok := s.retention.byVersion[v.id]
	if !ok {
		fvr = &fileVersionRetention{id: s.newID(), file: f, version: v, sources: map[*retentionAssignment]time.Time{}, applied: s.nowSec()}
		s.retention.fvrs[fvr.id] = fvr
		s.retention.byVersion[v.id] = fvr
		s.retention.fvrOrder = append(s.retention.fvrOrder, fvr)
	}
	if cur, ok := fvr.sources[a]; !ok || start.After(cur) {
		fvr.sources[a] = start
		s.dirty(kRetVersions, fvr.id)
	}
}

// retentionVersionAdded applies the retention policies that cover f to its
// new version v: the assignments of active policies on the enterprise, on
// a folder above f or on a template f carries a matching instance of.
// Earlier versions keep their own retention.
func (s *state) retentionVersionAdded(f *item, v *version) {
	for _, a := range s.retention.assignOrder {
		if a.policy.status == retentionStatusActive && s.retentionCovers(a, f) {
			s.retainVersionFrom(f, v, a, s.retentionStart(a, f, v))
		}
	}
}

// retentionBlocksPurge returns the error that a retained version under it
// gives to a permanent delete, or nil: 403
// access_denied_insufficient_permissions, the answer the service gives to a
// permanent delete it refuses (box/box-python-sdk#547), with context_info
// naming the file version retention.
func (s *state) retentionBlocksPurge(it *item) *wire.Error {
	now := s.now()
	for _, f := range s.filesUnder(it) {
		for _, v := range f.versions {
			fvr, ok := s.retention.byVersion[v.id]
			if !ok || !fvr.retainedAt(now) {
				continue
			}
			e := wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "File version %s of file %s is under retention and cannot be deleted permanently", v.id, f.id)
			e.ContextInfo = map[string]any{"file_version_retention": map[string]any{"type": "file_version_retention", "id": fvr.id}}
			return e
		}
	}
	return nil
}

// fileVersionRetentionRecord is the FileVersionRetention record.
func (s *state) fileVersionRetentionRecord(fvr *fileVersionRetention) map[string]any {
	a, disp := fvr.winner()
	return map[string]any{
		"type": "file_version_retention", "id": fvr.id,
		"file_version":             fileVersionMini(fvr.version),
		"file":                     s.mini(fvr.file),
		"applied_at":               fmtTime(fvr.applied),
		"disposition_at":           fmtTime(disp),
		"winning_retention_policy": retentionPolicyMini(a.policy),
	}
}

// listFileVersionRetentions serves GET /file_version_retentions,
// marker-paged, with the filters file_id, file_version_id, policy_id (any
// policy retaining the version), disposition_action (of the winning policy;
// 400 for another value), disposition_before and disposition_after
// (RFC 3339; a version retained indefinitely has no disposition date and
// matches neither).
func (s *Server) listFileVersionRetentions(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	query := r.URL.Query()
	fileID, versionID, policyID, action := query.Get("file_id"), query.Get("file_version_id"), query.Get("policy_id"), query.Get("disposition_action")
	if action != "" && !validDisposition(action) {
		return wire.BadRequest("disposition_action must be permanently_delete or remove_retention")
	}
	before, aerr := parseTimeParam(r, "disposition_before")
	if aerr != nil {
		return aerr
	}
	after, aerr := parseTimeParam(r, "disposition_after")
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.listFileVersionRetentionsTx(fileID, versionID, action, before, after, policyID, q)
	})
}

// listFileVersionRetentionsTx is the transaction of GET
// /file_version_retentions (listFileVersionRetentions): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) listFileVersionRetentionsTx(fileID string, versionID string, action string, before time.Time, after time.Time, policyID string, q wire.Page) (reply, *wire.Error) {
	var list []*fileVersionRetention
	for _, fvr := range s.retention.fvrOrder {
		a, disp := fvr.winner()
		switch {
		case fileID != "" && fvr.file.id != fileID,
			versionID != "" && fvr.version.id != versionID,
			action != "" && a.policy.disposition != action,
			!before.IsZero() && (disp.IsZero() || !disp.Before(before)),
			!after.IsZero() && (disp.IsZero() || !disp.After(after)):
			continue
		}
		if policyID != "" && !fvr.retainedBy(policyID) {
			continue
		}
		list = append(list, fvr)
	}
	return reply{http.StatusOK, wire.PositionEntries(list, q, s.fileVersionRetentionRecord)}, nil
}

// retainedBy reports whether a policy is among the sources of fvr.
func (fvr *fileVersionRetention) retainedBy(policyID string) bool {
	for a := range fvr.sources {
		if a.policy.id == policyID {
			return true
		}
	}
	return false
}

// getFileVersionRetention serves GET /file_version_retentions/{id}.
func (s *Server) getFileVersionRetention(w http.ResponseWriter, r *http.Request, p *principal) error {
	find := func(id string) (*fileVersionRetention, *wire.Error) {
		return recordIn(s.retention.fvrs, id, "file_version_retention")
	}
	return getRecord(s, w, r, "id", find, s.fileVersionRetentionRecord)
}
