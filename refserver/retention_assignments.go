package refserver

import (
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// retentionAssignment puts a retention policy on the enterprise, a folder
// (and everything below it) or a metadata template (retention_metadata.go).
type retentionAssignment struct {
	id             string
	policy         *retentionPolicy
	toType, toID   string // toID "" for the enterprise; a template's id
	filterFields   []filterField
	startDateField string
	by             *user
	at             time.Time
}

// filterField is one entry of filter_fields.
type filterField struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

const (
	assignEnterprise       = "enterprise"
	assignFolder           = "folder"
	assignMetadataTemplate = "metadata_template"
	startDateUploadDate    = "upload_date"
)

// retentionAssignmentBody is the body of POST /retention_policy_assignments.
type retentionAssignmentBody struct {
	PolicyID *string `json:"policy_id"`
	AssignTo *struct {
		Type *string               `json:"type"`
		ID   wire.Nullable[string] `json:"id"`
	} `json:"assign_to"`
	FilterFields   wire.Nullable[[]filterField] `json:"filter_fields"`
	StartDateField wire.Nullable[string]        `json:"start_date_field"`
}

// createRetentionAssignment serves POST /retention_policy_assignments: 201
// RetentionPolicyAssignment. 400 bad_request: missing policy_id/assign_to,
// an unknown type, an id for the enterprise, no id for a folder or template,
// filter_fields or start_date_field with another type than
// metadata_template, more than one filter field, start_date_field with an
// indefinite policy, a retired policy (no code in the spec), the root
// folder, filter_fields or start_date_field that do not fit the template
// (retention_metadata.go). 404 not_found: unknown policy, folder or
// template. 409 conflict: a policy of equal or greater length is already
// assigned to the same target (for a template: with the same filter).
// Every file version the assignment covers is retained at once.
func (s *Server) createRetentionAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b retentionAssignmentBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	if b.PolicyID == nil || *b.PolicyID == "" {
		return wire.BadRequest("Missing required field: policy_id")
	}
	if b.AssignTo == nil || b.AssignTo.Type == nil {
		return wire.BadRequest("Missing required field: assign_to.type")
	}
	a := &retentionAssignment{toType: *b.AssignTo.Type, by: p.user}
	a.toID, _ = b.AssignTo.ID.Value()
	switch a.toType {
	case assignEnterprise:
		if a.toID != "" {
			return wire.BadRequest("assign_to.id must be null or absent for the enterprise")
		}
	case assignFolder, assignMetadataTemplate:
		if a.toID == "" {
			return wire.BadRequest("Missing required field: assign_to.id")
		}
	default:
		return wire.BadRequest("assign_to.type must be enterprise, folder or metadata_template")
	}
	if ff, ok := b.FilterFields.Value(); ok && len(ff) > 0 {
		if a.toType != assignMetadataTemplate {
			return wire.BadRequest("filter_fields can only be used with a metadata_template assignment")
		}
		if len(ff) > 1 {
			return wire.BadRequest("filter_fields supports one field")
		}
		if ff[0].Field == "" || ff[0].Value == "" {
			return wire.BadRequest("filter_fields needs a field and a value")
		}
		a.filterFields = ff
	}
	if v, ok := b.StartDateField.Value(); ok {
		if a.toType != assignMetadataTemplate {
			return wire.BadRequest("start_date_field can only be used with a metadata_template assignment")
		}
		if v == "" {
			return wire.BadRequest("start_date_field cannot be empty")
		}
		a.startDateField = v
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.createRetentionAssignmentTx(b, a, p)
	})
}

