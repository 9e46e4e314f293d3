package state

import (
	"maps"
	"slices"
	"testing"
)

// TestTableMarksWrites: a write through a table (Put, Delete, Update,
// DeleteWhere) marks the records it writes, and only those; a read marks
// nothing, nor does an Update of a missing record.
func TestTableMarksWrites(t *testing.T) {
	t.Parallel()
	type rec struct{ n int }
	cases := []struct {
		name  string
		write func(tb *Table[*rec])
		want  []string
	}{
		{"put", func(tb *Table[*rec]) { tb.Put("c", &rec{3}) }, []string{"c"}},
		{"delete", func(tb *Table[*rec]) { tb.Delete("a") }, []string{"a"}},
		{"update", func(tb *Table[*rec]) { tb.Update("b", func(r *rec) { r.n++ }) }, []string{"b"}},
		{"update of a missing record", func(tb *Table[*rec]) { tb.Update("x", func(r *rec) { r.n++ }) }, nil},
		{"delete where", func(tb *Table[*rec]) { tb.DeleteWhere(func(r *rec) bool { return r.n > 1 }) }, []string{"b"}},
		{"reads", func(tb *Table[*rec]) {
			tb.Get("a")
			tb.At("b")
			tb.Has("c")
			tb.Len()
			tb.Keys()
			for range tb.All() {
			}
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := &Env{}
			tb := newTable[*rec](env, KTasks)
			tb.Put("a", &rec{1})
			tb.Put("b", &rec{2})
			env.Persist = NewPersister() // marks from here on
			c.write(&tb)
			var got []string
			for dk := range env.Persist.dirty {
				if dk.Kind != KTasks {
					t.Errorf("marked kind %d, want %d", dk.Kind, KTasks)
				}
				got = append(got, dk.Key)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("marked %v, want %v", got, c.want)
			}
			if c.name == "update" && tb.At("b").n != 3 {
				t.Errorf("update did not run: %+v", tb.At("b"))
			}
		})
	}
}

// TestTableWithoutPersistence: a state that is not persisted (no
// Persister) writes through its tables all the same.
func TestTableWithoutPersistence(t *testing.T) {
	t.Parallel()
	tb := newTable[int](&Env{}, KPins)
	tb.Put("a", 1)
	tb.Update("a", func(int) {})
	tb.Delete("a")
	if tb.Len() != 0 || len(slices.Collect(maps.Keys(tb.m))) != 0 {
		t.Errorf("table not empty: %v", tb.m)
	}
}

// TestUpdateHandsOutTheModel: Update and View hand out transactions on the
// one model, under the state's lock.
func TestUpdateHandsOutTheModel(t *testing.T) {
	t.Parallel()
	s := New(&Env{})
	s.Update(func(tx *Tx) { tx.NextID = 7 })
	var got int64
	s.View(func(tx *ReadTx) { got = tx.NextID })
	if got != 7 {
		t.Errorf("NextID %d through View, want 7", got)
	}
	if s.mu.TryLock() {
		s.mu.Unlock()
	} else {
		t.Error("the lock is held after Update and View returned")
	}
}
