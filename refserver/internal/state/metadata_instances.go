package state

import (
	"sort"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// MDInstance is a template applied to a file or folder. Its fields are
// read and changed only in a transaction.
type MDInstance struct {
	ID      string // $id
	Tmpl    *MDTemplate
	Item    *Item
	Seq     int64 // creation order
	Version int   // $version: 0 at creation, +1 for each change of values
	Values  MDValues
}

// Record is the Metadata--Full record.
func (in *MDInstance) Record() map[string]any {
	t := in.Tmpl
	m := in.base()
	m["$canEdit"] = true
	m["$id"] = in.ID
	m["$type"] = t.TypeID
	m["$typeVersion"] = t.Version
	for k, v := range in.Values.All() {
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

// ApplyEffect applies a schema change to the instance's values and reports
// whether they changed.
func (in *MDInstance) ApplyEffect(e SchemaEffect) bool {
	switch e.Kind {
	case "renameField":
		v, ok := in.Values.Get(e.From)
		if ok {
			in.Values.Delete(e.From)
			in.Values.Set(e.To, v)
		}
		return ok
	case "removeField":
		_, ok := in.Values.Get(e.Field)
		in.Values.Delete(e.Field)
		return ok
	}
	v, ok := in.Values.Get(e.Field)
	if !ok {
		return false
	}
	if !e.Multi {
		if v.S != e.From {
			return false
		}
		if e.Kind == "removeOption" {
			in.Values.Delete(e.Field)
		} else {
			in.Values.Set(e.Field, MDVal{Kind: ValString, S: e.To})
		}
		return true
	}
	changed := false
	list := make([]string, 0, len(v.List))
	for _, o := range v.List {
		switch {
		case o != e.From:
			list = append(list, o)
		case e.Kind == "renameOption":
			list = append(list, e.To)
			changed = true
		default:
			changed = true
		}
	}
	if changed {
		in.Values.Set(e.Field, MDVal{Kind: ValList, List: list})
	}
	return changed
}

// AddInstance applies a template to an item.
func (s *Tx) AddInstance(t *MDTemplate, it *Item, values map[string]MDVal) *MDInstance {
	in := &MDInstance{ID: NewUUID(), Tmpl: t, Item: it, Seq: s.nextMetadataSeq(), Values: NewMDValues(values)}
	s.IndexInstance(in)
	return in
}

// IndexInstance adds in to the indexes of its template and item; in is
// newer than every instance indexed.
func (s *Tx) IndexInstance(in *MDInstance) {
	t, it := in.Tmpl, in.Item
	t.Instances[s.Items.Ref(it)] = in
	t.BySeq = append(t.BySeq, in)
	for _, idx := range t.Sorted {
		idx.Insert(in)
	}
	s.Metadata.ByItem[s.Items.Ref(it)] = append(s.Metadata.ByItem[s.Items.Ref(it)], in)
	s.Metadata.ByInstID.Put(in.ID, in)
}

// RemoveInstance deletes an instance and its index entries.
func (s *Tx) RemoveInstance(in *MDInstance) {
	t := in.Tmpl
	for _, idx := range t.Sorted {
		idx.Remove(in)
	}
	i := sort.Search(len(t.BySeq), func(i int) bool { return t.BySeq[i].Seq >= in.Seq })
	if i < len(t.BySeq) && t.BySeq[i] == in {
		t.BySeq = append(t.BySeq[:i], t.BySeq[i+1:]...)
	}
	delete(t.Instances, s.Items.Ref(in.Item))
	wire.RemoveKeyed(s.Metadata.ByItem, s.Items.Ref(in.Item), in)
	s.Metadata.ByInstID.Delete(in.ID)
}