// createRetentionAssignmentTx is the transaction of POST
// /retention_policy_assignments (createRetentionAssignment): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) createRetentionAssignmentTx(b retentionAssignmentBody, a *retentionAssignment, p *principal) (reply, *wire.Error) {
	rp, aerr := s.retentionPolicyByID(*b.PolicyID)
	if aerr != nil {
		return reply{}, aerr
	}
	if rp.status == retentionStatusRetired {
		return reply{}, wire.BadRequest("A retired retention policy cannot be assigned")
	}
	if a.startDateField != "" && rp.policyType == retentionIndefinite {
		return reply{}, wire.BadRequest("start_date_field cannot be used with an indefinite policy")
	}
	switch a.toType {
	case assignFolder:
		if a.toID == rootID {
			return reply{}, wire.BadRequest("The root folder cannot be assigned; assign the enterprise instead")
		}
		if _, aerr := s.lookup(p, "folder", a.toID); aerr != nil {
			return reply{}, aerr
		}
	case assignMetadataTemplate:
		if aerr := s.metadataTargetOf(a); aerr != nil {
			return reply{}, aerr
		}
	}
	for _, other := range s.retention.assignOrder {
		if sameRetentionTarget(other, a) && other.policy.longerOrEqual(rp) {
			return reply{}, errRetentionConflict()
		}
	}
	a.policy = rp
	a.id = s.newID()
	a.at = s.nowSec()
	s.retention.assignments[a.id] = a
	s.retention.assignOrder = append(s.retention.assignOrder, a)
	s.dirty(kRetAssignments, a.id)
	for _, f := range s.filesByID() {
		if s.retentionCovers(a, f) {
			for _, v := range f.versions {
				s.retainVersionFrom(f, v, a, s.retentionStart(a, f, v))
			}
		}
	}
	return reply{http.StatusCreated, s.retentionAssignmentRecord(a)}, nil
}

// retentionCovers reports whether assignment a applies to file f: every
// file for the enterprise, the files below a folder, the files carrying a
// matching instance of a template (metadataCovers).
func (s *state) retentionCovers(a *retentionAssignment, f *item) bool {
	switch a.toType {
	case assignEnterprise:
		return true
	case assignFolder:
		return s.isUnder(f, a.toID)
	case assignMetadataTemplate:
		return s.metadataCovers(a, f)
	}
	return false
}

// retentionAssignmentRecord is the RetentionPolicyAssignment record.
func (s *state) retentionAssignmentRecord(a *retentionAssignment) map[string]any {
	var id, filters, start any
	if a.toID != "" {
		id = a.toID
	}
	if a.toType == assignMetadataTemplate {
		filters = wire.RenderEach(a.filterFields, func(f filterField) any { return map[string]any{"field": f.Field, "value": f.Value} })
		start = startDateUploadDate
		if a.startDateField != "" {
			start = a.startDateField
		}
	}
	return map[string]any{
		"type": "retention_policy_assignment", "id": a.id,
		"retention_policy": retentionPolicyMini(a.policy),
		"assigned_to":      map[string]any{"type": a.toType, "id": id},
		"filter_fields":    filters,
		"assigned_by":      a.by.mini(),
		"assigned_at":      fmtTime(a.at),
		"start_date_field": start,
	}
}

func (s *state) retentionAssignmentByID(id string) (*retentionAssignment, *wire.Error) {
	return recordIn(s.retention.assignments, id, "retention_policy_assignment")
}

// getRetentionAssignment serves GET /retention_policy_assignments/{id}.
func (s *Server) getRetentionAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	return getRecord(s, w, r, "id", s.retentionAssignmentByID, func(a *retentionAssignment) map[string]any {
		return pickFields(s.retentionAssignmentRecord(a), fields, "type", "id")
	})
}

// listRetentionPolicyAssignments serves GET /retention_policies/{id}/assignments,
// marker-paged, filtered by type (400 for another value).
func (s *Server) listRetentionPolicyAssignments(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	typ := r.URL.Query().Get("type")
	switch typ {
	case "", assignEnterprise, assignFolder, assignMetadataTemplate:
	default:
		return wire.BadRequest("type must be enterprise, folder or metadata_template")
	}
	fields := parseFields(r)
	recordID := r.PathValue("id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.listRetentionPolicyAssignmentsTx(recordID, typ, q, fields)
	})
}

