package governance

import (
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// ListFileVersionLegalHolds serves GET /file_version_legal_holds: the
// file versions the policy policyID holds now, in the order they were
// held, marker-paged; 404 for an unknown policy.
func ListFileVersionLegalHolds(s *state.Tx, policyID string, q wire.Page) (state.Reply, *wire.Error) {
	hp, aerr := LegalHoldPolicyByID(s, policyID)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	now := s.Now()
	type entry struct {
		h      *state.FileVersionLegalHold
		active []*state.LegalHoldAssignment
	}
	var list []entry
	for _, h := range s.Holds.HoldOrder {
		active := s.ActiveHolds(h, now)
		for _, a := range active {
			if a.Policy == hp {
				list = append(list, entry{h, active})
				break
			}
		}
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(e entry) any {
		return FileVersionLegalHoldRecord(s, e.h, e.active)
	})}, nil
}
