package refserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"sort"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// mdInstance is a template applied to a file or folder. Fields are guarded
// by Server.mu.
type mdInstance struct {
	id      string // $id
	tmpl    *mdTemplate
	item    *item
	seq     int64 // creation order
	version int   // $version: 0 at creation, +1 for each change of values
	values  map[string]mdVal
}

// record is the Metadata--Full record.
func (in *mdInstance) record() map[string]any {
	t := in.tmpl
	m := in.base()
	m["$canEdit"] = true
	m["$id"] = in.id
	m["$type"] = t.typeID
	m["$typeVersion"] = t.version
	for k, v := range in.values {
		m[k] = v.json()
	}
	return m
}

// base is the Metadata--Base record (the query's fields selection).
func (in *mdInstance) base() map[string]any {
	return map[string]any{
		"$parent": in.item.typ + "_" + in.item.id, "$template": in.tmpl.key,
		"$scope": in.tmpl.scope, "$version": in.version,
	}
}

// applyEffect applies a schema change to the instance's values and reports
// whether they changed.
func (in *mdInstance) applyEffect(e schemaEffect) bool {
	switch e.kind {
	case "renameField":
		v, ok := in.values[e.from]
		if ok {
			delete(in.values, e.from)
			in.values[e.to] = v
		}
		return ok
	case "removeField":
		_, ok := in.values[e.field]
		delete(in.values, e.field)
		return ok
	}
	v, ok := in.values[e.field]
	if !ok {
		return false
	}
	if !e.multi {
		if v.s != e.from {
			return false
		}
		if e.kind == "removeOption" {
			delete(in.values, e.field)
		} else {
			in.values[e.field] = mdVal{kind: valString, s: e.to}
		}
		return true
	}
	changed := false
	list := make([]string, 0, len(v.list))
	for _, o := range v.list {
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
		in.values[e.field] = mdVal{kind: valList, list: list}
	}
	return changed
}

// instancePath is what an instance path names: the item ({file_id} or
// {folder_id}), the scope (or the error of a malformed one) and the
// template key; edit is true for the calls that change metadata.
type instancePath struct {
	typ, itemID string
	scope       string
	scopeErr    *wire.Error
	key         string
	edit        bool
}

// readInstancePath reads the instance path of r for items of typ.
func (s *Server) readInstancePath(r *http.Request, typ string) instancePath {
	scope, scopeErr := s.pathScope(r)
	return instancePath{typ: typ, itemID: r.PathValue(typ + "_id"), scope: scope, scopeErr: scopeErr,
		key: r.PathValue("template_key"), edit: r.Method != http.MethodGet}
}

// mdItem resolves the item of an instance path: a malformed id or folder
// "0" is 405 (as the service answers), an item the caller cannot see 404
// not_found.
func (s *state) mdItem(ip instancePath, p *principal) (*item, *wire.Error) {
	if !validID(ip.itemID) || ip.itemID == rootID {
		return nil, wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: malformed %s id", ip.typ)
	}
	if !ip.edit {
		return s.lookup(p, ip.typ, ip.itemID)
	}
	return s.lookupFor(p, ip.typ, ip.itemID, actEdit) // metadata changes are edits (access.go)
}

// instanceOf resolves item, scope and template of an instance path and
// returns the instance (nil when the template is not applied). missing is
// the code for an unknown template.
func (s *state) instanceOf(ip instancePath, p *principal, missing string) (*item, *mdTemplate, *mdInstance, error) {
	it, aerr := s.mdItem(ip, p)
	if aerr != nil {
		return nil, nil, nil, aerr
	}
	if ip.scopeErr != nil {
		return nil, nil, nil, ip.scopeErr
	}
	scope, key := ip.scope, ip.key
	t := s.template(scope, key)
	if t == nil {
		return nil, nil, nil, mdErrf(http.StatusNotFound, missing, "Template not found: %s.%s", scope, key)
	}
	return it, t, t.instances[it.id], nil
}

func errInstanceNotFound(t *mdTemplate) *mdError {
	return mdErrf(http.StatusNotFound, codeInstanceNotFound, "Instance not found for '%s.%s'", t.scope, t.key)
}

