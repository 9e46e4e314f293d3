package state

import (
	"slices"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Metadata cascade policies (/metadata_cascade_policies): a folder's
// instance of a template flows to the files and folders below it.
//
//   - A policy names a folder (not the root: 403 forbidden) and a template
//     (404 instance_tuple_not_found when unknown); one per folder and
//     template (409 tuple_already_exists). Whoever may edit the folder's
//     metadata creates, applies and deletes them; whoever sees the folder
//     reads them; others get 404 not_found.
//   - The folder need not hold an instance when the policy is made (the
//     official SDKs' tests make the policy first), but apply (POST
//     .../apply) fails with 404 instance_not_found until it does.
//   - Apply copies the folder's values to every file and folder below it:
//     an item without an instance of the template gets one; an item with
//     one keeps it (conflict_resolution none) or takes the folder's values
//     (overwrite). The cost is linear in the items below the folder.
//   - While the policy exists, items that arrive below the folder later —
//     created, uploaded, copied or moved in, a moved folder with all it
//     holds — get the folder's values unless they hold an instance of the
//     template already (the nearest folder's policy wins). That costs the
//     depth of the item, plus the items of a moved or copied folder.
//   - Changes of the folder's values later are not pushed down (apply
//     again with overwrite); deleting the policy keeps the instances made.

// CascadePolicy is one metadata cascade policy.
type CascadePolicy struct {
	ID, FolderID string
	Tmpl         *MDTemplate
	Seq          int64 // creation order (ids are UUIDs)
}

// cascadeState is the server's state for cascade policies, reached only
// through a transaction.
type cascadeState struct {
	ByID     Table[*CascadePolicy]
	ByFolder map[string][]*CascadePolicy // in creation order
}

// Error codes of the cascade policies.
const (
	codeInstanceNotFound      = "instance_not_found"
	codeInstanceTupleNotFound = "instance_tuple_not_found"
	codeTupleAlreadyExists    = "tuple_already_exists"
)

// InitCascadePolicies prepares the (empty) state of cascade policies;
// called by InitResources, and to empty the state before a restore.
func (s *Tx) InitCascadePolicies() {
	s.Cascades = cascadeState{ByID: newTable[*CascadePolicy](s.Env, KCascadePolicies), ByFolder: map[string][]*CascadePolicy{}}
}

// AddCascadePolicy files a policy (a new one, or a restored one:
// internal/persist's CascadesLoaded then puts each folder's in creation order).
func (s *Tx) AddCascadePolicy(c *CascadePolicy) {
	s.Cascades.ByID.Put(c.ID, c)
	s.Cascades.ByFolder[c.FolderID] = append(s.Cascades.ByFolder[c.FolderID], c)
}

func (s *Tx) removeCascadePolicy(c *CascadePolicy) {
	s.Cascades.ByID.Delete(c.ID)
	wire.RemoveKeyed(s.Cascades.ByFolder, c.FolderID, c)
}

func (s *ReadTx) cascadeRecord(c *CascadePolicy) map[string]any {
	return map[string]any{
		"type": "metadata_cascade_policy", "id": c.ID,
		"owner_enterprise": map[string]any{"type": "enterprise", "id": s.EnterpriseID},
		"parent":           map[string]any{"type": "folder", "id": c.FolderID},
		"scope":            c.Tmpl.Scope, "templateKey": c.Tmpl.Key,
	}
}

// cascadeFolder finds the folder of a policy route for p: the root is 403
// forbidden, a folder p does not see 404 not_found, act refused 403.
func (s *ReadTx) cascadeFolder(p *Principal, id string, act Action) (*Item, *wire.Error) {
	if id == RootID {
		return nil, wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "Cascade policies cannot be applied to the root folder")
	}
	if !ValidID(id) {
		return nil, wire.NotFound("folder")
	}
	return s.LookupFor(p, "folder", id, act)
}

