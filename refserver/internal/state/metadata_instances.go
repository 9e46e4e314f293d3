package state

import (
	"sort"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// MDInstance is a template applied to a file or folder. Fields are guarded
// by Server.mu.
type MDInstance struct {
	ID      string // $id
	Tmpl    *MDTemplate
	Item    *Item
	Seq     int64 // creation order
	Version int   // $version: 0 at creation, +1 for each change of values
	Values  map[string]MDVal
}

// Record is the Metadata--Full record.
func (in *MDInstance) Record() map[string]any {
	t := in.Tmpl
	m := in.base()
	m["$canEdit"] = true
	m["$id"] = in.ID
	m["$type"] = t.TypeID
	m["$typeVersion"] = t.Version
	for k, v := range in.Values {
		m[k] = v.JSON()
	}
	return m
}

// base is the Metadata--Base record (the query's fields selection).
func (in *MDInstance) base() map[string]any {
	return map[string]any{
		"$parent": in.Item.Typ + "_" + in.Item.ID, "$template": in.Tmpl.Key,
		"$scope": in.Tmpl.Scope, "$version": in.Version,
	}
}

// applyEffect applies a schema change to the instance's values and reports
// whether they changed.
func (in *MDInstance) applyEffect(e schemaEffect) bool {
	switch e.kind {
	case "renameField":
		v, ok := in.Values[e.from]
		if ok {
			delete(in.Values, e.from)
			in.Values[e.to] = v
		}
		return ok
	case "removeField":
		_, ok := in.Values[e.field]
		delete(in.Values, e.field)
		return ok
	}
	v, ok := in.Values[e.field]
	if !ok {
		return false
	}
	if !e.multi {
		if v.S != e.from {
			return false
		}
		if e.kind == "removeOption" {
			delete(in.Values, e.field)
		} else {
			in.Values[e.field] = MDVal{Kind: valString, S: e.to}
		}
		return true
	}
	changed := false
	list := make([]string, 0, len(v.List))
	for _, o := range v.List {
		switch {
		case o != e.from:
			list = append(list, o)
		case e.kind == "renameOption":
			list = append(list, e.to)
			changed = true
		default:
			changed = true
		}
	}
	if changed {
		in.Values[e.field] = MDVal{Kind: valList, List: list}
	}
	return changed
}

// InstancePath is what an instance path names: the item ({file_id} or
// {folder_id}), the scope (or the error of a malformed one) and the
// template key; edit is true for the calls that change metadata.
type InstancePath struct {
	Typ, ItemID string
	Scope       string
	ScopeErr    *wire.Error
	Key         string
	Edit        bool
}

// mdItem resolves the item of an instance path: a malformed id or folder
// "0" is 405 (as the service answers), an item the caller cannot see 404
// not_found.
func (s *State) mdItem(ip InstancePath, p *Principal) (*Item, *wire.Error) {
	if !ValidID(ip.ItemID) || ip.ItemID == RootID {
		return nil, wire.Errorf(wire.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: malformed %s id", ip.Typ)
	}
	if !ip.Edit {
		return s.Lookup(p, ip.Typ, ip.ItemID)
	}
	return s.LookupFor(p, ip.Typ, ip.ItemID, actEdit) // metadata changes are edits (access.go)
}

// instanceOf resolves item, scope and template of an instance path and
// returns the instance (nil when the template is not applied). missing is
// the code for an unknown template.
func (s *State) instanceOf(ip InstancePath, p *Principal, missing string) (*Item, *MDTemplate, *MDInstance, error) {
	it, aerr := s.mdItem(ip, p)
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
	return it, t, t.Instances[it.ID], nil
}

func errInstanceNotFound(t *MDTemplate) *MDError {
	return MDErrf(wire.StatusNotFound, codeInstanceNotFound, "Instance not found for '%s.%s'", t.Scope, t.Key)
}

// ExistingInstance is instanceOf for the calls on an instance that must
// exist: an unknown template or a missing instance is 404
// instance_not_found. Callers hold s.mu.
func (s *State) ExistingInstance(ip InstancePath, p *Principal) (*MDInstance, error) {
	_, t, in, err := s.instanceOf(ip, p, codeInstanceNotFound)
	if err == nil && in == nil {
		err = errInstanceNotFound(t)
	}
	return in, err
}

// ListInstancesTx is the transaction of GET /files/{id}/metadata
// (listInstances): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *State) ListInstancesTx(p *Principal, typ string, id string) (Reply, *wire.Error) {
	it, aerr := s.Lookup(p, typ, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	entries := []any{}
	for _, in := range s.Metadata.ByItem[it.ID] {
		entries = append(entries, in.Record())
	}
	return Reply{wire.StatusOK, map[string]any{"entries": entries, "limit": MaxInstancesPerItem}}, nil
}

// CreateInstanceTx applies the template of ip to its item with the values
// of raw: 404 instance_tuple_not_found for an unknown template, 409
// tuple_already_exists, 400 schema_validation_failed, 400 past
// maxInstancesPerItem. Callers hold mu.
func (s *State) CreateInstanceTx(ip InstancePath, p *Principal, raw map[string]any) (*MDInstance, error) {
	it, t, in, err := s.instanceOf(ip, p, codeInstanceTupleNotFound)
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
	if len(s.Metadata.ByItem[it.ID]) >= MaxInstancesPerItem {
		return nil, MDErrf(wire.StatusBadRequest, wire.CodeBadRequest, "An item can hold at most %d metadata instances", MaxInstancesPerItem)
	}
	in = s.AddInstance(t, it, values)
	s.MetadataChanged(in)
	s.RecordEvent(evMetadataCreate, p.User, it, in.Record())
	return in, nil
}

// AddInstance applies a template to an item. Callers hold s.mu.
func (s *State) AddInstance(t *MDTemplate, it *Item, values map[string]MDVal) *MDInstance {
	s.Metadata.Seq++
	in := &MDInstance{ID: NewUUID(), Tmpl: t, Item: it, Seq: s.Metadata.Seq, Values: values}
	s.IndexInstance(in)
	s.Dirty(KMetadata, MetadataKey)
	return in
}

// indexInstance adds in to the indexes of its template and item; in is
// newer than every instance indexed. Callers hold s.mu.
func (s *State) IndexInstance(in *MDInstance) {
	t, it := in.Tmpl, in.Item
	s.Dirty(KInstances, in.ID)
	t.Instances[it.ID] = in
	t.BySeq = append(t.BySeq, in)
	for _, idx := range t.Sorted {
		idx.Insert(in)
	}
	s.Metadata.ByItem[it.ID] = append(s.Metadata.ByItem[it.ID], in)
	s.Metadata.ByInstID[in.ID] = in
}

// RemoveInstance deletes an instance and its index entries. Callers hold s.mu.
func (s *State) RemoveInstance(in *MDInstance) {
	s.Dirty(KInstances, in.ID)
	t := in.Tmpl
	for _, idx := range t.Sorted {
		idx.Remove(in)
	}
	i := sort.Search(len(t.BySeq), func(i int) bool { return t.BySeq[i].Seq >= in.Seq })
	if i < len(t.BySeq) && t.BySeq[i] == in {
		t.BySeq = append(t.BySeq[:i], t.BySeq[i+1:]...)
	}
	delete(t.Instances, in.Item.ID)
	rest := wire.RemoveFrom(s.Metadata.ByItem[in.Item.ID], in)
	if len(rest) == 0 {
		delete(s.Metadata.ByItem, in.Item.ID)
	} else {
		s.Metadata.ByItem[in.Item.ID] = rest
	}
	delete(s.Metadata.ByInstID, in.ID)
}

// SetValues replaces an instance's values, keeping the sort indexes in
// step, and bumps $version when anything changed; it reports whether
// anything did. Callers hold s.mu.
func (s *State) SetValues(in *MDInstance, values map[string]MDVal) bool {
	var changed []string
	for k, v := range in.Values {
		if nv, ok := values[k]; !ok || !nv.equal(v) {
			changed = append(changed, k)
		}
	}
	for k := range values {
		if _, ok := in.Values[k]; !ok {
			changed = append(changed, k)
		}
	}
	if len(changed) == 0 {
		return false
	}
	t := in.Tmpl
	var touched []*sortIndex
	for _, k := range changed {
		if idx := t.Sorted[k]; idx != nil {
			idx.Remove(in)
			touched = append(touched, idx)
		}
	}
	in.Values = values
	for _, idx := range touched {
		idx.Insert(in)
	}
	in.Version++
	s.Dirty(KInstances, in.ID)
	return true
}
