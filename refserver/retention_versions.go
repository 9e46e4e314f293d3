package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/governance"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// listFileVersionRetentions serves GET /file_version_retentions,
// marker-paged, with the filters file_id, file_version_id, policy_id (any
// policy retaining the version), disposition_action (of the winning policy;
// 400 for another value), disposition_before and disposition_after
// (RFC 3339; a version retained indefinitely has no disposition date and
// matches neither).
func (s *Server) listFileVersionRetentions(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	query := r.URL.Query()
	fileID, versionID, policyID, action := query.Get("file_id"), query.Get("file_version_id"), query.Get("policy_id"), query.Get("disposition_action")
	if action != "" && !governance.ValidDisposition(action) {
		return wire.BadRequest("disposition_action must be permanently_delete or remove_retention")
	}
	before, aerr := parseTimeParam(r, "disposition_before")
	if aerr != nil {
		return aerr
	}
	after, aerr := parseTimeParam(r, "disposition_after")
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return governance.ListFileVersionRetentions(tx, fileID, versionID, action, before, after, policyID, q)
	})
}

// getFileVersionRetention serves GET /file_version_retentions/{id}.
func (s *Server) getFileVersionRetention(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	find := func(tx *state.Tx, id string) (*state.FileVersionRetention, *wire.Error) {
		return state.TableRecord(&tx.Retention.Fvrs, id, "file_version_retention")
	}
	return getRecord(s, w, r, "id", find, governance.FileVersionRetentionRecord)
}
