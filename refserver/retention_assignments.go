package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/governance"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

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
func (s *Server) createRetentionAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b governance.RetentionAssignmentBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	if b.PolicyID == nil || *b.PolicyID == "" {
		return wire.BadRequest("Missing required field: policy_id")
	}
	if b.AssignTo == nil || b.AssignTo.Type == nil {
		return wire.BadRequest("Missing required field: assign_to.type")
	}
	a := &state.RetentionAssignment{ToType: *b.AssignTo.Type, By: p.User}
	a.ToID, _ = b.AssignTo.ID.Value()
	switch a.ToType {
	case state.AssignEnterprise:
		if a.ToID != "" {
			return wire.BadRequest("assign_to.id must be null or absent for the enterprise")
		}
	case state.AssignFolder, state.AssignMetadataTemplate:
		if a.ToID == "" {
			return wire.BadRequest("Missing required field: assign_to.id")
		}
	default:
		return wire.BadRequest("assign_to.type must be enterprise, folder or metadata_template")
	}
	if ff, ok := b.FilterFields.Value(); ok && len(ff) > 0 {
		if a.ToType != state.AssignMetadataTemplate {
			return wire.BadRequest("filter_fields can only be used with a metadata_template assignment")
		}
		if len(ff) > 1 {
			return wire.BadRequest("filter_fields supports one field")
		}
		if ff[0].Field == "" || ff[0].Value == "" {
			return wire.BadRequest("filter_fields needs a field and a value")
		}
		a.FilterFields = ff
	}
	if v, ok := b.StartDateField.Value(); ok {
		if a.ToType != state.AssignMetadataTemplate {
			return wire.BadRequest("start_date_field can only be used with a metadata_template assignment")
		}
		if v == "" {
			return wire.BadRequest("start_date_field cannot be empty")
		}
		a.StartDateField = v
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.CreateRetentionAssignment(tx, b, a, p)
	})
}

// getRetentionAssignment serves GET /retention_policy_assignments/{id}.
func (s *Server) getRetentionAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	fields := parseFields(r)
	return getRecord(s, w, r, "id", governance.RetentionAssignmentByID, func(tx *state.Tx, a *state.RetentionAssignment) map[string]any {
		return state.PickFields(governance.RetentionAssignmentRecord(tx, a), fields, "type", "id")
	})
}

// listRetentionPolicyAssignments serves GET /retention_policies/{id}/assignments,
// marker-paged, filtered by type (400 for another value).
func (s *Server) listRetentionPolicyAssignments(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	typ := r.URL.Query().Get("type")
	switch typ {
	case "", state.AssignEnterprise, state.AssignFolder, state.AssignMetadataTemplate:
	default:
		return wire.BadRequest("type must be enterprise, folder or metadata_template")
	}
	fields := parseFields(r)
	recordID := r.PathValue("id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListRetentionPolicyAssignments(tx, recordID, typ, q, fields)
	})
}

// deleteRetentionAssignment serves DELETE /retention_policy_assignments/{id}:
// 204; 403 forbidden when its policy is non_modifiable (no code in the
// spec); 404. The retention it alone gave to file versions is lifted.
func (s *Server) deleteRetentionAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "id", http.StatusNoContent, governance.RetentionAssignmentByID, governance.DeleteRetentionAssignment)
}

// listFilesUnderRetention serves GET
// /retention_policy_assignments/{id}/files_under_retention: the files whose
// current version the assignment retains (File--Mini), marker-paged.
func (s *Server) listFilesUnderRetention(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return s.listRetainedByAssignment(w, r, true)
}

// listFileVersionsUnderRetention serves GET
// /retention_policy_assignments/{id}/file_versions_under_retention: the
// earlier (not current) versions the assignment retains, each as the
// File--Mini of its file with file_version naming that version, marker-paged.
func (s *Server) listFileVersionsUnderRetention(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return s.listRetainedByAssignment(w, r, false)
}

func (s *Server) listRetainedByAssignment(w http.ResponseWriter, r *http.Request, current bool) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	recordID := r.PathValue("id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListRetainedByAssignment(tx, recordID, current, q)
	})
}
