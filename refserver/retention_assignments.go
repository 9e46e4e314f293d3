package refserver

import (
	"net/http"
	"regexp"
	"time"
)

// retentionAssignment puts a retention policy on the enterprise, a folder
// (and everything below it) or a metadata template.
type retentionAssignment struct {
	id             string
	policy         *retentionPolicy
	toType, toID   string // toID "" for the enterprise
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

// templateIDPattern accepts the ids of metadata templates: a template's id
// (a UUID) or its scope and key (enterprise_<id>.<templateKey>, as the
// metadata API names templates). The metadata templates are kept by their
// own resource; until it offers a lookup, an id of either shape is taken
// as existing.
var templateIDPattern = regexp.MustCompile(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|(enterprise(_[0-9]+)?|global)\.[A-Za-z0-9_-]{1,64})$`)

// retentionAssignmentBody is the body of POST /retention_policy_assignments.
type retentionAssignmentBody struct {
	PolicyID *string `json:"policy_id"`
	AssignTo *struct {
		Type *string          `json:"type"`
		ID   nullable[string] `json:"id"`
	} `json:"assign_to"`
	FilterFields   nullable[[]filterField] `json:"filter_fields"`
	StartDateField nullable[string]        `json:"start_date_field"`
}

// createRetentionAssignment serves POST /retention_policy_assignments: 201
// RetentionPolicyAssignment. 400 bad_request: missing policy_id/assign_to,
// an unknown type, an id for the enterprise, no id for a folder or template,
// filter_fields or start_date_field with another type than
// metadata_template, more than one filter field, start_date_field with an
// indefinite policy, a retired policy (no code in the spec), the root
// folder. 404 not_found: unknown policy or folder. 409 conflict: a policy
// of equal or greater length is already assigned to the same target.
// Every file version the assignment covers is retained at once.
func (s *Server) createRetentionAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := requireJSONContentType(r); aerr != nil {
		return aerr
	}
	var b retentionAssignmentBody
	if aerr := decodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	if b.PolicyID == nil || *b.PolicyID == "" {
		return errBadRequest("Missing required field: policy_id")
	}
	if b.AssignTo == nil || b.AssignTo.Type == nil {
		return errBadRequest("Missing required field: assign_to.type")
	}
	a := &retentionAssignment{toType: *b.AssignTo.Type, by: p.user}
	a.toID, _ = b.AssignTo.ID.value()
	switch a.toType {
	case assignEnterprise:
		if a.toID != "" {
			return errBadRequest("assign_to.id must be null or absent for the enterprise")
		}
	case assignFolder, assignMetadataTemplate:
		if a.toID == "" {
			return errBadRequest("Missing required field: assign_to.id")
		}
	default:
		return errBadRequest("assign_to.type must be enterprise, folder or metadata_template")
	}
	if ff, ok := b.FilterFields.value(); ok && len(ff) > 0 {
		if a.toType != assignMetadataTemplate {
			return errBadRequest("filter_fields can only be used with a metadata_template assignment")
		}
		if len(ff) > 1 {
			return errBadRequest("filter_fields supports one field")
		}
		if ff[0].Field == "" || ff[0].Value == "" {
			return errBadRequest("filter_fields needs a field and a value")
		}
		a.filterFields = ff
	}
	if v, ok := b.StartDateField.value(); ok {
		if a.toType != assignMetadataTemplate {
			return errBadRequest("start_date_field can only be used with a metadata_template assignment")
		}
		if v == "" {
			return errBadRequest("start_date_field cannot be empty")
		}
		a.startDateField = v
	}
	if a.toType == assignMetadataTemplate && !templateIDPattern.MatchString(a.toID) {
		return errNotFound("metadata_template")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rp, aerr := s.retentionPolicyByID(*b.PolicyID)
	if aerr != nil {
		return aerr
	}
	if rp.status == retentionStatusRetired {
		return errBadRequest("A retired retention policy cannot be assigned")
	}
	if a.startDateField != "" && rp.policyType == retentionIndefinite {
		return errBadRequest("start_date_field cannot be used with an indefinite policy")
	}
	if a.toType == assignFolder {
		if a.toID == rootID {
			return errBadRequest("The root folder cannot be assigned; assign the enterprise instead")
		}
		if _, aerr := s.lookup(p, "folder", a.toID); aerr != nil {
			return aerr
		}
	}
	for _, other := range s.retention.assignOrder {
		if other.toType == a.toType && other.toID == a.toID && other.policy.longerOrEqual(rp) {
			return errf(http.StatusConflict, codeConflict, "A retention policy of equal or greater length has already been assigned to this item")
		}
	}
	a.policy = rp
	a.id = s.newID()
	a.at = s.nowSec()
	s.retention.assignments[a.id] = a
	s.retention.assignOrder = append(s.retention.assignOrder, a)
	for _, f := range s.filesByID() {
		if s.retentionCovers(a, f) {
			for _, v := range f.versions {
				s.retainVersion(f, v, a)
			}
		}
	}
	writeJSON(w, http.StatusCreated, s.retentionAssignmentRecord(a))
	return nil
}

// retentionCovers reports whether assignment a applies to file f. A
// metadata template assignment covers the files carrying an instance of the
// template; the metadata resource does not tell this server yet, so it
// covers none here.
func (s *Server) retentionCovers(a *retentionAssignment, f *item) bool {
	switch a.toType {
	case assignEnterprise:
		return true
	case assignFolder:
		return s.isUnder(f, a.toID)
	}
	return false
}

// retentionAssignmentRecord is the RetentionPolicyAssignment record.
func (s *Server) retentionAssignmentRecord(a *retentionAssignment) map[string]any {
	var id, filters, start any
	if a.toID != "" {
		id = a.toID
	}
	if a.toType == assignMetadataTemplate {
		list := make([]any, 0, len(a.filterFields))
		for _, f := range a.filterFields {
			list = append(list, map[string]any{"field": f.Field, "value": f.Value})
		}
		filters = list
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

func (s *Server) retentionAssignmentByID(id string) (*retentionAssignment, *apiError) {
	a, ok := s.retention.assignments[id]
	if !ok {
		return nil, errNotFound("retention_policy_assignment")
	}
	return a, nil
}

// getRetentionAssignment serves GET /retention_policy_assignments/{id}.
func (s *Server) getRetentionAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	a, aerr := s.retentionAssignmentByID(r.PathValue("id"))
	if aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, pickFields(s.retentionAssignmentRecord(a), fields, "type", "id"))
	return nil
}

// listRetentionPolicyAssignments serves GET /retention_policies/{id}/assignments,
// marker-paged, filtered by type (400 for another value).
func (s *Server) listRetentionPolicyAssignments(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := parseMarkerQuery(r)
	if aerr != nil {
		return aerr
	}
	typ := r.URL.Query().Get("type")
	switch typ {
	case "", assignEnterprise, assignFolder, assignMetadataTemplate:
	default:
		return errBadRequest("type must be enterprise, folder or metadata_template")
	}
	fields := parseFields(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	rp, aerr := s.retentionPolicyByID(r.PathValue("id"))
	if aerr != nil {
		return aerr
	}
	var list []*retentionAssignment
	for _, a := range s.retention.assignOrder {
		if a.policy == rp && (typ == "" || a.toType == typ) {
			list = append(list, a)
		}
	}
	writeJSON(w, http.StatusOK, q.page(len(list), func(i int) any {
		return pickFields(s.retentionAssignmentRecord(list[i]), fields, "type", "id")
	}))
	return nil
}

// deleteRetentionAssignment serves DELETE /retention_policy_assignments/{id}:
// 204; 403 forbidden when its policy is non_modifiable (no code in the
// spec); 404. The retention it alone gave to file versions is lifted.
func (s *Server) deleteRetentionAssignment(w http.ResponseWriter, r *http.Request, p *principal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, aerr := s.retentionAssignmentByID(r.PathValue("id"))
	if aerr != nil {
		return aerr
	}
	if a.policy.retentionType == retentionNonModifiable {
		return errf(http.StatusForbidden, codeForbidden, "An assignment of a non-modifiable retention policy cannot be deleted")
	}
	s.removeRetentionAssignment(a)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeRetentionAssignment forgets a and the retention it gave.
func (s *Server) removeRetentionAssignment(a *retentionAssignment) {
	delete(s.retention.assignments, a.id)
	s.retention.assignOrder = removeFrom(s.retention.assignOrder, a)
	for _, fvr := range append([]*fileVersionRetention(nil), s.retention.fvrOrder...) {
		if _, ok := fvr.sources[a]; !ok {
			continue
		}
		delete(fvr.sources, a)
		if len(fvr.sources) == 0 {
			delete(s.retention.fvrs, fvr.id)
			delete(s.retention.byVersion, fvr.version.id)
			s.retention.fvrOrder = removeFrom(s.retention.fvrOrder, fvr)
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
	q, aerr := parseMarkerQuery(r)
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, aerr := s.retentionAssignmentByID(r.PathValue("id"))
	if aerr != nil {
		return aerr
	}
	var list []*fileVersionRetention
	for _, fvr := range s.retention.fvrOrder {
		if _, ok := fvr.sources[a]; ok && (fvr.file.current() == fvr.version) == current {
			list = append(list, fvr)
		}
	}
	writeJSON(w, http.StatusOK, q.page(len(list), func(i int) any {
		m := s.mini(list[i].file)
		if !current {
			m["file_version"] = fileVersionMini(list[i].version)
		}
		return m
	}))
	return nil
}
