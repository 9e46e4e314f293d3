package refserver

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/governance"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// checkHoldText applies the length limits of names, descriptions and notes.
func checkHoldText(b *governance.LegalHoldPolicyBody) *wire.Error {
	if b.PolicyName != nil {
		if strings.TrimSpace(*b.PolicyName) == "" {
			return wire.BadRequest("policy_name cannot be empty")
		}
		if utf8.RuneCountInString(*b.PolicyName) > state.MaxHoldPolicyName {
			return wire.BadRequest("policy_name is longer than %d characters", state.MaxHoldPolicyName)
		}
	}
	for name, v := range map[string]*string{"description": b.Description, "release_notes": b.ReleaseNotes} {
		if v != nil && utf8.RuneCountInString(*v) > state.MaxHoldText {
			return wire.BadRequest("%s is longer than %d characters", name, state.MaxHoldText)
		}
	}
	return nil
}

// createLegalHoldPolicy serves POST /legal_hold_policies: 201
// LegalHoldPolicy with status applying. 400 bad_request: no policy_name, a
// name over 254 or a description over 500 characters, neither is_ongoing
// true nor both filter dates, a start after the end, release_notes (not a
// create field). 409 conflict: the name is taken (the spec names no code).
func (s *Server) createLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b governance.LegalHoldPolicyBody
	if aerr := wire.DecodeJSONObject(r.Body, &b, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if b.PolicyName == nil {
		return wire.BadRequest("Missing required field: policy_name")
	}
	if b.ReleaseNotes != nil {
		return wire.BadRequest("Unknown field: release_notes")
	}
	if aerr := checkHoldText(&b); aerr != nil {
		return aerr
	}
	hp := &state.LegalHoldPolicy{Name: *b.PolicyName, CreatedBy: p.User}
	if b.Description != nil {
		hp.Description = *b.Description
	}
	hp.Ongoing = b.IsOngoing != nil && *b.IsOngoing
	if b.FilterStartedAt != nil {
		hp.FilterStart = b.FilterStartedAt.UTC()
	}
	if b.FilterEndedAt != nil {
		hp.FilterEnd = b.FilterEndedAt.UTC()
	}
	if (b.FilterStartedAt == nil) != (b.FilterEndedAt == nil) {
		return wire.BadRequest("filter_started_at and filter_ended_at go together")
	}
	if !hp.Ongoing && b.FilterStartedAt == nil {
		return wire.BadRequest("is_ongoing must be true, or filter_started_at and filter_ended_at given")
	}
	if b.FilterStartedAt != nil && hp.FilterEnd.Before(hp.FilterStart) {
		return wire.BadRequest("filter_started_at is after filter_ended_at")
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.CreateLegalHoldPolicy(tx, hp)
	})
}

// getLegalHoldPolicy serves GET /legal_hold_policies/{id}.
func (s *Server) getLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return getRecord(s, w, r, "id", governance.LegalHoldPolicyByID, governance.LegalHoldPolicyRecord)
}

// listLegalHoldPolicies serves GET /legal_hold_policies, marker-paged,
// filtered by policy_name (a case-insensitive prefix).
func (s *Server) listLegalHoldPolicies(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	prefix := strings.ToLower(r.URL.Query().Get("policy_name"))
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListLegalHoldPolicies(tx, prefix, q, fields)
	})
}

// updateLegalHoldPolicy serves PUT /legal_hold_policies/{id}: 200
// LegalHoldPolicy; only policy_name, description and release_notes change
// (400 for anything else or a text too long); 409 conflict for a name taken.
func (s *Server) updateLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var b governance.LegalHoldPolicyBody
	if aerr := wire.DecodeJSONObject(r.Body, &b, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if b.FilterStartedAt != nil || b.FilterEndedAt != nil || b.IsOngoing != nil {
		return wire.BadRequest("Only policy_name, description and release_notes can be changed")
	}
	if aerr := checkHoldText(&b); aerr != nil {
		return aerr
	}
	pathValue := r.PathValue("id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.UpdateLegalHoldPolicy(tx, pathValue, b)
	})
}

// releaseLegalHoldPolicy serves DELETE /legal_hold_policies/{id}: 202 with
// no body; the release runs in the background (releasing, then released,
// when the holds lift). Asking again is accepted again and changes nothing.
func (s *Server) releaseLegalHoldPolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "id", http.StatusAccepted, governance.LegalHoldPolicyByID, governance.ReleaseLegalHold)
}
