package state

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/tidwall/btree"
)

// TestFolderSyncAll: filing items in bulk (a restore) builds the indexes
// filing them one by one does: the same pages in every order and
// direction, the same names, counts and trash.
func TestFolderSyncAll(t *testing.T) {
	owners := []*User{{ID: "1"}, {ID: "2"}}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var items []*Item
	for i := range 300 {
		it := &Item{Typ: []string{"file", "folder", "web_link"}[i%3], ID: strconv.Itoa(1000 + (i*7919)%300),
			Name: fmt.Sprintf("Item-%d", (i*31)%50), Owner: owners[i%2], ModifiedAt: at.Add(time.Duration(i%13) * time.Hour)}
		switch {
		case i%5 == 0:
			it.ParentID = RootID
		case i%7 == 0:
			it.ParentID = "10"
			it.SetTrash(at, "") // in the trash itself
		case i%11 == 0:
			it.ParentID = "11"
			it.SetTrash(at, "11") // with a folder: not listed
		default:
			it.ParentID = strconv.Itoa(10 + i%4)
		}
		if it.Typ == "file" {
			it.Versions = []*Version{NewVersion("", blob.RefOf(blob.Info{Size: int64(i % 17)}), time.Time{}, nil)}
		}
		items = append(items, it)
	}
	clone := func() map[string]*Item {
		m := map[string]*Item{}
		for _, it := range items {
			c := *it
			m[c.ID] = &c
		}
		return m
	}
	one, bulk := clone(), clone()
	var x, y folderIndexes
	x.M, y.M = map[IndexKey]*folderIndex{}, map[IndexKey]*folderIndex{}
	for _, id := range slices.Sorted(maps.Keys(one)) {
		x.Sync(one[id])
	}
	y.SyncAll(maps.All(bulk))
	if len(x.M) != len(y.M) {
		t.Fatalf("%d indexes one by one, %d in bulk", len(x.M), len(y.M))
	}
	ids := func(its []*Item) []string {
		var out []string
		for _, it := range its {
			out = append(out, it.ID)
		}
		return out
	}
	same := func(what string, a, b *folderIndex) {
		t.Helper()
		if a.Len() != b.Len() {
			t.Fatalf("%s: %d items one by one, %d in bulk", what, a.Len(), b.Len())
		}
		for k := range SortKeys {
			for _, desc := range []bool{false, true} {
				if got, want := ids(b.Page(k, desc, 0, b.Len())), ids(a.Page(k, desc, 0, a.Len())); !slices.Equal(got, want) {
					t.Errorf("%s by %s (desc %v): %v in bulk, %v one by one", what, SortKeys[k], desc, got, want)
				}
			}
		}
		if a.byName.len() != b.byName.len() || len(a.dups) != len(b.dups) {
			t.Errorf("%s: %d names (%d held more than once) in bulk, %d (%d) one by one", what, b.byName.len(), len(b.dups), a.byName.len(), len(a.dups))
		}
		for it := range a.byName.all() {
			name := it.slot.foldKey()
			its := slices.Collect(a.Named(it.Name))
			if got := ids(slices.Collect(b.Named(it.Name))); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(ids(its)))) {
				t.Errorf("%s: name %q has %v in bulk, %v one by one", what, name, got, ids(its))
			}
		}
	}
	for key, fx := range x.M {
		if y.M[key] == nil {
			t.Fatalf("no index %v in bulk", key)
		}
		same(fmt.Sprint(key), fx, y.M[key])
	}
	same("trash", x.TrashAll, y.TrashAll)
	for id, it := range bulk {
		if o := one[id]; withHome(it.slot, nil) != withHome(o.slot, nil) || (it.slot.home == nil) != (o.slot.home == nil) ||
			it.slot.home != nil && it.slot.home.key != o.slot.home.key {
			t.Errorf("item %s filed under %+v in bulk, %+v one by one", id, it.slot, o.slot)
		}
	}
}

// TestFolderIndexNames: the items of a folded name filed more than once
// are found in filing order, whatever leaves first.
func TestFolderIndexNames(t *testing.T) {
	fx := newFolderIndex(IndexKey{Folder: "5"})
	var its []*Item
	for i, name := range []string{"A.txt", "a.txt", "b", "A.TXT"} {
		it := &Item{Typ: "file", ID: strconv.Itoa(i + 1), Name: name}
		it.slot = slotFor(it)
		fx.add(it)
		its = append(its, it)
	}
	named := func(name string) []string {
		var out []string
		for it := range fx.Named(name) {
			out = append(out, it.ID)
		}
		return out
	}
	check := func(name string, want ...string) {
		t.Helper()
		if got := named(name); !slices.Equal(got, want) {
			t.Errorf("Named(%q) = %v, want %v", name, got, want)
		}
	}
	check("a.TXT", "1", "2", "4")
	check("B", "3")
	check("c")
	fx.Remove(its[0])
	check("a.txt", "2", "4")
	fx.Remove(its[3])
	check("a.txt", "2")
	if len(fx.dups) != 0 {
		t.Errorf("dups kept: %v", fx.dups)
	}
	fx.Remove(its[1])
	fx.Remove(its[2])
	check("a.txt")
	if fx.byName.len() != 0 || fx.Len() != 0 {
		t.Errorf("left: %d names, %d", fx.byName.len(), fx.Len())
	}
	for got := range fx.Named("a.txt") {
		t.Errorf("Named of an empty index: %v", got)
	}
	var none *folderIndex
	for got := range none.Named("x") {
		t.Errorf("Named of a nil index: %v", got)
	}
}

// TestLoadFull: a tree loaded by loadFull holds the sorted items, in
// order and at their positions, whatever their count, and takes sets and
// deletes after.
func TestLoadFull(t *testing.T) {
	for _, n := range []int{0, 1, 30, 31, 32, 63, 64, 65, 127, 128, 129, 1000, 4096, 5000} {
		its := make([]*Item, n)
		for i := range its {
			its[i] = &Item{slot: itemSlot{id: int64(2 * i)}}
		}
		tr := btree.NewBTreeGOptions(slotLess[3], btree.Options{NoLocks: true})
		loadFull(tr, its)
		if tr.Len() != n {
			t.Fatalf("n=%d: Len %d", n, tr.Len())
		}
		i := 0
		tr.Scan(func(it *Item) bool {
			if it != its[i] {
				t.Fatalf("n=%d: item %d is id %d", n, i, it.slot.id)
			}
			i++
			return true
		})
		for i := 0; i < n; i += max(1, n/50) {
			if it, _ := tr.GetAt(i); it != its[i] {
				t.Fatalf("n=%d: GetAt(%d) is id %d", n, i, it.slot.id)
			}
		}
		odd := &Item{slot: itemSlot{id: int64(n) | 1}}
		tr.Set(odd)
		if it, _ := tr.GetAt(min(n, (n|1+1)/2)); it != odd {
			t.Errorf("n=%d: a set item is not at its place", n)
		}
		tr.Delete(odd)
		if n > 0 {
			tr.Delete(its[0])
			if it, _ := tr.Min(); n > 1 && it != its[1] {
				t.Errorf("n=%d: Min after deleting the first is id %d", n, it.slot.id)
			}
		}
	}
}
