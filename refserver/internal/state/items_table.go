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
//
// Items whose id is a canonical decimal number (every id the server draws)
// are held by that number (numKey: 16 bytes a slot, not 32 for the string
// and its space; at a million items 40 MB less), any other in other.
type ItemTable struct {
	env   *Env
	num   map[uint64]*Item
	other map[itemKey]*Item
}

// numKey is the key in num of k, unless its id is not a canonical decimal
// number below 2^62 (no sign, no leading zero but "0" itself): the number
// shifted left, with k.folder in the low bit.
func numKey(k itemKey) (uint64, bool) {
	id := k.id
	if len(id) == 0 || len(id) > 18 || id[0] == '0' && len(id) > 1 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	n <<= 1
	if k.folder {
		n |= 1
	}
	return n, true
}

// get is the item of key k.
func (t *ItemTable) get(k itemKey) (*Item, bool) {
	if n, ok := numKey(k); ok {
		it, ok := t.num[n]
		return it, ok
	}
	it, ok := t.other[k]
	return it, ok
}

// newItemTable returns an empty items table on env.
func newItemTable(env *Env) ItemTable {
	return ItemTable{env: env, num: map[uint64]*Item{}, other: map[itemKey]*Item{}}
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
// many it reads), so that it does not grow step by step. Ids are mostly
// canonical numbers: the room is made in num.
func (t *ItemTable) Grow(n int) {
	if t.Len() == 0 && n > 0 {
		t.num = make(map[uint64]*Item, n)
	}
}

// Len is the number of items.
func (t *ItemTable) Len() int { return len(t.num) + len(t.other) }

// All yields every item with its id, in no order.
func (t *ItemTable) All() iter.Seq2[string, *Item] {
	return func(yield func(string, *Item) bool) {
		for _, it := range t.num {
			if !yield(it.ID, it) {
				return
			}
		}
		for k, it := range t.other {
			if !yield(k.id, it) {
				return
			}
		}
	}
}

// Keys returns the record keys of the items (RecordKey), sorted.
func (t *ItemTable) Keys() []string {
	keys := make([]string, 0, t.Len())
	for _, it := range t.num {
		keys = append(keys, recordKey(t.keyOf(it)))
	}
	for k := range maps.Keys(t.other) {
		keys = append(keys, recordKey(k))
	}
	slices.Sort(keys)
	return keys
}

// Put stores it under its type and id, and marks it.
func (t *ItemTable) Put(it *Item) {
	k := t.key(it.Typ, it.ID)
	if n, ok := numKey(k); ok {
		t.num[n] = it
	} else {
		t.other[k] = it
	}
	t.mark(k)
}

// Delete removes it (if stored), and marks it.
func (t *ItemTable) Delete(it *Item) {
	k := t.key(it.Typ, it.ID)
	if n, ok := numKey(k); ok {
		delete(t.num, n)
	} else {
		delete(t.other, k)
	}
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
