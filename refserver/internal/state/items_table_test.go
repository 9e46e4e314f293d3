package state

import "testing"

// TestItemTableSpaces: with SeparateIDSpaces a file and a folder with one
// id are two items, each found by its type (and by its reference); with
// one id space the type is not part of the key, and the record keys are
// the bare ids of earlier data directories. A lookup allocates nothing.
func TestItemTableSpaces(t *testing.T) {
	for _, separate := range []bool{false, true} {
		tab := newItemTable(&Env{Cfg: StateConfig{SeparateIDSpaces: separate}})
		file := &Item{Typ: "file", ID: "7"}
		folder := &Item{Typ: "folder", ID: "8"}
		if separate {
			folder.ID = "7"
		}
		tab.Put(file)
		tab.Put(folder)
		if got := tab.At("file", "7"); got != file {
			t.Errorf("separate=%v: At(file, 7) = %v", separate, got)
		}
		if got := tab.At("folder", folder.ID); got != folder {
			t.Errorf("separate=%v: At(folder, %s) = %v", separate, folder.ID, got)
		}
		wantRef := "8"
		if separate {
			wantRef = "folder:7"
		}
		if ref := tab.Ref(folder); ref != wantRef {
			t.Errorf("separate=%v: Ref(folder) = %q, want %q", separate, ref, wantRef)
		}
		if ref := tab.Ref(file); ref != "7" {
			t.Errorf("separate=%v: Ref(file) = %q, want the bare id", separate, ref)
		}
		for _, it := range []*Item{file, folder} {
			if got, ok := tab.ByRef(tab.Ref(it)); !ok || got != it {
				t.Errorf("separate=%v: ByRef(Ref(%s)) = %v, %v", separate, it.Typ, got, ok)
			}
			if id := ItemIDOfKey(tab.RecordKey(it.Typ, it.ID)); id != it.ID {
				t.Errorf("separate=%v: ItemIDOfKey = %q, want %q", separate, id, it.ID)
			}
		}
		if n := testing.AllocsPerRun(100, func() {
			_ = tab.At("folder", "7")
			_, _ = tab.Get("file", "7")
			_ = tab.Ref(file)
		}); n != 0 {
			t.Errorf("separate=%v: a lookup allocates (%v per run)", separate, n)
		}
		tab.Delete(file)
		if tab.Has("file", "7") || !tab.Has("folder", folder.ID) {
			t.Errorf("separate=%v: Delete(file) took the wrong item", separate)
		}
	}
}

// TestItemTableOddIDs: ids that are not canonical decimal numbers (held
// apart from the numbered ones) are found, listed and deleted as the
// others, and never taken for the number they spell.
func TestItemTableOddIDs(t *testing.T) {
	for _, separate := range []bool{false, true} {
		tab := newItemTable(&Env{Cfg: StateConfig{SeparateIDSpaces: separate}})
		ids := []string{"0", "7", "07", "007", "x7", "", "-7", "+7", "999999999999999999", "9999999999999999999", "18446744073709551617", "٣"}
		var items []*Item
		for i, id := range ids {
			typ := "file"
			if i%2 == 1 {
				typ = "folder"
			}
			it := &Item{Typ: typ, ID: id}
			items = append(items, it)
			tab.Put(it)
		}
		if tab.Len() != len(ids) {
			t.Fatalf("separate=%v: Len %d, want %d", separate, tab.Len(), len(ids))
		}
		for _, it := range items {
			if got := tab.At(it.Typ, it.ID); got != it {
				t.Errorf("separate=%v: At(%s, %q) = %v", separate, it.Typ, it.ID, got)
			}
			if got, ok := tab.ByRef(tab.Ref(it)); !ok || got != it {
				t.Errorf("separate=%v: ByRef(%q) = %v", separate, tab.Ref(it), got)
			}
		}
		seen := map[string]bool{}
		for id, it := range tab.All() {
			if id != it.ID || seen[id] {
				t.Errorf("separate=%v: All yields %q for %q", separate, id, it.ID)
			}
			seen[id] = true
		}
		if keys := tab.Keys(); len(keys) != len(ids) {
			t.Errorf("separate=%v: Keys %q", separate, keys)
		}
		for _, it := range items {
			tab.Delete(it)
			if tab.Has(it.Typ, it.ID) {
				t.Errorf("separate=%v: %q still there", separate, it.ID)
			}
		}
		if tab.Len() != 0 {
			t.Errorf("separate=%v: Len %d after deleting all", separate, tab.Len())
		}
	}
}
