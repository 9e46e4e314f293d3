package governance

import (
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// RetentionAssignmentBody is the body of POST /retention_policy_assignments.
type RetentionAssignmentBody struct {
	PolicyID *string `json:"policy_id"`
	AssignTo *struct {
		Type *string               `json:"type"`
		ID   wire.Nullable[string] `json:"id"`
	} `json:"assign_to"`
	FilterFields   wire.Nullable[[]state.FilterField] `json:"filter_fields"`
	StartDateField wire.Nullable[string]              `json:"start_date_field"`
}

// CreateRetentionAssignment serves POST /retention_policy_assignments
// (refserver's createRetentionAssignment): a puts an active policy on the
// enterprise, a folder or a metadata template, and retains the versions it
// covers now; 201 with its record.
func CreateRetentionAssignment(s *state.Tx, b RetentionAssignmentBody, a *state.RetentionAssignment, p *state.Principal) (state.Reply, *wire.Error) {
	rp, aerr := RetentionPolicyByID(s, *b.PolicyID)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	if rp.Status == state.RetentionStatusRetired {
		return state.Reply{}, wire.BadRequest("A retired retention policy cannot be assigned")
	}
	if a.StartDateField != "" && rp.PolicyType == state.RetentionIndefinite {
		return state.Reply{}, wire.BadRequest("start_date_field cannot be used with an indefinite policy")
	}
	switch a.ToType {
	case state.AssignFolder:
		if a.ToID == state.RootID {
			return state.Reply{}, wire.BadRequest("The root folder cannot be assigned; assign the enterprise instead")
		}
		if _, aerr := s.Lookup(p, "folder", a.ToID); aerr != nil {
			return state.Reply{}, aerr
		}
	case state.AssignMetadataTemplate:
		if aerr := MetadataTargetOf(s, a); aerr != nil {
			return state.Reply{}, aerr
		}
	}
	for _, other := range s.Retention.AssignOrder {
		if sameRetentionTarget(other, a) && other.Policy.LongerOrEqual(rp) {
			return state.Reply{}, errRetentionConflict()
		}
	}
	a.Policy = rp
	a.ID = s.NewID()
	a.At = s.NowSec()
	s.Retention.Assignments.Put(a.ID, a)
	s.Retention.AssignOrder = append(s.Retention.AssignOrder, a)
	for _, f := range FilesByID(s) {
		if s.RetentionCovers(a, f) {
			for _, v := range f.Versions {
				s.RetainVersionFrom(f, v, a, s.RetentionStart(a, f, v))
			}
		}
	}
	return state.Reply{Status: wire.StatusCreated, Body: RetentionAssignmentRecord(s, a)}, nil
}

// RetentionAssignmentRecord is the RetentionPolicyAssignment record.
func RetentionAssignmentRecord(s *state.Tx, a *state.RetentionAssignment) map[string]any {
	var id, filters, start any
	if a.ToID != "" {
		id = a.ToID
	}
	if a.ToType == state.AssignMetadataTemplate {
		filters = wire.RenderEach(a.FilterFields, func(f state.FilterField) any { return map[string]any{"field": f.Field, "value": f.Value} })
		start = state.StartDateUploadDate
		if a.StartDateField != "" {
			start = a.StartDateField
		}
	}
	return map[string]any{
		"type": "retention_policy_assignment", "id": a.ID,
		"retention_policy": retentionPolicyMini(a.Policy),
		"assigned_to":      map[string]any{"type": a.ToType, "id": id},
		"filter_fields":    filters,
		"assigned_by":      a.By.Mini(),
		"assigned_at":      state.FmtTime(a.At),
		"start_date_field": start,
	}
}

// RetentionAssignmentByID finds an assignment: 404 not_found when unknown.
func RetentionAssignmentByID(s *state.Tx, id string) (*state.RetentionAssignment, *wire.Error) {
	return state.TableRecord(&s.Retention.Assignments, id, "retention_policy_assignment")
}

// ListRetentionPolicyAssignments serves GET
// /retention_policies/{id}/assignments (listRetentionPolicyAssignments): a
// marker page of the policy's assignments, of type typ when given.
func ListRetentionPolicyAssignments(s *state.Tx, recordID string, typ string, q wire.Page, fields []string) (state.Reply, *wire.Error) {
	rp, aerr := RetentionPolicyByID(s, recordID)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	var list []*state.RetentionAssignment
	for _, a := range s.Retention.AssignOrder {
		if a.Policy == rp && (typ == "" || a.ToType == typ) {
			list = append(list, a)
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(a *state.RetentionAssignment) any {
		return state.PickFields(RetentionAssignmentRecord(s, a), fields, "type", "id")
	})}, nil
}

// DeleteRetentionAssignment serves DELETE
// /retention_policy_assignments/{id} (refserver's
// deleteRetentionAssignment): the assignment of a non-modifiable policy
// stays (403 forbidden; the spec names no code); another one goes with the
// retention it alone gave (RemoveRetentionAssignment).
func DeleteRetentionAssignment(s *state.Tx, a *state.RetentionAssignment) *wire.Error {
	if a.Policy.RetentionType == state.RetentionNonModifiable {
		return wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "An assignment of a non-modifiable retention policy cannot be deleted")
	}
	RemoveRetentionAssignment(s, a)
	return nil
}

// RemoveRetentionAssignment forgets a and the retention it gave (a file
// version retention with no other source goes).
func RemoveRetentionAssignment(s *state.Tx, a *state.RetentionAssignment) {
	s.Retention.Assignments.Delete(a.ID)
	s.Retention.AssignOrder = wire.RemoveFrom(s.Retention.AssignOrder, a)
	for _, fvr := range append([]*state.FileVersionRetention(nil), s.Retention.FvrOrder...) {
		if _, ok := fvr.Sources[a]; !ok {
			continue
		}
		s.Retention.Fvrs.Update(fvr.ID, func(fvr *state.FileVersionRetention) { delete(fvr.Sources, a) })
		if len(fvr.Sources) == 0 {
			s.Retention.Fvrs.Delete(fvr.ID)
			delete(s.Retention.ByVersion, fvr.Version.ID)
			s.Retention.FvrOrder = wire.RemoveFrom(s.Retention.FvrOrder, fvr)
		}
	}
}

// ListRetainedByAssignment serves GET
// /retention_policy_assignments/{id}/files_under_retention (current: the
// files whose current version the assignment retains) and
// .../file_versions_under_retention (the earlier versions it retains)
// (listRetainedByAssignment): a marker page.
func ListRetainedByAssignment(s *state.Tx, recordID string, current bool, q wire.Page) (state.Reply, *wire.Error) {
	a, aerr := RetentionAssignmentByID(s, recordID)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	var list []*state.FileVersionRetention
	for _, fvr := range s.Retention.FvrOrder {
		if _, ok := fvr.Sources[a]; ok && (fvr.File.Current() == fvr.Version) == current {
			list = append(list, fvr)
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(fvr *state.FileVersionRetention) any {
		m := s.Mini(fvr.File)
		if !current {
			m["file_version"] = fileVersionMini(fvr.Version)
		}
		return m
	})}, nil
}
