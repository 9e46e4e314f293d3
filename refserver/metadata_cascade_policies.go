package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// createCascadePolicy serves POST /metadata_cascade_policies {folder_id,
// scope, templateKey}: 201 MetadataCascadePolicy; 400 bad_request when a
// member is missing.
func (s *Server) createCascadePolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body struct {
		FolderID    *string `json:"folder_id"`
		Scope       *string `json:"scope"`
		TemplateKey *string `json:"templateKey"`
	}
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	for name, v := range map[string]*string{"folder_id": body.FolderID, "scope": body.Scope, "templateKey": body.TemplateKey} {
		if v == nil || *v == "" {
			return wire.BadRequest("Missing required field: %s", name)
		}
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateCascadePolicy(p, *body.FolderID, *body.Scope, *body.TemplateKey)
	})
}

// listCascadePolicies serves GET /metadata_cascade_policies?folder_id=
// (owner_enterprise_id, marker or offset, limit): a marker page; 400
// bad_request without folder_id.
func (s *Server) listCascadePolicies(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q := r.URL.Query()
	folderID := q.Get("folder_id")
	if folderID == "" {
		return wire.BadRequest("Missing required parameter: folder_id")
	}
	pq, aerr := wire.ParseMarkerPage(q)
	if aerr != nil {
		return aerr
	}
	if !pq.HasMarker {
		if pq.Marker, aerr = wire.QueryOffset(q); aerr != nil {
			return aerr
		}
	}
	owner := q.Get("owner_enterprise_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListCascadePolicies(p, folderID, owner, pq)
	})
}

// getCascadePolicy serves GET /metadata_cascade_policies/{id}: 200.
func (s *Server) getCascadePolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("metadata_cascade_policy_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetCascadePolicy(p, id)
	})
}

// deleteCascadePolicy serves DELETE /metadata_cascade_policies/{id}: 204.
func (s *Server) deleteCascadePolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("metadata_cascade_policy_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.DeleteCascadePolicy(p, id)
	})
}

// applyCascadePolicy serves POST /metadata_cascade_policies/{id}/apply
// {conflict_resolution: none|overwrite}: 202, empty; 400 bad_request for
// another resolution. Without one the items keep their values (none), as
// Box's force-apply guide says.
func (s *Server) applyCascadePolicy(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body struct {
		ConflictResolution *string `json:"conflict_resolution"`
	}
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.ConflictResolution != nil && *body.ConflictResolution != "none" && *body.ConflictResolution != "overwrite" {
		return wire.BadRequest("Invalid value for \"conflict_resolution\": none or overwrite")
	}
	overwrite := body.ConflictResolution != nil && *body.ConflictResolution == "overwrite"
	id := r.PathValue("metadata_cascade_policy_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ApplyCascadePolicy(p, id, overwrite)
	})
}
