package governance

import (
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// FileVersionLegalHoldRecord is the FileVersionLegalHold record.
func FileVersionLegalHoldRecord(s *state.Tx, h *state.FileVersionLegalHold, active []*state.LegalHoldAssignment) map[string]any {
	return map[string]any{
		"type": "file_version_legal_hold", "id": h.ID,
		"file_version":                  fileVersionMini(h.Version),
		"file":                          s.Mini(h.File),
		"legal_hold_policy_assignments": wire.RenderEach(active, func(a *state.LegalHoldAssignment) map[string]any { return LegalHoldAssignmentRecord(s, a) }),
		"deleted_at":                    nil,
	}
}

// GetFileVersionLegalHold serves GET /file_version_legal_holds/{id}
// (refserver's getFileVersionLegalHold): the record with the assignments
// still holding the version; 404 when none does.
func GetFileVersionLegalHold(s *state.Tx, recordID string) (state.Reply, *wire.Error) {
	h, ok := s.Holds.Holds.Get(recordID)
	var active []*state.LegalHoldAssignment
	if ok {
		active = s.ActiveHolds(h, s.Now())
	}
	if len(active) == 0 {
		return state.Reply{}, wire.NotFound("file_version_legal_hold")
	}
	return state.Reply{Status: wire.StatusOK, Body: FileVersionLegalHoldRecord(s, h, active)}, nil
}

// ListHeldByAssignment serves GET
// /legal_hold_policy_assignments/{id}/files_on_hold (current: the files
// whose current version the assignment holds) and .../file_versions_on_hold
// (the earlier versions it holds) (listHeldByAssignment): a marker page.
func ListHeldByAssignment(s *state.Tx, recordID string, current bool, q wire.Page, fields []string, p *state.Principal) (state.Reply, *wire.Error) {
	a, aerr := LegalHoldAssignmentByID(s, recordID)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	var list []*state.FileVersionLegalHold
	if s.HoldAssignmentHolds(a, s.Now()) {
		for _, h := range s.Holds.HoldOrder {
			for _, x := range h.Sources {
				if x == a && (h.File.Current() == h.Version) == current {
					list = append(list, h)
					break
				}
			}
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(h *state.FileVersionLegalHold) any {
		if current {
			return s.Render(h.File, fieldsOrNil(fields), p)
		}
		return state.PickFields(state.VersionRecord(h.File, versionNumber(h.File, h.Version), h.Version), fields, "type", "id", "sha1")
	})}, nil
}

// fieldsOrNil gives the mini record when no fields are asked for.
func fieldsOrNil(fields []string) []string {
	if fields == nil {
		return []string{}
	}
	return fields
}
