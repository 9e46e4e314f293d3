package metadata

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
	jsonpatch "github.com/evanphx/json-patch/v5"
)

// DecodeObject decodes a JSON object with numbers kept as json.Number.
func DecodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data")
	}
	if m == nil {
		return nil, errors.New("not an object")
	}
	return m, nil
}

// ApplyInstancePatch applies a patch to a copy of the instance's values
// and checks the result against the template.
func ApplyInstancePatch(in *state.MDInstance, patch jsonpatch.Patch) (map[string]state.MDVal, error) {
	doc := make(map[string]any, in.Values.Len())
	for k, v := range in.Values.All() {
		doc[k] = v.JSON()
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	out, err := patch.ApplyWithOptions(b, patchOptions)
	if err != nil {
		msg := "The patch could not be applied"
		if errors.Is(err, jsonpatch.ErrTestFailed) {
			msg = "value differs from expectations"
		}
		return nil, MDErrf(wire.StatusConflict, CodeFailedJSONPatch, "%s", msg)
	}
	raw, err := DecodeObject(out)
	if err != nil {
		return nil, MDErrf(wire.StatusConflict, CodeFailedJSONPatch, "The patch does not leave an object of values")
	}
	values, merr := TemplateValues(in.Tmpl, raw)
	if merr != nil {
		return nil, merr
	}
	return values, nil
}

// patchOptions bound what a patch may do: no negative indices, and
// copies no larger than a request body.
var patchOptions = &jsonpatch.ApplyOptions{
	SupportNegativeIndices:   false,
	AccumulatedCopySizeLimit: wire.MaxJSONBody,
}

// GetInstance serves GET /files/{id}/metadata/{scope}/{template_key}
// (and /folders/{id}/...): 200 with the instance.
func GetInstance(s *state.Tx, ip InstancePath, p *state.Principal) (state.Reply, error) {
	in, err := ExistingInstance(s, ip, p)
	if err != nil {
		return state.Reply{}, err
	}
	return state.Reply{Status: wire.StatusOK, Body: in.Record()}, nil
}

// AddInstanceTx serves POST /files/{id}/metadata/{scope}/{template_key}
// (and /folders/{id}/...): 201 with the new instance of raw's values
// (CreateInstance).
func AddInstanceTx(s *state.Tx, ip InstancePath, p *state.Principal, raw map[string]any) (state.Reply, error) {
	in, err := CreateInstance(s, ip, p, raw)
	if err != nil {
		return state.Reply{}, err
	}
	return state.Reply{Status: wire.StatusCreated, Body: in.Record()}, nil
}

// DeleteInstance serves DELETE /files/{id}/metadata/{scope}/{template_key}
// (and /folders/{id}/...): 204, and a metadata delete event.
func DeleteInstance(s *state.Tx, ip InstancePath, p *state.Principal) (state.Reply, error) {
	in, err := ExistingInstance(s, ip, p)
	if err != nil {
		return state.Reply{}, err
	}
	s.RemoveInstance(in)
	s.RecordEvent(state.EvMetadataDelete, p.User, in.Item, in.Record())
	return state.Reply{Status: wire.StatusNoContent}, nil
}

// PatchInstance serves PUT /files/{id}/metadata/{scope}/{template_key}
// (and /folders/{id}/...): the JSON Patch applied to the instance's values,
// all or nothing (ApplyInstancePatch); $version grows and an update event
// is recorded when the values changed. 200 with the instance.
func PatchInstance(s *state.Tx, ip InstancePath, p *state.Principal, patch jsonpatch.Patch) (state.Reply, error) {
	in, err := ExistingInstance(s, ip, p)
	if err != nil {
		return state.Reply{}, err
	}
	values, err := ApplyInstancePatch(in, patch)
	if err != nil {
		return state.Reply{}, err
	}
	if SetValues(s, in, values) {
		s.MetadataChanged(in)
		s.RecordEvent(state.EvMetadataUpdate, p.User, in.Item, in.Record())
	}
	return state.Reply{Status: wire.StatusOK, Body: in.Record()}, nil
}
