package state

import (
	"iter"
	"maps"
	"slices"
	"strings"
)

// folderRecordPrefix starts the record key of a folder whose id is in a
// space of its own (StateConfig.SeparateIDSpaces): "folder:123", apart from
// the file or web link "123". With one id space the key is the bare id, as
// in the data directories of earlier servers.
const folderRecordPrefix = "folder:"

// itemKey is an item's key in the items table: its id within its id
// space. With SeparateIDSpaces folders have a space of their own (folder
// is set), and files and web links share the other; with one id space
// every item is in it (folder is never set), as ids are unique.
type itemKey struct {
	folder bool
	id     string
}

// ItemTable holds the items (files, folders, web links) by type and id:
// a lookup names the type the caller expects, as every route does
// (/files/{id}, /folders/{id}, an item {type, id} in a body), so a file
// and a folder with the same id (SeparateIDSpaces) are never taken for
// each other. A lookup is one map access. As a Table, what is written
// through it (Put, Delete, Update) is marked for persistence, under the
// item's record key (RecordKey).
type ItemTable struct {
	env *Env
	m   map[itemKey]*Item
}

// newItemTable returns an empty items table on env.
func newItemTable(env *Env) ItemTable {
	return ItemTable{env: env, m: map[itemKey]*Item{}}
}

// key is the table key of the item of type typ and id.
func (t *ItemTable) key(typ, id string) itemKey {
	return itemKey{folder: t.env.Cfg.SeparateIDSpaces && typ == "folder", id: id}
}

// mark marks the record of the item with key k.
func (t *ItemTable) mark(k itemKey) {
	if p := t.env.Persist; p != nil {
		p.mark(KItems, recordKey(k))
	}
}

// recordKey is the record key of the item with table key k.
func recordKey(k itemKey) string {
	if k.folder {
		return folderRecordPrefix + k.id
	}
	return k.id
}

// RecordKey is the key of the record of the item of type typ and id (and
// of its persistence marks): its id, prefixed by "folder:" for a folder
// when folders have an id space of their own.
func (t *ItemTable) RecordKey(typ, id string) string { return recordKey(t.key(typ, id)) }

// Ref is it's reference, which records and indexes that point to an item
// keep (collaborations, metadata instances, watermarks, events, recent
// items, collections): the key of its record (RecordKey), its id unless
// folders have an id space of their own. It allocates only for a folder
// then.
func (t *ItemTable) Ref(it *Item) string { return recordKey(t.keyOf(it)) }

// keyOf is it's key in the table: an index in memory keyed by it builds
// no string, unlike Ref.
func (t *ItemTable) keyOf(it *Item) itemKey { return t.key(it.Typ, it.ID) }

// ByRef returns the item with reference (or record key) key.
func (t *ItemTable) ByRef(key string) (*Item, bool) {
	k := itemKey{id: key}
	if id, ok := strings.CutPrefix(key, folderRecordPrefix); ok {
		k = itemKey{folder: true, id: id}
	}
	it, ok := t.m[k]
	return it, ok
}

// Get returns the item of type typ with id. With one id space it may be
// of another type (the id is unique); with SeparateIDSpaces it is a
// folder exactly when typ is "folder". Callers check Typ.
func (t *ItemTable) Get(typ, id string) (*Item, bool) {
	it, ok := t.m[t.key(typ, id)]
	return it, ok
}

// At returns the item of type typ with id (as Get), or nil.
func (t *ItemTable) At(typ, id string) *Item { return t.m[t.key(typ, id)] }

// Has reports whether an item of type typ has id (as Get).
func (t *ItemTable) Has(typ, id string) bool {
	_, ok := t.m[t.key(typ, id)]
	return ok
}

// Len is the number of items.
func (t *ItemTable) Len() int { return len(t.m) }

// All yields every item with its id, in no order.
func (t *ItemTable) All() iter.Seq2[string, *Item] {
	return func(yield func(string, *Item) bool) {
		for k, it := range t.m {
			if !yield(k.id, it) {
				return
			}
		}
	}
}

// Keys returns the record keys of the items (RecordKey), sorted.
func (t *ItemTable) Keys() []string {
	keys := make([]string, 0, len(t.m))
	for k := range maps.Keys(t.m) {
		keys = append(keys, recordKey(k))
	}
	slices.Sort(keys)
	return keys
}

// Put stores it under its type and id, and marks it.
func (t *ItemTable) Put(it *Item) {
	k := t.key(it.Typ, it.ID)
	t.m[k] = it
	t.mark(k)
}

// Delete removes it (if stored), and marks it.
func (t *ItemTable) Delete(it *Item) {
	k := t.key(it.Typ, it.ID)
	delete(t.m, k)
	t.mark(k)
}

// Update runs change on the item of type typ with id (as Get), and marks
// it; it reports false, changing nothing, when there is none.
func (t *ItemTable) Update(typ, id string, change func(*Item)) bool {
	k := t.key(typ, id)
	it, ok := t.m[k]
	if !ok {
		return false
	}
	change(it)
	t.mark(k)
	return true
}

// ItemIDOfKey is the id of the item whose record has key (RecordKey).
func ItemIDOfKey(key string) string {
	id, _ := strings.CutPrefix(key, folderRecordPrefix)
	return id
}
