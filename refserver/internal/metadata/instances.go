package metadata

import (
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// InstancePath is what an instance path names: the item ({file_id} or
// {folder_id}), the scope (or the error of a malformed one) and the
// template key; Edit is true for the calls that change metadata.
type InstancePath struct {
	Typ, ItemID string
	Scope       string
	ScopeErr    *wire.Error
	Key         string
	Edit        bool
}

// MDItem resolves the item of an instance path: a malformed id or folder
// "0" is 405 (as the service answers), an item the caller cannot see 404
// not_found.
func MDItem(s *state.Tx, ip InstancePath, p *state.Principal) (*state.Item, *wire.Error) {
	if !state.ValidID(ip.ItemID) || ip.ItemID == state.RootID {
		return nil, wire.Errorf(wire.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: malformed %s id", ip.Typ)
	}
	if !ip.Edit {
		return s.Lookup(p, ip.Typ, ip.ItemID)
	}
	return s.LookupFor(p, ip.Typ, ip.ItemID, state.ActEdit) // metadata changes are edits (access.go)
}

// InstanceOf resolves item, scope and template of an instance path and
// returns the instance (nil when the template is not applied). missing is
// the code for an unknown template.
func InstanceOf(s *state.Tx, ip InstancePath, p *state.Principal, missing string) (*state.Item, *state.MDTemplate, *state.MDInstance, error) {
	it, aerr := MDItem(s, ip, p)
	if aerr != nil {
		return nil, nil, nil, aerr
	}
	if ip.ScopeErr != nil {
		return nil, nil, nil, ip.ScopeErr
	}
	scope, key := ip.Scope, ip.Key
	t := s.Template(scope, key)
	if t == nil {
		return nil, nil, nil, MDErrf(wire.StatusNotFound, missing, "Template not found: %s.%s", scope, key)
	}
	return it, t, t.Instances[s.Items.Ref(it)], nil
}

func errInstanceNotFound(t *state.MDTemplate) *MDError {
	return MDErrf(wire.StatusNotFound, codeInstanceNotFound, "Instance not found for '%s.%s'", t.Scope, t.Key)
}

// ExistingInstance is InstanceOf for the calls on an instance that must
// exist: an unknown template or a missing instance is 404
// instance_not_found.
func ExistingInstance(s *state.Tx, ip InstancePath, p *state.Principal) (*state.MDInstance, error) {
	_, t, in, err := InstanceOf(s, ip, p, codeInstanceNotFound)
	if err == nil && in == nil {
		err = errInstanceNotFound(t)
	}
	return in, err
}

// ListInstances serves GET /files/{id}/metadata and
// /folders/{id}/metadata (refserver's listInstances): every instance on
// the item, oldest first.
func ListInstances(s *state.Tx, p *state.Principal, typ string, id string) (state.Reply, *wire.Error) {
	it, aerr := s.Lookup(p, typ, id)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	entries := []any{}
	for _, in := range s.Metadata.ByItem[s.Items.Ref(it)] {
		entries = append(entries, in.Record())
	}
	return state.Reply{Status: wire.StatusOK, Body: map[string]any{"entries": entries, "limit": state.MaxInstancesPerItem}}, nil
}

// CreateInstance applies the template of ip to its item with the values
// of raw: 404 instance_tuple_not_found for an unknown template, 409
// tuple_already_exists, 400 schema_validation_failed, 400 past
// MaxInstancesPerItem. It serves POST
// /files|folders/{id}/metadata/{scope}/{template_key}.
func CreateInstance(s *state.Tx, ip InstancePath, p *state.Principal, raw map[string]any) (*state.MDInstance, error) {
	it, t, in, err := InstanceOf(s, ip, p, codeInstanceTupleNotFound)
	if err != nil {
		return nil, err
	}
	if in != nil {
		return nil, MDErrf(wire.StatusConflict, codeTupleAlreadyExists, "An instance of %s.%s already exists on this %s", t.Scope, t.Key, ip.Typ)
	}
	values, merr := TemplateValues(t, raw)
	if merr != nil {
		return nil, merr
	}
	if len(s.Metadata.ByItem[s.Items.Ref(it)]) >= state.MaxInstancesPerItem {
		return nil, MDErrf(wire.StatusBadRequest, wire.CodeBadRequest, "An item can hold at most %d metadata instances", state.MaxInstancesPerItem)
	}
	in = s.AddInstance(t, it, values)
	s.MetadataChanged(in)
	s.RecordEvent(state.EvMetadataCreate, p.User, it, in.Record())
	return in, nil
}

// SetValues replaces an instance's values, keeping the sort indexes in
// step, and bumps $version when anything changed; it reports whether
// anything did.
func SetValues(s *state.Tx, in *state.MDInstance, values map[string]state.MDVal) bool {
	return s.SetInstanceValues(in, values)
}
