package state

import (
	"cmp"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/btree"
)

// The folder indexes keep, for each folder (and for each owner's root "0"),
// the items a listing shows: everything in the folder that is not in the
// trash, web links included, items hidden from users included (they are
// counted and keep their place). Each index has a map from the case-folded
// name (the name-uniqueness check across files, folders and web links) and,
// for every sort order the API offers, one counted B-tree per item type
// (folders, then files, then web links come first whatever the direction),
// ordered by the sort key and then the id. A page at any offset costs
// O(log n + page), and an insert, a removal or a key change O(log n).
//
// Items keep a snapshot of the keys they are filed under (Item.slot), so a
// change of name, modified_at, size, parent, owner or trash state is
// applied by folderIndexes.Sync: removed under the old keys, filed under
// the new.
// Item.touch calls it; so does every place that adds, moves, trashes,
// restores or deletes an item.

// SortKeys are the sort orders of GET /folders/{id}/items, by their index
// in folderIndex.orders.
var SortKeys = [...]string{"name", "date", "size", "id"}

// sortKeyIndex returns the position of a sort key in SortKeys.
func sortKeyIndex(key string) int {
	for i, k := range SortKeys {
		if k == key {
			return i
		}
	}
	return 0
}

// IndexKey names a folder index: a folder id, and the owner for the root
// "0", which is each principal's own.
type IndexKey struct {
	Folder string
	Owner  *User
}

// itemSlot is where an item is filed and the keys it is filed under.
// Reached only through a transaction.
type itemSlot struct {
	home  *folderIndex // nil: not in any index; home.key is where it is filed
	name  string       // the name itself (the event log tells renames by it)
	lower string       // lower-cased name: sort by name
	// sec and nsec are the modification time it is sorted by (Unix
	// seconds and nanoseconds: exact for any time, 12 bytes and not a
	// time.Time's 24), rank in nsec's padding.
	sec  int64
	size int64
	id   int64
	nsec int32
	rank int32 // 0 folder, 1 file, 2 web link
}

// dateCmp compares the modification times a and b are filed under.
func dateCmp(a, b *itemSlot) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.nsec, b.nsec)
}

// folderIndex is the index of one folder. Reached only through a transaction.
type folderIndex struct {
	key IndexKey // its key in folderIndexes.M (TrashAll: none)
	// byName is the item filed under each case-folded name (names are
	// unique in a folder: a conflict), or the first of the items of a
	// name filed more than once (the trash's, or what a conflict left),
	// which are all in dups, in filing order. One pointer a name, not a
	// slice: a million items' slices were ~30 MB. An itemHash keyed by
	// the items' fold (slot.foldKey): 8 bytes a slot, where a map held the
	// name's string header too, and its slack (~50 MB at a million).
	byName itemHash[string, foldKeyer]
	dups   map[string][]*Item
	orders [len(SortKeys)][3]*btree.BTreeG[*Item]
	count  int
	filing []*Item // while SyncAll files items in a new index: them
	// size is the sum of the sizes of the files the index lists and of
	// the sizes of the folders it lists (each its own index's size): the
	// folder's size, kept as items are filed in and out (folderSize).
	size int64
}

// folderIndexes are the server's folder indexes, and the trash's: one per
// owner in M (keyed {TrashKey, owner}) and TrashAll across owners. Reached
// only through a transaction.
type folderIndexes struct {
	M        map[IndexKey]*folderIndex
	TrashAll *folderIndex
	// changed, when set, hears of every item sync and unindex see, with
	// where the item was filed (from) and where it goes (to, when listed):
	// the search index marks it pending, the event log tells moves and
	// renames.
	changed func(it *Item, from itemSlot, to IndexKey, listed bool)
	// reshaped, when set, hears of every folder whose listing changes: an
	// item filed in or out of it, or under new keys (a persisted server's
	// listings wait for its commit: Persister.ListingChanged).
	reshaped func(folder string)
	// folder, when set, finds a folder by id: a change of an index's size
	// goes up through the folder it belongs to into that folder's own
	// index, and so on up to a root or the trash (grow).
	folder func(id string) *Item
}

// trash returns the trash index of owner, or of every owner when owner is
// nil; nil when it is empty.
func (x *folderIndexes) trash(owner *User) *folderIndex {
	if owner == nil {
		return x.TrashAll
	}
	return x.M[IndexKey{Folder: TrashKey, Owner: owner}]
}

// slotLess are the orders of SortKeys, on the keys an item is filed under
// (then its id).
var slotLess = [len(SortKeys)]func(a, b *Item) bool{
	func(a, b *Item) bool {
		if a.slot.lower != b.slot.lower {
			return a.slot.lower < b.slot.lower
		}
		return a.slot.id < b.slot.id
	},
	func(a, b *Item) bool {
		if c := dateCmp(&a.slot, &b.slot); c != 0 {
			return c < 0
		}
		return a.slot.id < b.slot.id
	},
	func(a, b *Item) bool {
		if a.slot.size != b.slot.size {
			return a.slot.size < b.slot.size
		}
		return a.slot.id < b.slot.id
	},
	func(a, b *Item) bool { return a.slot.id < b.slot.id },
}

