package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// readInstancePath reads the instance path of r for items of typ.
func (s *Server) readInstancePath(r *http.Request, typ string) metadata.InstancePath {
	scope, scopeErr := s.pathScope(r)
	return metadata.InstancePath{Typ: typ, ItemID: r.PathValue(typ + "_id"), Scope: scope, ScopeErr: scopeErr,
		Key: r.PathValue("template_key"), Edit: r.Method != http.MethodGet}
}

// listInstances serves GET /files/{id}/metadata and /folders/{id}/metadata:
// every instance on the item, unpaged ({entries, limit}). The root folder
// is 403 forbidden, as the spec says for this operation.
func (s *Server) listInstances(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id := r.PathValue(typ + "_id")
		if typ == "folder" && id == state.RootID {
			return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "This operation is not allowed on the root folder")
		}
		if !state.ValidID(id) {
			return wire.NotFound(typ)
		}
		return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
			return metadata.ListInstances(tx, p, typ, id)
		})
	}
}

// getInstance serves GET .../metadata/{scope}/{template_key}: 200 (the
// spec lists 201 for folders; 200 is what the service sends) or 404
// instance_not_found.
func (s *Server) getInstance(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		ip := s.readInstancePath(r, typ)
		return s.changeErr(w, func(tx *state.Tx) (state.Reply, error) { return metadata.GetInstance(tx, ip, p) })
	}
}

// createInstance serves POST .../metadata/{scope}/{template_key}: 201
// Metadata--Full; 404 instance_tuple_not_found for an unknown template,
// 409 tuple_already_exists, 400 schema_validation_failed. An item holds at
// most 100 instances: the 101st is 400 bad_request (the service documents
// no code for it).
func (s *Server) createInstance(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
			return aerr
		}
		b, aerr := wire.ReadBody(r.Body)
		if aerr != nil {
			return aerr
		}
		raw, err := metadata.DecodeObject(b)
		if err != nil {
			return metadata.MDErrf(http.StatusBadRequest, wire.CodeBadRequest, "The body must be a JSON object of values")
		}
		ip := s.readInstancePath(r, typ)
		return s.changeErr(w, func(tx *state.Tx) (state.Reply, error) { return metadata.AddInstanceTx(tx, ip, p, raw) })
	}
}

// deleteInstance serves DELETE .../metadata/{scope}/{template_key}: 204.
func (s *Server) deleteInstance(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		ip := s.readInstancePath(r, typ)
		return s.changeErr(w, func(tx *state.Tx) (state.Reply, error) { return metadata.DeleteInstance(tx, ip, p) })
	}
}

// updateInstance serves PUT .../metadata/{scope}/{template_key} with a
// JSON Patch (application/json-patch+json): applied atomically by
// github.com/evanphx/json-patch/v5 to the instance's custom values. A
// failed test, and any other operation that cannot be applied (replace or
// remove of a missing key, a bad from), is 409 failed_json_patch_application
// with nothing changed: the service documents that code only for test, and
// it is the one patch-application failure it names. The result must still
// fit the template (400 schema_validation_failed). $version grows by one
// when the values changed.
func (s *Server) updateInstance(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		if aerr := requireContentType(r, false, state.ContentTypeJSONPatch); aerr != nil {
			return aerr
		}
		b, aerr := wire.ReadBody(r.Body)
		if aerr != nil {
			return aerr
		}
		patch, aerr := decodeInstancePatch(b)
		if aerr != nil {
			return aerr
		}
		ip := s.readInstancePath(r, typ)
		return s.changeErr(w, func(tx *state.Tx) (state.Reply, error) { return metadata.PatchInstance(tx, ip, p, patch) })
	}
}
