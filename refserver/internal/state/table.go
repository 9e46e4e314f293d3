package state

import (
	"iter"
	"maps"
)

// Table holds the records of one kind by key. What is written through it
// (Put, Delete, Update, DeleteWhere) is marked for persistence, so rule
// code never marks a record itself: a record changes by being written
// through its table. Get, At, Has, Len, All and Keys read. A table is a
// part of the model, reachable only through a transaction.
type Table[V any] struct {
	kind KindID
	env  *Env
	m    map[string]V
}

// newTable returns an empty table of kind's records on env (whose
// Persister, once set, takes the marks).
func newTable[V any](env *Env, kind KindID) Table[V] {
	return Table[V]{kind: kind, env: env, m: map[string]V{}}
}

// mark marks the record with key.
func (t *Table[V]) mark(key string) {
	if p := t.env.Persist; p != nil {
		p.mark(t.kind, key)
	}
}

// Get returns the record with key.
func (t *Table[V]) Get(key string) (V, bool) {
	v, ok := t.m[key]
	return v, ok
}

// At returns the record with key, or the zero V.
func (t *Table[V]) At(key string) V { return t.m[key] }

// Has reports whether a record has key.
func (t *Table[V]) Has(key string) bool {
	_, ok := t.m[key]
	return ok
}

// Len is the number of records.
func (t *Table[V]) Len() int { return len(t.m) }

// All yields every record with its key, in no order.
func (t *Table[V]) All() iter.Seq2[string, V] { return maps.All(t.m) }

// Keys returns the keys, sorted.
func (t *Table[V]) Keys() []string { return SortedKeys(t.m) }

// Put stores v under key, and marks it.
func (t *Table[V]) Put(key string, v V) {
	t.m[key] = v
	t.mark(key)
}

// Delete removes the record with key (if any), and marks it.
func (t *Table[V]) Delete(key string) {
	delete(t.m, key)
	t.mark(key)
}

// Update runs change on the record with key, and marks it; it reports
// false, changing nothing, when there is none.
func (t *Table[V]) Update(key string, change func(V)) bool {
	v, ok := t.m[key]
	if !ok {
		return false
	}
	change(v)
	t.mark(key)
	return true
}

// DeleteWhere removes, and marks, every record that matches.
func (t *Table[V]) DeleteWhere(match func(V) bool) {
	for k, v := range t.m {
		if match(v) {
			delete(t.m, k)
			t.mark(k)
		}
	}
}