// cascadePolicyFor finds policy id for p: 404 instance_not_found when
// there is none, 404 not_found when p does not see its folder.
func (s *ReadTx) cascadePolicyFor(p *Principal, id string, act Action) (*CascadePolicy, *Item, *wire.Error) {
	c := s.Cascades.ByID.At(id)
	if c == nil {
		return nil, nil, wire.Errorf(wire.StatusNotFound, codeInstanceNotFound, "The metadata cascade policy could not be found")
	}
	f, aerr := s.cascadeFolder(p, c.FolderID, act)
	if aerr != nil {
		return nil, nil, aerr
	}
	return c, f, nil
}

// CreateCascadePolicy serves POST /metadata_cascade_policies (refserver's
// createCascadePolicy): 201 with the new policy. scope is "global",
// "enterprise" or "enterprise_<id>" (400 bad_request otherwise).
func (s *Tx) CreateCascadePolicy(p *Principal, folderID, scope, templateKey string) (Reply, *wire.Error) {
	kind := s.ScopeKind(scope)
	if kind == "" {
		return Reply{}, wire.BadRequest("Invalid value for \"scope\": global or enterprise")
	}
	f, aerr := s.cascadeFolder(p, folderID, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	t := s.Template(kind, templateKey)
	if t == nil || t.FreeForm() {
		return Reply{}, wire.Errorf(wire.StatusNotFound, codeInstanceTupleNotFound, "The template %s.%s could not be found", scope, templateKey)
	}
	for _, c := range s.Cascades.ByFolder[f.ID] {
		if c.Tmpl == t {
			return Reply{}, wire.Errorf(wire.StatusConflict, codeTupleAlreadyExists, "A cascade policy for this folder and template already exists")
		}
	}
	c := &CascadePolicy{ID: NewUUID(), FolderID: f.ID, Tmpl: t, Seq: NumID(s.NewID())}
	s.AddCascadePolicy(c)
	return Reply{wire.StatusCreated, s.cascadeRecord(c)}, nil
}

// GetCascadePolicy serves GET /metadata_cascade_policies/{id}
// (getCascadePolicy).
func (s *Tx) GetCascadePolicy(p *Principal, id string) (Reply, *wire.Error) {
	c, _, aerr := s.cascadePolicyFor(p, id, ActSee)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, s.cascadeRecord(c)}, nil
}

// DeleteCascadePolicy serves DELETE /metadata_cascade_policies/{id}
// (deleteCascadePolicy): 204; the instances it made stay.
func (s *Tx) DeleteCascadePolicy(p *Principal, id string) (Reply, *wire.Error) {
	c, _, aerr := s.cascadePolicyFor(p, id, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	s.removeCascadePolicy(c)
	return Reply{Status: wire.StatusNoContent}, nil
}

// ListCascadePolicies serves GET /metadata_cascade_policies
// (listCascadePolicies): a marker page of the folder's policies in
// creation order (pq.Marker is the position of the page's first);
// another enterprise's (ownerEnterprise) are none.
func (s *Tx) ListCascadePolicies(p *Principal, folderID, ownerEnterprise string, pq wire.Page) (Reply, *wire.Error) {
	f, aerr := s.cascadeFolder(p, folderID, ActSee)
	if aerr != nil {
		return Reply{}, aerr
	}
	var match []*CascadePolicy
	if ownerEnterprise == "" || ownerEnterprise == s.EnterpriseID {
		match = s.Cascades.ByFolder[f.ID]
	}
	return Reply{wire.StatusOK, wire.PositionEntries(match, pq, s.cascadeRecord)}, nil
}

// ApplyCascadePolicy serves POST /metadata_cascade_policies/{id}/apply
// (applyCascadePolicy): 202 once every file and folder below the folder
// holds the folder's values (overwrite) or an instance of the template
// (none); 404 instance_not_found while the folder has no instance.
func (s *Tx) ApplyCascadePolicy(p *Principal, id string, overwrite bool) (Reply, *wire.Error) {
	c, f, aerr := s.cascadePolicyFor(p, id, ActEdit)
	if aerr != nil {
		return Reply{}, aerr
	}
	src := c.Tmpl.Instances[s.Items.Ref(f)]
	if src == nil {
		return Reply{}, wire.Errorf(wire.StatusNotFound, codeInstanceNotFound, "The folder has no instance of %s.%s to cascade", c.Tmpl.Scope, c.Tmpl.Key)
	}
	s.cascadeBelow(f, src, overwrite)
	return Reply{Status: wire.StatusAccepted}, nil
}

// cascadeBelow gives every file and folder below f the values of src,
// depth first; it returns how many items it touched.
func (s *Tx) cascadeBelow(f *Item, src *MDInstance, overwrite bool) int {
	n := 0
	stack := []*Item{f}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, it := range s.Children(dir.ID, nil) {
			if it.Typ == "web_link" {
				continue
			}
			s.cascadeTo(it, src, overwrite)
			n++
			if it.Typ == "folder" {
				stack = append(stack, it)
			}
		}
	}
	return n
}

