package state

import (
	"testing"
	"unsafe"
)

// TestItemSizeClass keeps the structs a million-item server holds one of
// per item (or per file version) within the allocator's size classes they
// were fitted to: an Item that grows past 512 bytes takes 576 of the heap.
func TestItemSizeClass(t *testing.T) {
	for _, c := range []struct {
		name       string
		size, most uintptr
	}{
		{"Item", unsafe.Sizeof(Item{}), 512},
		{"Version", unsafe.Sizeof(Version{}), 112},
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
