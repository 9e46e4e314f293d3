package governance

import (
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// LegalHoldPolicyBody is the body of POST and PUT /legal_hold_policies.
type LegalHoldPolicyBody struct {
	PolicyName      *string    `json:"policy_name"`
	Description     *string    `json:"description"`
	FilterStartedAt *time.Time `json:"filter_started_at"`
	FilterEndedAt   *time.Time `json:"filter_ended_at"`
	IsOngoing       *bool      `json:"is_ongoing"`
	ReleaseNotes    *string    `json:"release_notes"`
}

// LegalHoldPolicyNamed finds a policy that is not released by name (names
// are unique ignoring case among policies not released), other than skip.
func LegalHoldPolicyNamed(s *state.Tx, name string, skip *state.LegalHoldPolicy) *state.LegalHoldPolicy {
	for _, hp := range s.Holds.PolicyOrder {
		if hp != skip && strings.EqualFold(hp.Name, name) && s.HoldStatus(hp) != state.HoldReleased {
			return hp
		}
	}
	return nil
}

// CreateLegalHoldPolicy serves POST /legal_hold_policies (refserver's
// createLegalHoldPolicy): hp (built from the checked body) is added,
// "applying" at first; 409 for a name a policy not released has. 201 with
// its record.
func CreateLegalHoldPolicy(s *state.Tx, hp *state.LegalHoldPolicy) (state.Reply, *wire.Error) {
	if LegalHoldPolicyNamed(s, hp.Name, nil) != nil {
		return state.Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A legal hold policy with this name already exists")
	}
	hp.ID = s.NewID()
	hp.Created = s.Now()
	hp.CreatedAt = s.NowSec()
	hp.ModifiedAt = hp.CreatedAt
	s.Holds.Policies.Put(hp.ID, hp)
	s.Holds.PolicyOrder = append(s.Holds.PolicyOrder, hp)
	return state.Reply{Status: wire.StatusCreated, Body: LegalHoldPolicyRecord(s, hp)}, nil
}

// LegalHoldPolicyRecord is the LegalHoldPolicy record.
func LegalHoldPolicyRecord(s *state.Tx, hp *state.LegalHoldPolicy) map[string]any {
	counts := map[string]any{}
	for _, t := range HoldTargetTypes {
		counts[t] = 0
	}
	now := s.Now()
	for _, a := range s.Holds.AssignOrder {
		if a.Policy == hp && !s.HoldAssignmentGone(a, now) {
			counts[a.ToType] = counts[a.ToType].(int) + 1
		}
	}
	return map[string]any{
		"type": "legal_hold_policy", "id": hp.ID,
		"policy_name":       hp.Name,
		"description":       hp.Description,
		"status":            s.HoldStatus(hp),
		"assignment_counts": counts,
		"created_by":        hp.CreatedBy.Mini(),
		"created_at":        state.FmtTime(hp.CreatedAt),
		"modified_at":       state.FmtTime(hp.ModifiedAt),
		"deleted_at":        state.FmtTime(hp.Released.Truncate(time.Second)),
		"filter_started_at": state.FmtTime(hp.FilterStart),
		"filter_ended_at":   state.FmtTime(hp.FilterEnd),
		"release_notes":     hp.ReleaseNotes,
	}
}

// LegalHoldPolicyByID finds a policy, released ones included: 404
// not_found when unknown.
func LegalHoldPolicyByID(s *state.Tx, id string) (*state.LegalHoldPolicy, *wire.Error) {
	return state.TableRecord(&s.Holds.Policies, id, "legal_hold_policy")
}

// ListLegalHoldPolicies serves GET /legal_hold_policies
// (listLegalHoldPolicies): a marker page of the policies whose lower-cased
// name starts with prefix, oldest first.
func ListLegalHoldPolicies(s *state.Tx, prefix string, q wire.Page, fields []string) (state.Reply, *wire.Error) {
	var list []*state.LegalHoldPolicy
	for _, hp := range s.Holds.PolicyOrder {
		if strings.HasPrefix(strings.ToLower(hp.Name), prefix) {
			list = append(list, hp)
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(hp *state.LegalHoldPolicy) any {
		return state.PickFields(LegalHoldPolicyRecord(s, hp), fields, "type", "id")
	})}, nil
}

// UpdateLegalHoldPolicy serves PUT /legal_hold_policies/{id}
// (updateLegalHoldPolicy): the policy's name (409 when taken),
// description and release notes.
func UpdateLegalHoldPolicy(s *state.Tx, pathValue string, b LegalHoldPolicyBody) (state.Reply, *wire.Error) {
	hp, aerr := LegalHoldPolicyByID(s, pathValue)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	if b.PolicyName != nil && LegalHoldPolicyNamed(s, *b.PolicyName, hp) != nil {
		return state.Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A legal hold policy with this name already exists")
	}
	s.Holds.Policies.Update(hp.ID, func(hp *state.LegalHoldPolicy) {
		if b.PolicyName != nil {
			hp.Name = *b.PolicyName
		}
		if b.Description != nil {
			hp.Description = *b.Description
		}
		if b.ReleaseNotes != nil {
			hp.ReleaseNotes = *b.ReleaseNotes
		}
		hp.ModifiedAt = s.NowSec()
	})
	return state.Reply{Status: wire.StatusOK, Body: LegalHoldPolicyRecord(s, hp)}, nil
}

// ReleaseLegalHold starts the release of hp (releasing, then released);
// a second release changes nothing.
func ReleaseLegalHold(s *state.Tx, hp *state.LegalHoldPolicy) *wire.Error {
	if hp.Released.IsZero() {
		s.Holds.Policies.Update(hp.ID, func(hp *state.LegalHoldPolicy) { hp.Released = s.Now() })
	}
	return nil
}
