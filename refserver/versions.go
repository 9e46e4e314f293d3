package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// getFileVersion serves GET /files/{file_id}/versions/{file_version_id}:
// one version of a file (FileVersion--Full). The current version is served
// too. An unknown version of a visible file is 404 not_found.
func (s *Server) getFileVersion(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	vid := r.PathValue("file_version_id")
	if !state.ValidID(vid) {
		return wire.NotFound("file version")
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetFileVersion(p, id, vid, fields)
	})
}
