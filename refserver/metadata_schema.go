package refserver

import (
	"io"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// decodeSchemaOps decodes a schema update body: a non-empty JSON array of
// operation objects (unknown members are 400 bad_request).
func decodeSchemaOps(r io.Reader) ([]metadata.SchemaOp, *wire.Error) {
	var ops []metadata.SchemaOp
	if aerr := wire.DecodeJSON(r, &ops); aerr != nil {
		return nil, aerr
	}
	if len(ops) == 0 {
		return nil, wire.BadRequest("The body must be a non-empty array of operations")
	}
	return ops, nil
}

// updateTemplate serves PUT /metadata_templates/{scope}/{template_key}/schema:
// the operations are applied atomically (all or none) and then their side
// effects on instances: removeField drops the values, removeEnumOption
// resets them to null (the key disappears), removeMultiSelectOption takes
// the option out of value lists, editField's key rename and the option
// renames carry the values over. 200 MetadataTemplate. The body may be
// declared application/json-patch+json (spec) or application/json (the
// classic box-node-sdk sends that).
func (s *Server) updateTemplate(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := requireContentType(r, true, state.ContentTypeJSONPatch, "application/json"); aerr != nil {
		return aerr
	}
	ops, aerr := decodeSchemaOps(r.Body)
	if aerr != nil {
		return aerr
	}
	scope, aerr := s.pathScope(r)
	if aerr != nil {
		return aerr
	}
	templateKey := r.PathValue("template_key")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.UpdateTemplate(tx, scope, templateKey, ops)
	})
}