// listRetentionPolicyAssignmentsTx is the transaction of GET
// /retention_policies/{id}/assignments (listRetentionPolicyAssignments): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) listRetentionPolicyAssignmentsTx(recordID string, typ string, q wire.Page, fields []string) (reply, *wire.Error) {
	rp, aerr := s.retentionPolicyByID(recordID)
	if aerr != nil {
		return reply{}, aerr
	}
	var list []*retentionAssignment
	for _, a := range s.retention.assignOrder {
		if a.policy == rp && (typ == "" || a.toType == typ) {
			list = append(list, a)
		}
	}
	return reply{http.StatusOK, wire.PositionEntries(list, q, func(a *retentionAssignment) any {
		return pickFields(s.retentionAssignmentRecord(a), fields, "type", "id")
	})}, nil
}

// deleteRetentionAssignment serves DELETE /retention_policy_assignments/{id}:
// 204; 403 forbidden when its policy is non_modifiable (no code in the
// spec); 404. The retention it alone gave to file versions is lifted.
func (s *Server) deleteRetentionAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "id", http.StatusNoContent, s.retentionAssignmentByID, func(a *retentionAssignment) *wire.Error {
		if a.policy.retentionType == retentionNonModifiable {
			return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "An assignment of a non-modifiable retention policy cannot be deleted")
		}
		s.removeRetentionAssignment(a)
		return nil
	})
}

// removeRetentionAssignment forgets a and the retention it gave.
func (s *state) removeRetentionAssignment(a *retentionAssignment) {
	delete(s.retention.assignments, a.id)
	s.retention.assignOrder = wire.RemoveFrom(s.retention.assignOrder, a)
	s.dirty(kRetAssignments, a.id)
	for _, fvr := range append([]*fileVersionRetention(nil), s.retention.fvrOrder...) {
		if _, ok := fvr.sources[a]; !ok {
			continue
		}
		delete(fvr.sources, a)
		s.dirty(kRetVersions, fvr.id)
		if len(fvr.sources) == 0 {
			delete(s.retention.fvrs, fvr.id)
			delete(s.retention.byVersion, fvr.version.id)
			s.retention.fvrOrder = wire.RemoveFrom(s.retention.fvrOrder, fvr)
		}
	}
}

// listFilesUnderRetention serves GET
// /retention_policy_assignments/{id}/files_under_retention: the files whose
// current version the assignment retains (File--Mini), marker-paged.
func (s *Server) listFilesUnderRetention(w http.ResponseWriter, r *http.Request, p *principal) error {
	return s.listRetainedByAssignment(w, r, true)
}

// listFileVersionsUnderRetention serves GET
// /retention_policy_assignments/{id}/file_versions_under_retention: the
// earlier (not current) versions the assignment retains, each as the
// File--Mini of its file with file_version naming that version, marker-paged.
func (s *Server) listFileVersionsUnderRetention(w http.ResponseWriter, r *http.Request, p *principal) error {
	return s.listRetainedByAssignment(w, r, false)
}

func (s *Server) listRetainedByAssignment(w http.ResponseWriter, r *http.Request, current bool) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	recordID := r.PathValue("id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.listRetainedByAssignmentTx(recordID, current, q)
	})
}

// listRetainedByAssignmentTx is the transaction of listRetainedByAssignment
// (listRetainedByAssignment): what it checks, reads and changes under the
// state's lock, and its reply. Callers hold mu.
func (s *state) listRetainedByAssignmentTx(recordID string, current bool, q wire.Page) (reply, *wire.Error) {
	a, aerr := s.retentionAssignmentByID(recordID)
	if aerr != nil {
		return reply{}, aerr
	}
	var list []*fileVersionRetention
	for _, fvr := range s.retention.fvrOrder {
		if _, ok := fvr.sources[a]; ok && (fvr.file.current() == fvr.version) == current {
			list = append(list, fvr)
		}
	}
	return reply{http.StatusOK, wire.PositionEntries(list, q, func(fvr *fileVersionRetention) any {
		m := s.mini(fvr.file)
		if !current {
			m["file_version"] = fileVersionMini(fvr.version)
		}
		return m
	})}, nil
}
