package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// RetentionAssignment puts a retention policy on the enterprise, a folder
// (and everything below it) or a metadata template (retention_metadata.go).
type RetentionAssignment struct {
	ID             string
	Policy         *RetentionPolicy
	ToType, ToID   string // toID "" for the enterprise; a template's id
	FilterFields   []FilterField
	StartDateField string
	By             *User
	At             time.Time
}

// filterField is one entry of filter_fields.
type FilterField struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

const (
	AssignEnterprise       = "enterprise"
	AssignFolder           = "folder"
	AssignMetadataTemplate = "metadata_template"
	StartDateUploadDate    = "upload_date"
)

// RetentionAssignmentBody is the body of POST /retention_policy_assignments.
type RetentionAssignmentBody struct {
	PolicyID *string `json:"policy_id"`
	AssignTo *struct {
		Type *string               `json:"type"`
		ID   wire.Nullable[string] `json:"id"`
	} `json:"assign_to"`
	FilterFields   wire.Nullable[[]FilterField] `json:"filter_fields"`
	StartDateField wire.Nullable[string]        `json:"start_date_field"`
}

// CreateRetentionAssignmentTx is the transaction of POST
// /retention_policy_assignments (createRetentionAssignment): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *State) CreateRetentionAssignmentTx(b RetentionAssignmentBody, a *RetentionAssignment, p *Principal) (Reply, *wire.Error) {
	rp, aerr := s.RetentionPolicyByID(*b.PolicyID)
	if aerr != nil {
		return Reply{}, aerr
	}
	if rp.Status == retentionStatusRetired {
		return Reply{}, wire.BadRequest("A retired retention policy cannot be assigned")
	}
	if a.StartDateField != "" && rp.PolicyType == RetentionIndefinite {
		return Reply{}, wire.BadRequest("start_date_field cannot be used with an indefinite policy")
	}
	switch a.ToType {
	case AssignFolder:
		if a.ToID == RootID {
			return Reply{}, wire.BadRequest("The root folder cannot be assigned; assign the enterprise instead")
		}
		if _, aerr := s.Lookup(p, "folder", a.ToID); aerr != nil {
			return Reply{}, aerr
		}
	case AssignMetadataTemplate:
		if aerr := s.metadataTargetOf(a); aerr != nil {
			return Reply{}, aerr
		}
	}
	for _, other := range s.Retention.AssignOrder {
		if sameRetentionTarget(other, a) && other.Policy.longerOrEqual(rp) {
			return Reply{}, errRetentionConflict()
		}
	}
	a.Policy = rp
	a.ID = s.NewID()
	a.At = s.NowSec()
	s.Retention.Assignments[a.ID] = a
	s.Retention.AssignOrder = append(s.Retention.AssignOrder, a)
	s.Dirty(KRetAssignments, a.ID)
	for _, f := range s.filesByID() {
		if s.retentionCovers(a, f) {
			for _, v := range f.Versions {
				s.retainVersionFrom(f, v, a, s.retentionStart(a, f, v))
			}
		}
	}
	return Reply{wire.StatusCreated, s.RetentionAssignmentRecord(a)}, nil
}

// retentionCovers reports whether assignment a applies to file f: every
// file for the enterprise, the files below a folder, the files carrying a
// matching instance of a template (metadataCovers).
func (s *State) retentionCovers(a *RetentionAssignment, f *Item) bool {
	switch a.ToType {
	case AssignEnterprise:
		return true
	case AssignFolder:
		return s.IsUnder(f, a.ToID)
	case AssignMetadataTemplate:
		return s.metadataCovers(a, f)
	}
	return false
}

// RetentionAssignmentRecord is the RetentionPolicyAssignment record.
func (s *State) RetentionAssignmentRecord(a *RetentionAssignment) map[string]any {
	var id, filters, start any
	if a.ToID != "" {
		id = a.ToID
	}
	if a.ToType == AssignMetadataTemplate {
		filters = wire.RenderEach(a.FilterFields, func(f FilterField) any { return map[string]any{"field": f.Field, "value": f.Value} })
		start = StartDateUploadDate
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
		"assigned_at":      FmtTime(a.At),
		"start_date_field": start,
	}
}

func (s *State) RetentionAssignmentByID(id string) (*RetentionAssignment, *wire.Error) {
	return RecordIn(s.Retention.Assignments, id, "retention_policy_assignment")
}

// ListRetentionPolicyAssignmentsTx is the transaction of GET
// /retention_policies/{id}/assignments (listRetentionPolicyAssignments): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *State) ListRetentionPolicyAssignmentsTx(recordID string, typ string, q wire.Page, fields []string) (Reply, *wire.Error) {
	rp, aerr := s.RetentionPolicyByID(recordID)
	if aerr != nil {
		return Reply{}, aerr
	}
	var list []*RetentionAssignment
	for _, a := range s.Retention.AssignOrder {
		if a.Policy == rp && (typ == "" || a.ToType == typ) {
			list = append(list, a)
		}
	}
	return Reply{wire.StatusOK, wire.PositionEntries(list, q, func(a *RetentionAssignment) any {
		return PickFields(s.RetentionAssignmentRecord(a), fields, "type", "id")
	})}, nil
}

// RemoveRetentionAssignment forgets a and the retention it gave.
func (s *State) RemoveRetentionAssignment(a *RetentionAssignment) {
	delete(s.Retention.Assignments, a.ID)
	s.Retention.AssignOrder = wire.RemoveFrom(s.Retention.AssignOrder, a)
	s.Dirty(KRetAssignments, a.ID)
	for _, fvr := range append([]*FileVersionRetention(nil), s.Retention.FvrOrder...) {
		if _, ok := fvr.Sources[a]; !ok {
			continue
		}
		delete(fvr.Sources, a)
		s.Dirty(KRetVersions, fvr.ID)
		if len(fvr.Sources) == 0 {
			delete(s.Retention.Fvrs, fvr.ID)
			delete(s.Retention.ByVersion, fvr.Version.ID)
			s.Retention.FvrOrder = wire.RemoveFrom(s.Retention.FvrOrder, fvr)
		}
	}
}

// ListRetainedByAssignmentTx is the transaction of listRetainedByAssignment
// (listRetainedByAssignment): what it checks, reads and changes under the
// state's lock, and its reply. Callers hold mu.
func (s *State) ListRetainedByAssignmentTx(recordID string, current bool, q wire.Page) (Reply, *wire.Error) {
	a, aerr := s.RetentionAssignmentByID(recordID)
	if aerr != nil {
		return Reply{}, aerr
	}
	var list []*FileVersionRetention
	for _, fvr := range s.Retention.FvrOrder {
		if _, ok := fvr.Sources[a]; ok && (fvr.File.Current() == fvr.Version) == current {
			list = append(list, fvr)
		}
	}
	return Reply{wire.StatusOK, wire.PositionEntries(list, q, func(fvr *FileVersionRetention) any {
		m := s.Mini(fvr.File)
		if !current {
			m["file_version"] = fileVersionMini(fvr.Version)
		}
		return m
	})}, nil
}
