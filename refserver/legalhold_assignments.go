package refserver

import (
	"net/http"
	"slices"

	"github.com/contentapi/cms/refserver/internal/governance"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// createLegalHoldAssignment serves POST /legal_hold_policy_assignments: 201
// LegalHoldPolicyAssignment; every file version it covers is held at once.
// 400 bad_request: missing policy_id or assign_to type/id, an unknown type,
// a policy releasing or released (no code in the spec). 404 not_found:
// unknown policy or target. 409 conflict: the policy is already assigned to
// the target (no code in the spec).
func (s *Server) createLegalHoldAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b governance.LegalHoldAssignmentBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	if b.PolicyID == nil || *b.PolicyID == "" {
		return wire.BadRequest("Missing required field: policy_id")
	}
	if b.AssignTo == nil || b.AssignTo.Type == nil || b.AssignTo.ID == nil || *b.AssignTo.ID == "" {
		return wire.BadRequest("Missing required field: assign_to.type and assign_to.id")
	}
	a := &state.LegalHoldAssignment{ToType: *b.AssignTo.Type, ToID: *b.AssignTo.ID, By: p.User}
	if !slices.Contains(governance.HoldTargetTypes, a.ToType) {
		return wire.BadRequest("assign_to.type must be file, file_version, folder, user, ownership or interactions")
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.CreateLegalHoldAssignment(tx, b, p, a)
	})
}

// getLegalHoldAssignment serves GET /legal_hold_policy_assignments/{id}.
func (s *Server) getLegalHoldAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	fields := parseFields(r)
	return getRecord(s, w, r, "id", governance.LegalHoldAssignmentByID, func(tx *state.Tx, a *state.LegalHoldAssignment) map[string]any {
		return state.PickFields(governance.LegalHoldAssignmentRecord(tx, a), fields, "type", "id")
	})
}

// listLegalHoldAssignments serves GET /legal_hold_policy_assignments,
// marker-paged: policy_id is required (400), unknown is 404; assign_to_type
// (400 for an unknown type) and assign_to_id filter.
func (s *Server) listLegalHoldAssignments(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	query := r.URL.Query()
	policyID, typ, toID := query.Get("policy_id"), query.Get("assign_to_type"), query.Get("assign_to_id")
	if policyID == "" {
		return wire.BadRequest("Missing required parameter: policy_id")
	}
	if typ != "" && !slices.Contains(governance.HoldTargetTypes, typ) {
		return wire.BadRequest("assign_to_type must be file, file_version, folder, user, ownership or interactions")
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListLegalHoldAssignments(tx, policyID, typ, toID, q, fields)
	})
}

// deleteLegalHoldAssignment serves DELETE /legal_hold_policy_assignments/{id}:
// 202 with no body; the assignment keeps holding, listed with deleted_at,
// until it is gone. Asking again is accepted again and changes nothing.
func (s *Server) deleteLegalHoldAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "id", http.StatusAccepted, governance.LegalHoldAssignmentByID, governance.RemoveLegalHoldAssignment)
}
