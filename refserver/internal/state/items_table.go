package state

import (
	"hash/maphash"
	"iter"
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
// each other. A lookup is one hash probe. As a Table, what is written
// through it (Put, Delete, Update) is marked for persistence, under the
// item's record key (RecordKey).
//
// The items are in an itemHash keyed by what they hold (their type and
// id): 8 bytes a slot, where a map from the id took 16 bytes a slot (the
// id as a number) and a Go map's slack (at a million items 45 MB; the
// table is ~12).
type ItemTable struct {
	env   *Env
	items itemHash[itemKey, itemTableKeyer]
}

// itemTableKeyer keys the items table: an item's itemKey.
type itemTableKeyer struct{ env *Env }

func (f itemTableKeyer) key(it *Item) itemKey {
	return itemKey{folder: f.env.Cfg.SeparateIDSpaces && it.Typ == "folder", id: it.ID}
}

func (f itemTableKeyer) has(it *Item, k itemKey) bool { return f.key(it) == k }

func (f itemTableKeyer) hashOf(it *Item) uint64 { return f.hash(f.key(it)) }

func (itemTableKeyer) hash(k itemKey) uint64 {
	h := maphash.String(itemHashSeed, k.id)
	if k.folder {
		h ^= 0x9e3779b97f4a7c15 // a folder's id and a file's hash apart
	}
	return h
}

// get is the item of key k.
func (t *ItemTable) get(k itemKey) (*Item, bool) {
	it := t.items.get(k)
	return it, it != nil
}

// newItemTable returns an empty items table on env.
func newItemTable(env *Env) ItemTable {
	return ItemTable{env: env, items: itemHash[itemKey, itemTableKeyer]{f: itemTableKeyer{env}}}
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
	return t.get(k)
}

// Get returns the item of type typ with id. With one id space it may be
// of another type (the id is unique); with SeparateIDSpaces it is a
// folder exactly when typ is "folder". Callers check Typ.
func (t *ItemTable) Get(typ, id string) (*Item, bool) {
	return t.get(t.key(typ, id))
}

// At returns the item of type typ with id (as Get), or nil.
func (t *ItemTable) At(typ, id string) *Item {
	it, _ := t.get(t.key(typ, id))
	return it
}

// Has reports whether an item of type typ has id (as Get).
func (t *ItemTable) Has(typ, id string) bool {
	_, ok := t.get(t.key(typ, id))
	return ok
}

// Grow makes room for n items in an empty table (a load that knows how
// many it reads), so that it does not grow step by step.
func (t *ItemTable) Grow(n int) {
	if t.Len() == 0 && n > 0 {
		t.items.grow(n)
	}
}

// Len is the number of items.
func (t *ItemTable) Len() int { return t.items.len() }

// All yields every item with its id, in no order.
func (t *ItemTable) All() iter.Seq2[string, *Item] {
	return func(yield func(string, *Item) bool) {
		for it := range t.items.all() {
			if !yield(it.ID, it) {
				return
			}
		}
	}
}

// Keys returns the record keys of the items (RecordKey), sorted.
func (t *ItemTable) Keys() []string {
	keys := make([]string, 0, t.Len())
	for it := range t.items.all() {
		keys = append(keys, recordKey(t.keyOf(it)))
	}
	slices.Sort(keys)
	return keys
}

// Put stores it under its type and id (in place of the item stored under
// them, if any), and marks it.
func (t *ItemTable) Put(it *Item) {
	t.items.set(it)
	t.mark(t.keyOf(it))
}

// Delete removes the item of it's type and id (if stored), and marks it.
func (t *ItemTable) Delete(it *Item) {
	k := t.keyOf(it)
	t.items.remove(k)
	t.mark(k)
}

// Update runs change on the item of type typ with id (as Get), and marks
// it; it reports false, changing nothing, when there is none.
func (t *ItemTable) Update(typ, id string, change func(*Item)) bool {
	k := t.key(typ, id)
	it, ok := t.get(k)
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
