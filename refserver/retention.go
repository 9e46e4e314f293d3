package refserver

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/governance"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// createRetentionPolicy serves POST /retention_policies: 201 RetentionPolicy;
// 400 bad_request for a missing or invalid field; 409 conflict when the name
// is taken (the spec names no code for it).
func (s *Server) createRetentionPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b governance.RetentionPolicyBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	rp := &state.RetentionPolicy{RetentionType: state.RetentionModifiable, Status: state.RetentionStatusActive, CreatedBy: p.User}
	var ok bool
	if rp.Name, ok = b.PolicyName.Value(); !ok || strings.TrimSpace(rp.Name) == "" {
		return wire.BadRequest("Missing required field: policy_name")
	}
	if rp.PolicyType, ok = b.PolicyType.Value(); !ok || rp.PolicyType != state.RetentionFinite && rp.PolicyType != state.RetentionIndefinite {
		return wire.BadRequest("policy_type must be finite or indefinite")
	}
	if rp.Disposition, ok = b.DispositionAction.Value(); !ok || !governance.ValidDisposition(rp.Disposition) {
		return wire.BadRequest("disposition_action must be permanently_delete or remove_retention")
	}
	if b.Status.Present {
		return wire.BadRequest("Unknown field: status")
	}
	days, aerr := governance.RetentionLength(b.RetentionLength, rp.PolicyType, true)
	if aerr != nil {
		return aerr
	}
	rp.Days = days
	if v, ok := b.RetentionType.Value(); ok {
		if v != state.RetentionModifiable && v != state.RetentionNonModifiable {
			return wire.BadRequest("retention_type must be modifiable or non_modifiable")
		}
		rp.RetentionType = v
	}
	rp.Description, _ = b.Description.Value()
	if utf8.RuneCountInString(rp.Description) > state.MaxRetentionDescription {
		return wire.BadRequest("description is longer than %d characters", state.MaxRetentionDescription)
	}
	if len(b.MaxExtensionLength) > 0 && string(b.MaxExtensionLength) != "null" {
		days, aerr := governance.CheckMaxExtension(b.MaxExtensionLength, rp.PolicyType, rp.Disposition)
		if aerr != nil {
			return aerr
		}
		rp.MaxExtension = days
	}
	rp.CanOwnerExtend, _ = b.CanOwnerExtendRetention.Value()
	rp.OwnersNotified, _ = b.AreOwnersNotified.Value()
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.CreateRetentionPolicy(tx, b, rp)
	})
}

// getRetentionPolicy serves GET /retention_policies/{id}: 200 RetentionPolicy
// (fields picks fields; the mini fields always come).
func (s *Server) getRetentionPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	fields := parseFields(r)
	return getRecord(s, w, r, "id", governance.RetentionPolicyByID, func(tx *state.Tx, rp *state.RetentionPolicy) map[string]any {
		return governance.PickRetentionFields(governance.RetentionPolicyRecord(tx, rp), fields)
	})
}

// listRetentionPolicies serves GET /retention_policies, marker-paged, with
// the filters policy_name (case-sensitive prefix), policy_type (400 for
// another value) and created_by_user_id (404 for an unknown user).
func (s *Server) listRetentionPolicies(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	query := r.URL.Query()
	name, typ, by := query.Get("policy_name"), query.Get("policy_type"), query.Get("created_by_user_id")
	if typ != "" && typ != state.RetentionFinite && typ != state.RetentionIndefinite {
		return wire.BadRequest("policy_type must be finite or indefinite")
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListRetentionPolicies(tx, by, name, typ, q, fields)
	})
}

// updateRetentionPolicy serves PUT /retention_policies/{id}: 200
// RetentionPolicy. A null field means "no change" (description null clears
// it, custom_notification_recipients null empties the list). Errors: 400
// bad_request (invalid value; retention_type other than non_modifiable;
// status other than retired, or active again once retired — the spec names
// no code); 403 forbidden when a non_modifiable policy would be shortened or
// made modifiable again (the spec names no code); 409 conflict for a name
// taken; 404 for an unknown policy.
func (s *Server) updateRetentionPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b governance.RetentionPolicyBody
	if aerr := wire.DecodeJSON(r.Body, &b); aerr != nil {
		return aerr
	}
	if b.PolicyType.Present {
		return wire.BadRequest("policy_type cannot be changed")
	}
	pathValue := r.PathValue("id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.UpdateRetentionPolicy(tx, pathValue, b)
	})
}

// deleteRetentionPolicy serves DELETE /retention_policies/{id}: 204; 403
// forbidden for a non_modifiable policy (the spec names no code); 404 for
// an unknown one. Its assignments go with it, and so does the retention
// they alone gave to file versions.
func (s *Server) deleteRetentionPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "id", http.StatusNoContent, governance.RetentionPolicyByID, governance.RemoveRetentionPolicy)
}