// existingInstance is instanceOf for the calls on an instance that must
// exist: an unknown template or a missing instance is 404
// instance_not_found. Callers hold s.mu.
func (s *state) existingInstance(ip instancePath, p *principal) (*mdInstance, error) {
	_, t, in, err := s.instanceOf(ip, p, codeInstanceNotFound)
	if err == nil && in == nil {
		err = errInstanceNotFound(t)
	}
	return in, err
}

// listInstances serves GET /files/{id}/metadata and /folders/{id}/metadata:
// every instance on the item, unpaged ({entries, limit}). The root folder
// is 403 forbidden, as the spec says for this operation.
func (s *Server) listInstances(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		id := r.PathValue(typ + "_id")
		if typ == "folder" && id == rootID {
			return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "This operation is not allowed on the root folder")
		}
		if !validID(id) {
			return wire.NotFound(typ)
		}
		return s.change(w, func() (reply, *wire.Error) {
			return s.listInstancesTx(p, typ, id)
		})
	}
}

// listInstancesTx is the transaction of GET /files/{id}/metadata
// (listInstances): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) listInstancesTx(p *principal, typ string, id string) (reply, *wire.Error) {
	it, aerr := s.lookup(p, typ, id)
	if aerr != nil {
		return reply{}, aerr
	}
	entries := []any{}
	for _, in := range s.metadata.byItem[it.id] {
		entries = append(entries, in.record())
	}
	return reply{http.StatusOK, map[string]any{"entries": entries, "limit": maxInstancesPerItem}}, nil
}

// getInstance serves GET .../metadata/{scope}/{template_key}: 200 (the
// spec lists 201 for folders; 200 is what the service sends) or 404
// instance_not_found.
func (s *Server) getInstance(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		ip := s.readInstancePath(r, typ)
		return s.changeErr(w, func() (reply, error) {
			in, err := s.existingInstance(ip, p)
			if err != nil {
				return reply{}, err
			}
			return reply{http.StatusOK, in.record()}, nil
		})
	}
}

// createInstance serves POST .../metadata/{scope}/{template_key}: 201
// Metadata--Full; 404 instance_tuple_not_found for an unknown template,
// 409 tuple_already_exists, 400 schema_validation_failed. An item holds at
// most 100 instances: the 101st is 400 bad_request (the service documents
// no code for it).
func (s *Server) createInstance(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
			return aerr
		}
		b, aerr := wire.ReadBody(r.Body)
		if aerr != nil {
			return aerr
		}
		raw, err := decodeObject(b)
		if err != nil {
			return mdErrf(http.StatusBadRequest, wire.CodeBadRequest, "The body must be a JSON object of values")
		}
		ip := s.readInstancePath(r, typ)
		return s.changeErr(w, func() (reply, error) {
			in, err := s.createInstanceTx(ip, p, raw)
			if err != nil {
				return reply{}, err
			}
			return reply{http.StatusCreated, in.record()}, nil
		})
	}
}

// createInstanceTx applies the template of ip to its item with the values
// of raw: 404 instance_tuple_not_found for an unknown template, 409
// tuple_already_exists, 400 schema_validation_failed, 400 past
// maxInstancesPerItem. Callers hold mu.
func (s *state) createInstanceTx(ip instancePath, p *principal, raw map[string]any) (*mdInstance, error) {
	it, t, in, err := s.instanceOf(ip, p, codeInstanceTupleNotFound)
	if err != nil {
		return nil, err
	}
	if in != nil {
		return nil, mdErrf(http.StatusConflict, codeTupleAlreadyExists, "An instance of %s.%s already exists on this %s", t.scope, t.key, ip.typ)
	}
	values, merr := templateValues(t, raw)
	if merr != nil {
		return nil, merr
	}
	if len(s.metadata.byItem[it.id]) >= maxInstancesPerItem {
		return nil, mdErrf(http.StatusBadRequest, wire.CodeBadRequest, "An item can hold at most %d metadata instances", maxInstancesPerItem)
	}
	in = s.addInstance(t, it, values)
	s.metadataChanged(in)
	s.recordEvent(evMetadataCreate, p.user, it, in.record())
	return in, nil
}

// addInstance applies a template to an item. Callers hold s.mu.
func (s *state) addInstance(t *mdTemplate, it *item, values map[string]mdVal) *mdInstance {
	s.metadata.seq++
	in := &mdInstance{id: newUUID(), tmpl: t, item: it, seq: s.metadata.seq, values: values}
	s.indexInstance(in)
	s.dirty(kMetadata, metadataKey)
	return in
}

