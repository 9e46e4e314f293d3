package refserver

import (
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// fileVersionLegalHold records the holds on one file version: every
// assignment that ever held it is a source; the ones still holding (not
// gone, policy not released) make the record live.
type fileVersionLegalHold struct {
	id      string
	file    *item
	version *version
	sources []*legalHoldAssignment
}

// holdVersion puts version v of f on hold by assignment a. Callers hold s.mu.
func (s *state) holdVersion(f *item, v *version, a *legalHoldAssignment) {
	h, ok := s.holds.byVersion[v.id]
	if !ok {
		h = &fileVersionLegalHold{id: s.newID(), file: f, version: v}
		s.holds.holds[h.id] = h
		s.holds.byVersion[v.id] = h
		s.holds.holdOrder = append(s.holds.holdOrder, h)
	}
	for _, x := range h.sources {
		if x == a {
			return
		}
	}
	h.sources = append(h.sources, a)
	s.dirty(kHoldVersions, h.id)
}

// activeHolds lists the sources of h still holding at now.
func (s *state) activeHolds(h *fileVersionLegalHold, now time.Time) []*legalHoldAssignment {
	var out []*legalHoldAssignment
	for _, a := range h.sources {
		if s.holdAssignmentHolds(a, now) {
			out = append(out, a)
		}
	}
	return out
}

// legalHoldVersionAdded keeps the new version v of a held file f on hold
// when the assignment covers it and its policy is ongoing (a policy that is
// not ongoing holds only the versions present when it was assigned). The
// earlier versions stay held either way.
func (s *state) legalHoldVersionAdded(f *item, v *version) {
	now := s.now()
	for _, a := range s.holds.assignOrder {
		if a.policy.ongoing && s.holdAssignmentHolds(a, now) && s.holdCovers(a, f, v) {
			s.holdVersion(f, v, a)
		}
	}
}

// legalHoldBlocksPurge returns the error that a held version under it
// gives to a permanent delete, or nil: 403
// access_denied_insufficient_permissions (as for retention), with
// context_info naming the file version legal hold.
func (s *state) legalHoldBlocksPurge(it *item) *wire.Error {
	now := s.now()
	for _, f := range s.filesUnder(it) {
		for _, v := range f.versions {
			h, ok := s.holds.byVersion[v.id]
			if !ok || len(s.activeHolds(h, now)) == 0 {
				continue
			}
			e := wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "File version %s of file %s is under legal hold and cannot be deleted permanently", v.id, f.id)
			e.ContextInfo = map[string]any{"file_version_legal_hold": map[string]any{"type": "file_version_legal_hold", "id": h.id}}
			return e
		}
	}
	return nil
}

// fileVersionLegalHoldRecord is the FileVersionLegalHold record.
func (s *state) fileVersionLegalHoldRecord(h *fileVersionLegalHold, active []*legalHoldAssignment) map[string]any {
	return map[string]any{
		"type": "file_version_legal_hold", "id": h.id,
		"file_version":                  fileVersionMini(h.version),
		"file":                          s.mini(h.file),
		"legal_hold_policy_assignments": wire.RenderEach(active, s.legalHoldAssignmentRecord),
		"deleted_at":                    nil,
	}
}

// listFileVersionLegalHolds serves GET /file_version_legal_holds: the
// versions a policy holds, marker-paged; policy_id is required (400),
// unknown is 404.
func (s *Server) listFileVersionLegalHolds(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	policyID := r.URL.Query().Get("policy_id")
	if policyID == "" {
		return wire.BadRequest("Missing required parameter: policy_id")
	}
	return s.change(w, func() (reply, *wire.Error) {
		hp, aerr := s.legalHoldPolicyByID(policyID)
		if aerr != nil {
			return reply{}, aerr
		}
		now := s.now()
		type entry struct {
			h      *fileVersionLegalHold
			active []*legalHoldAssignment
		}
		var list []entry
		for _, h := range s.holds.holdOrder {
			active := s.activeHolds(h, now)
			for _, a := range active {
				if a.policy == hp {
					list = append(list, entry{h, active})
					break
				}
			}
		}
		return reply{http.StatusOK, wire.PositionEntries(list, q, func(e entry) any { return s.fileVersionLegalHoldRecord(e.h, e.active) })}, nil
	})
}

// getFileVersionLegalHold serves GET /file_version_legal_holds/{id}: 404
// once no assignment holds the version any more.
func (s *Server) getFileVersionLegalHold(w http.ResponseWriter, r *http.Request, p *principal) error {
	recordID := r.PathValue("id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.getFileVersionLegalHoldTx(recordID)
	})
}

// getFileVersionLegalHoldTx is the transaction of GET
// /file_version_legal_holds/{id} (getFileVersionLegalHold): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) getFileVersionLegalHoldTx(recordID string) (reply, *wire.Error) {
	h, ok := s.holds.holds[recordID]
	var active []*legalHoldAssignment
	if ok {
		active = s.activeHolds(h, s.now())
	}
	if len(active) == 0 {
		return reply{}, wire.NotFound("file_version_legal_hold")
	}
	return reply{http.StatusOK, s.fileVersionLegalHoldRecord(h, active)}, nil
}

// listFilesOnHold serves GET
// /legal_hold_policy_assignments/{id}/files_on_hold: the files whose current
// version the assignment holds (File--Mini), marker-paged.
func (s *Server) listFilesOnHold(w http.ResponseWriter, r *http.Request, p *principal) error {
	return s.listHeldByAssignment(w, r, p, true)
}

// listFileVersionsOnHold serves GET
// /legal_hold_policy_assignments/{id}/file_versions_on_hold: the earlier
// (not current) versions the assignment holds (FileVersion), marker-paged.
func (s *Server) listFileVersionsOnHold(w http.ResponseWriter, r *http.Request, p *principal) error {
	return s.listHeldByAssignment(w, r, p, false)
}

func (s *Server) listHeldByAssignment(w http.ResponseWriter, r *http.Request, p *principal, current bool) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	recordID := r.PathValue("id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.listHeldByAssignmentTx(recordID, current, q, fields, p)
	})
}

// listHeldByAssignmentTx is the transaction of listHeldByAssignment
// (listHeldByAssignment): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) listHeldByAssignmentTx(recordID string, current bool, q wire.Page, fields []string, p *principal) (reply, *wire.Error) {
	a, aerr := s.legalHoldAssignmentByID(recordID)
	if aerr != nil {
		return reply{}, aerr
	}
	var list []*fileVersionLegalHold
	if s.holdAssignmentHolds(a, s.now()) {
		for _, h := range s.holds.holdOrder {
			for _, x := range h.sources {
				if x == a && (h.file.current() == h.version) == current {
					list = append(list, h)
					break
				}
			}
		}
	}
	return reply{http.StatusOK, wire.PositionEntries(list, q, func(h *fileVersionLegalHold) any {
		if current {
			return s.render(h.file, fieldsOrNil(fields), p)
		}
		return pickFields(versionRecord(h.file, versionNumber(h.file, h.version), h.version), fields, "type", "id", "sha1")
	})}, nil
}

// fieldsOrNil gives the mini record when no fields are asked for.
func fieldsOrNil(fields []string) []string {
	if fields == nil {
		return []string{}
	}
	return fields
}
