package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/governance"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// listFileVersionLegalHolds serves GET /file_version_legal_holds: the
// versions a policy holds, marker-paged; policy_id is required (400),
// unknown is 404.
func (s *Server) listFileVersionLegalHolds(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	policyID := r.URL.Query().Get("policy_id")
	if policyID == "" {
		return wire.BadRequest("Missing required parameter: policy_id")
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListFileVersionLegalHolds(tx, policyID, q)
	})
}

// getFileVersionLegalHold serves GET /file_version_legal_holds/{id}: 404
// once no assignment holds the version any more.
func (s *Server) getFileVersionLegalHold(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	recordID := r.PathValue("id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.GetFileVersionLegalHold(tx, recordID)
	})
}

// listFilesOnHold serves GET
// /legal_hold_policy_assignments/{id}/files_on_hold: the files whose current
// version the assignment holds (File--Mini), marker-paged.
func (s *Server) listFilesOnHold(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return s.listHeldByAssignment(w, r, p, true)
}

// listFileVersionsOnHold serves GET
// /legal_hold_policy_assignments/{id}/file_versions_on_hold: the earlier
// (not current) versions the assignment holds (FileVersion), marker-paged.
func (s *Server) listFileVersionsOnHold(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return s.listHeldByAssignment(w, r, p, false)
}

func (s *Server) listHeldByAssignment(w http.ResponseWriter, r *http.Request, p *state.Principal, current bool) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	recordID := r.PathValue("id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListHeldByAssignment(tx, recordID, current, q, fields, p)
	})
}