// indexInstance adds in to the indexes of its template and item; in is
// newer than every instance indexed. Callers hold s.mu.
func (s *state) indexInstance(in *mdInstance) {
	t, it := in.tmpl, in.item
	s.dirty(kInstances, in.id)
	t.instances[it.id] = in
	t.bySeq = append(t.bySeq, in)
	for _, idx := range t.sorted {
		idx.insert(in)
	}
	s.metadata.byItem[it.id] = append(s.metadata.byItem[it.id], in)
	s.metadata.byInstID[in.id] = in
}

// removeInstance deletes an instance and its index entries. Callers hold s.mu.
func (s *state) removeInstance(in *mdInstance) {
	s.dirty(kInstances, in.id)
	t := in.tmpl
	for _, idx := range t.sorted {
		idx.remove(in)
	}
	i := sort.Search(len(t.bySeq), func(i int) bool { return t.bySeq[i].seq >= in.seq })
	if i < len(t.bySeq) && t.bySeq[i] == in {
		t.bySeq = append(t.bySeq[:i], t.bySeq[i+1:]...)
	}
	delete(t.instances, in.item.id)
	rest := wire.RemoveFrom(s.metadata.byItem[in.item.id], in)
	if len(rest) == 0 {
		delete(s.metadata.byItem, in.item.id)
	} else {
		s.metadata.byItem[in.item.id] = rest
	}
	delete(s.metadata.byInstID, in.id)
}

// deleteInstance serves DELETE .../metadata/{scope}/{template_key}: 204.
func (s *Server) deleteInstance(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		ip := s.readInstancePath(r, typ)
		return s.changeErr(w, func() (reply, error) {
			in, err := s.existingInstance(ip, p)
			if err != nil {
				return reply{}, err
			}
			s.removeInstance(in)
			s.recordEvent(evMetadataDelete, p.user, in.item, in.record())
			return reply{status: http.StatusNoContent}, nil
		})
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
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		if aerr := requireContentType(r, false, contentTypeJSONPatch); aerr != nil {
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
		return s.changeErr(w, func() (reply, error) {
			in, err := s.existingInstance(ip, p)
			if err != nil {
				return reply{}, err
			}
			values, err := applyInstancePatch(in, patch)
			if err != nil {
				return reply{}, err
			}
			if s.setValues(in, values) {
				s.metadataChanged(in)
				s.recordEvent(evMetadataUpdate, p.user, in.item, in.record())
			}
			return reply{http.StatusOK, in.record()}, nil
		})
	}
}

// applyInstancePatch applies a patch to a copy of the instance's values
// and checks the result against the template.
func applyInstancePatch(in *mdInstance, patch jsonpatch.Patch) (map[string]mdVal, error) {
	doc := make(map[string]any, len(in.values))
	for k, v := range in.values {
		doc[k] = v.json()
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
		return nil, mdErrf(http.StatusConflict, codeFailedJSONPatch, "%s", msg)
	}
	raw, err := decodeObject(out)
	if err != nil {
		return nil, mdErrf(http.StatusConflict, codeFailedJSONPatch, "The patch does not leave an object of values")
	}
	values, merr := templateValues(in.tmpl, raw)
	if merr != nil {
		return nil, merr
	}
	return values, nil
}

var patchOptions = &jsonpatch.ApplyOptions{
	SupportNegativeIndices:   false,
	AccumulatedCopySizeLimit: wire.MaxJSONBody,
}

// setValues replaces an instance's values, keeping the sort indexes in
// step, and bumps $version when anything changed; it reports whether
// anything did. Callers hold s.mu.
func (s *state) setValues(in *mdInstance, values map[string]mdVal) bool {
	var changed []string
	for k, v := range in.values {
		if nv, ok := values[k]; !ok || !nv.equal(v) {
			changed = append(changed, k)
		}
	}
	for k := range values {
		if _, ok := in.values[k]; !ok {
			changed = append(changed, k)
		}
	}
	if len(changed) == 0 {
		return false
	}
	t := in.tmpl
	var touched []*sortIndex
	for _, k := range changed {
		if idx := t.sorted[k]; idx != nil {
			idx.remove(in)
			touched = append(touched, idx)
		}
	}
	in.values = values
	for _, idx := range touched {
		idx.insert(in)
	}
	in.version++
	s.dirty(kInstances, in.id)
	return true
}