// cascadeTo gives it the values of src: a new instance, or its own
// replaced when overwrite is set.
func (s *Tx) cascadeTo(it *Item, src *MDInstance, overwrite bool) {
	t := src.Tmpl
	if in := t.Instances[s.Items.Ref(it)]; in != nil {
		if overwrite && s.SetInstanceValues(in, cloneValues(src.Values)) {
			s.MetadataChanged(in)
		}
		return
	}
	if len(s.Metadata.ByItem[s.Items.Ref(it)]) >= MaxInstancesPerItem {
		return
	}
	s.MetadataChanged(s.AddInstance(t, it, cloneValues(src.Values)))
}

// cloneValues is a deep copy of an instance's values.
func cloneValues(v MDValues) map[string]MDVal {
	out := v.Map()
	for k, x := range out {
		x.List = slices.Clone(x.List)
		out[k] = x
	}
	return out
}

// cascadeInto gives an item that arrived below folders with policies
// (created, copied or moved in) the values of their instances, and with
// it, when it is a folder, everything it holds; the nearest folder wins
// and what already has an instance of a template keeps it.
func (s *Tx) cascadeInto(it *Item) {
	if s.Cascades.ByID.Len() == 0 || it.Typ == "web_link" {
		return
	}
	for f := range s.ancestors(it) {
		for _, c := range s.Cascades.ByFolder[f.ID] {
			src := c.Tmpl.Instances[s.Items.Ref(f)]
			if src == nil {
				continue
			}
			s.cascadeTo(it, src, false)
			if it.Typ == "folder" {
				s.cascadeBelow(it, src, false)
			}
		}
	}
}

// cascadeItemPurged drops the policies of a folder deleted for good.
func (s *Tx) cascadeItemPurged(it *Item) {
	if it.Typ != "folder" { // a file may share the id (SeparateIDSpaces)
		return
	}
	for _, c := range slices.Clone(s.Cascades.ByFolder[it.ID]) {
		s.removeCascadePolicy(c)
	}
}

// CascadeTemplateDeleted drops the policies of a deleted template.
func (s *Tx) CascadeTemplateDeleted(t *MDTemplate) {
	for _, c := range s.Cascades.ByID.All() {
		if c.Tmpl == t {
			s.removeCascadePolicy(c)
		}
	}
}

// SetInstanceValues replaces an instance's values, keeping the sort
// indexes in step, and bumps $version when anything changed; it reports
// whether anything did.
func (s *Tx) SetInstanceValues(in *MDInstance, values map[string]MDVal) bool {
	var changed []string
	for k, v := range in.Values.All() {
		if nv, ok := values[k]; !ok || !nv.Equal(v) {
			changed = append(changed, k)
		}
	}
	for k := range values {
		if _, ok := in.Values.Get(k); !ok {
			changed = append(changed, k)
		}
	}
	if len(changed) == 0 {
		return false
	}
	t := in.Tmpl
	var touched []*SortIndex
	for _, k := range changed {
		if idx := t.Sorted[k]; idx != nil {
			idx.Remove(in)
			touched = append(touched, idx)
		}
	}
	s.Metadata.ByInstID.Update(in.ID, func(in *MDInstance) {
		in.Values = NewMDValues(values)
		in.Version++
	})
	for _, idx := range touched {
		idx.Insert(in)
	}
	return true
}
