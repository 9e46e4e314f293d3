package state

import (
	"testing"
	"time"
	"unsafe"
)

// TestItemSizeClass keeps the structs a million-item server holds one of
// per item (or per file version) within the allocator's size classes they
// were fitted to: an Item that grows past 320 bytes takes 352 of the heap.
// A Version holds its blob's id and SHA1 as bytes (blob.Ref), not as two
// strings of 80–96 bytes more, and its time as Unix nanoseconds.
func TestItemSizeClass(t *testing.T) {
	for _, c := range []struct {
		name       string
		size, most uintptr
	}{
		{"Item", unsafe.Sizeof(Item{}), 320},
		{"Version", unsafe.Sizeof(Version{}), 96},
	} {
		if c.size > c.most {
			t.Errorf("%s is %d bytes, more than its size class's %d", c.name, c.size, c.most)
		}
	}
}

func TestOptBool(t *testing.T) {
	no, yes := false, true
	for _, c := range []struct {
		b    *bool
		want OptBool
	}{{nil, Unset}, {&no, False}, {&yes, True}} {
		o := OptBoolOf(c.b)
		if o != c.want {
			t.Errorf("OptBoolOf(%v) = %v, want %v", c.b, o, c.want)
		}
		if p := o.Ptr(); (p == nil) != (c.b == nil) || p != nil && *p != *c.b {
			t.Errorf("%v.Ptr() = %v, want %v", o, p, c.b)
		}
		for _, def := range []bool{false, true} {
			want := def
			if c.b != nil {
				want = *c.b
			}
			if got := o.Or(def); got != want {
				t.Errorf("%v.Or(%v) = %v, want %v", o, def, got, want)
			}
		}
	}
}

// TestItemExtras: an item's extras are allocated only while one is set,
// and a setter never changes what a copy of the item holds.
func TestItemExtras(t *testing.T) {
	var it Item
	it.SetDescription("d")
	it.SetTags([]string{"x"})
	c := it
	c.SetDescription("other")
	c.SetTrash(time.Unix(5, 0), "7")
	if it.Description() != "d" || it.Trashed() || it.TrashedWith() != "" {
		t.Errorf("a copy's change reached the item: %+v", it.Extras())
	}
	if c.Description() != "other" || c.Tags()[0] != "x" || !c.TrashedAt().Equal(time.Unix(5, 0)) || c.TrashedWith() != "7" {
		t.Errorf("copy holds %+v", c.Extras())
	}
	it.SetDescription("")
	it.SetTags(nil)
	if it.extras != nil {
		t.Errorf("extras kept with nothing set: %+v", *it.extras)
	}
	it.SetTags([]string{})
	if it.extras == nil || it.Tags() == nil {
		t.Error("empty tags not kept apart from none")
	}
	it.SetExtras(ItemExtras{})
	if it.extras != nil {
		t.Error("SetExtras of nothing kept extras")
	}
}

// TestVersionRare: a version's name and trash fields are kept apart from
// each other, allocated only while one is set, and never shared by a copy.
func TestVersionRare(t *testing.T) {
	var v Version
	u := &User{ID: "9"}
	v.SetName("old.txt")
	v.SetTrash(time.Unix(5, 0), time.Time{}, u, nil)
	c := v
	c.SetName("other.txt")
	if v.Name() != "old.txt" || !v.TrashedAt().Equal(time.Unix(5, 0)) || v.TrashedBy() != u {
		t.Errorf("version holds %q %v %v", v.Name(), v.TrashedAt(), v.TrashedBy())
	}
	if c.Name() != "other.txt" || c.TrashedBy() != u {
		t.Errorf("copy holds %q %v", c.Name(), c.TrashedBy())
	}
	v.SetTrash(time.Time{}, time.Time{}, nil, nil)
	if v.Name() != "old.txt" || v.rare == nil {
		t.Error("the name went with the trash")
	}
	v.SetName("")
	if v.rare != nil {
		t.Errorf("rare fields kept with nothing set: %+v", *v.rare)
	}
}

// TestMDValues: an instance's values answer as a map of the same changes
// does, and a copy taken before a change does not see a key added or
// removed.
func TestMDValues(t *testing.T) {
	vs := NewMDValues(map[string]MDVal{"b": {S: "2"}, "a": {S: "1"}})
	before := vs
	vs.Set("c", MDVal{S: "3"})
	vs.Set("a", MDVal{S: "one"})
	vs.Delete("b")
	vs.Delete("zz")
	want := map[string]MDVal{"a": {S: "one"}, "c": {S: "3"}}
	if got := vs.Map(); len(got) != len(want) || got["a"].S != "one" || got["c"].S != "3" || vs.Len() != 2 {
		t.Errorf("values %v, want %v", got, want)
	}
	var keys []string
	for k := range vs.All() {
		keys = append(keys, k)
	}
	if len(keys) != 2 || keys[0] != "a" || keys[1] != "c" {
		t.Errorf("keys %v, want sorted [a c]", keys)
	}
	if _, ok := vs.Get("b"); ok {
		t.Error("a deleted key is still there")
	}
	if _, ok := before.Get("b"); !ok || before.Len() != 2 {
		t.Errorf("the copy taken before changed: %v", before.Map())
	}
	if (MDValues{}).Len() != 0 || NewMDValues(nil).Len() != 0 {
		t.Error("empty values hold something")
	}
}

// TestItemReadyAt: an item's ReadyAt is the time set, to the nanosecond
// (in UTC), the zero time when unset or set to it; times past what Unix
// nanoseconds hold are held as the nearest they do.
func TestItemReadyAt(t *testing.T) {
	var it Item
	if !it.ReadyAt().IsZero() {
		t.Errorf("unset: %v", it.ReadyAt())
	}
	at := time.Date(2026, 11, 28, 17, 50, 1, 123456789, time.FixedZone("x", 3600))
	for _, c := range []struct{ set, want time.Time }{
		{at, at},
		{at.Add(time.Hour * 24 * 365 * 200), at.Add(time.Hour * 24 * 365 * 200)},
		{time.Time{}, time.Time{}},
		{time.Unix(0, 0), time.Unix(0, 1)},
		{time.Unix(-1, 0), time.Unix(-1, 0)},
		{time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), maxNanosTime},
		{time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), minNanosTime},
	} {
		it.SetReadyAt(c.set)
		if got := it.ReadyAt(); !got.Equal(c.want) || !c.want.IsZero() && got.Location() != time.UTC {
			t.Errorf("SetReadyAt(%v): ReadyAt %v, want %v in UTC", c.set, got, c.want)
		}
	}
}