func newFolderIndex(key IndexKey) *folderIndex {
	fx := &folderIndex{key: key}
	less := slotLess
	for k := range fx.orders {
		for t := range fx.orders[k] {
			fx.orders[k][t] = btree.NewBTreeGOptions(less[k], btree.Options{NoLocks: true})
		}
	}
	return fx
}

// TrashKey is the folder part of the key of a trash index: an item in the
// trash itself is filed under {TrashKey, its owner} (GET
// /folders/trash/items lists it), and in folderIndexes.TrashAll too (what a
// principal who sees every item lists). Folder ids are numeric, so it names
// no folder.
const TrashKey = "trash"

// Placement is the index an item belongs in: its folder's, or its owner's
// trash when it is in the trash itself. ok is false for an item trashed with
// a folder, which no listing shows.
func Placement(it *Item) (IndexKey, bool) {
	if it.ParentID == "" {
		return IndexKey{}, false
	}
	if it.Trashed() {
		if it.TrashedWith() != "" {
			return IndexKey{}, false
		}
		return IndexKey{Folder: TrashKey, Owner: it.Owner}, true
	}
	if it.ParentID == RootID {
		return IndexKey{Folder: RootID, Owner: it.Owner}, true
	}
	return IndexKey{Folder: it.ParentID}, true
}

// slotFor computes the keys an item is filed under now.
func slotFor(it *Item) itemSlot {
	sl := itemSlot{name: it.Name, lower: strings.ToLower(it.Name),
		sec: it.ModifiedAt.Unix(), nsec: int32(it.ModifiedAt.Nanosecond()), rank: typeRank(it.Typ)}
	sl.id, _ = strconv.ParseInt(it.ID, 10, 64)
	if it.Typ == "file" && len(it.Versions) > 0 {
		sl.size = it.Current().Blob.Size
	}
	return sl
}

func typeRank(typ string) int32 {
	switch typ {
	case "folder":
		return 0
	case "file":
		return 1
	}
	return 2
}

// Index returns the index of a folder (owner matters for the root only),
// nil when the folder lists nothing.
func (x *folderIndexes) Index(folderID string, rootOwner *User) *folderIndex {
	key := IndexKey{Folder: folderID}
	if folderID == RootID {
		key.Owner = rootOwner
	}
	return x.M[key]
}

// Sync files an item where it belongs now, under its current keys.
func (x *folderIndexes) Sync(it *Item) {
	key, listed := Placement(it)
	if x.changed != nil {
		x.changed(it, it.slot, key, listed)
	}
	if !listed {
		x.unindex(it)
		return
	}
	want := slotFor(it)
	if it.slot.home != nil {
		if it.slot.home.key == key && it.slot == withHome(want, it.slot.home) {
			return
		}
		x.unindex(it)
	}
	fx := x.M[key]
	if fx == nil {
		fx = newFolderIndex(key)
		x.M[key] = fx
	}
	want.home = fx
	it.slot = want
	it.index = x
	fx.add(it)
	x.grow(fx, key, x.sizeOf(it))
	if x.reshaped != nil {
		x.reshaped(key.Folder)
	}
	if key.Folder == TrashKey {
		if x.TrashAll == nil {
			x.TrashAll = newFolderIndex(IndexKey{})
		}
		x.TrashAll.add(it)
	}
}

// add files it in fx under it.slot's keys.
func (fx *folderIndex) add(it *Item) {
	fx.fileName(it)
	for k := range fx.orders {
		fx.orders[k][it.slot.rank].Set(it)
	}
	fx.count++
}

// Remove takes it out of fx, filed under it.slot's keys.
func (fx *folderIndex) Remove(it *Item) {
	for k := range fx.orders {
		fx.orders[k][it.slot.rank].Delete(it)
	}
	fx.unfileName(it)
	fx.count--
}

// fileName files it under its case-folded name.
func (fx *folderIndex) fileName(it *Item) {
	name := it.slot.foldKey()
	first := fx.byName.get(name)
	if first == nil {
		fx.byName.set(it)
		return
	}
	if fx.dups == nil {
		fx.dups = make(map[string][]*Item)
	}
	same := fx.dups[name]
	if same == nil {
		same = []*Item{first}
	}
	fx.dups[name] = append(same, it)
}

// unfileName takes it out of its case-folded name's items.
func (fx *folderIndex) unfileName(it *Item) {
	name := it.slot.foldKey()
	same, ok := fx.dups[name]
	if !ok {
		if fx.byName.get(name) == it {
			fx.byName.remove(name)
		}
		return
	}
	if i := slices.Index(same, it); i >= 0 {
		same = slices.Delete(same, i, i+1)
	}
	fx.byName.set(same[0])
	if len(same) == 1 {
		delete(fx.dups, name)
	} else {
		fx.dups[name] = same
	}
}

func withHome(sl itemSlot, home *folderIndex) itemSlot {
	sl.home = home
	return sl
}

// unindex removes an item from its index.
func (x *folderIndexes) unindex(it *Item) {
	if x.changed != nil {
		x.changed(it, it.slot, IndexKey{}, false)
	}
	fx := it.slot.home
	if fx == nil {
		return
	}
	fx.Remove(it)
	x.grow(fx, fx.key, -x.sizeOf(it))
	if x.reshaped != nil {
		x.reshaped(fx.key.Folder)
	}
	if fx.key.Folder == TrashKey {
		x.TrashAll.Remove(it)
	}
	if fx.count == 0 {
		delete(x.M, fx.key)
	}
	it.slot = itemSlot{}
}

// sizeOf is what a filed item adds to the size of the index it is filed
// in: a file its size when filed, a folder its own index's size, a web
// link nothing.
func (x *folderIndexes) sizeOf(it *Item) int64 {
	switch it.slot.rank {
	case 1:
		return it.slot.size
	case 0:
		return x.M[IndexKey{Folder: it.ID}].Size()
	}
	return 0
}

// grow adds delta to the size of fx, filed under key, and to the sizes of
// the indexes above it: the folder fx belongs to is filed in its parent's
// index, which grows as much, and so on up to an owner's root (or the
// trash, whose size means nothing), or to a folder not filed anywhere.
func (x *folderIndexes) grow(fx *folderIndex, key IndexKey, delta int64) {
	if delta == 0 {
		return
	}
	for {
		fx.size += delta
		if key.Folder == RootID || key.Folder == TrashKey || x.folder == nil {
			return
		}
		f := x.folder(key.Folder)
		if f == nil || f.Typ != "folder" || f.slot.home == nil {
			return
		}
		fx, key = f.slot.home, f.slot.home.key
	}
}

// Size is the size of the folder the index lists: the sum of the current
// sizes of the files below it, through its folders, none in the trash.
func (fx *folderIndex) Size() int64 {
	if fx == nil {
		return 0
	}
	return fx.size
}

// Len is the number of items a listing of the folder counts.
func (fx *folderIndex) Len() int {
	if fx == nil {
		return 0
	}
	return fx.count
}

// Named is the items of the index whose name equals name ignoring case
// (strings.EqualFold), in filing order.
func (fx *folderIndex) Named(name string) iter.Seq[*Item] {
	return func(yield func(*Item) bool) {
		if fx == nil {
			return
		}
		fold := FoldName(name)
		if same, ok := fx.dups[fold]; ok {
			for _, it := range same {
				if !yield(it) {
					return
				}
			}
		} else if it := fx.byName.get(fold); it != nil {
			yield(it)
		}
	}
}

// Page returns the items at positions [start, end) of the listing sorted by
// SortKeys[key], folders first, then files, then web links, each group in
// the direction asked.
func (fx *folderIndex) Page(key int, desc bool, start, end int) []*Item {
	if fx == nil || start >= end {
		return nil
	}
	out := make([]*Item, 0, min(end-start, fx.count))
	for _, tr := range fx.orders[key] {
		n := tr.Len()
		if start >= n {
			start, end = start-n, end-n
			continue
		}
		take := min(end, n) - start
		pos := start
		if desc {
			pos = n - 1 - start
		}
		first, _ := tr.GetAt(pos)
		iter := tr.Iter()
		iter.Seek(first)
		for ok := true; ok && take > 0; take-- {
			out = append(out, iter.Item())
			if desc {
				ok = iter.Prev()
			} else {
				ok = iter.Next()
			}
		}
		iter.Release()
		start, end = 0, end-n
		if end <= 0 {
			break
		}
	}
	return out
}

// All returns every item of the index, in id order within each type.
func (fx *folderIndex) All() []*Item {
	if fx == nil {
		return nil
	}
	return fx.Page(sortKeyIndex("id"), false, 0, fx.count)
}

// FoldName maps a name to a key shared by exactly the names
// strings.EqualFold finds equal to it: each rune becomes one rune of its
// simple case-folding orbit — the lower-case ASCII letter for the orbits
// that hold one (a–z with A–Z, k and s with the Kelvin sign and the long
// s), the smallest rune for the others. An ASCII name's key is its lower
// case (isASCII), the string a listing sorts it by: a lower-case name is
// its own key, and neither needs a string of its own.
func FoldName(name string) string {
	if isASCII(name) {
		return strings.ToLower(name)
	}
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune is the rune of r's simple case-folding orbit that FoldName
// maps r to.
func foldRune(r rune) rune {
	key := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if 'a' <= key && key <= 'z' {
			break
		}
		if 'a' <= f && f <= 'z' || f < key {
			key = f
		}
	}
	return key
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
