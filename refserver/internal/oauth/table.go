package oauth

// table holds the records of one kind by key; its writes (put, delete,
// update, deleteWhere) mark the records they write (Config.Mark), so the
// room's code never marks a record itself.
type table[V any] struct {
	kind Kind
	mark func(Kind, string)
	m    map[string]V
}

func newTable[V any](kind Kind, mark func(Kind, string)) table[V] {
	return table[V]{kind: kind, mark: mark, m: map[string]V{}}
}

// put stores v under key, and marks it.
func (t *table[V]) put(key string, v V) {
	t.m[key] = v
	t.mark(t.kind, key)
}

// delete removes the record with key (if any), and marks it.
func (t *table[V]) delete(key string) {
	delete(t.m, key)
	t.mark(t.kind, key)
}

// update runs change on the record with key, if any, and marks it.
func (t *table[V]) update(key string, change func(V)) {
	if v, ok := t.m[key]; ok {
		change(v)
		t.mark(t.kind, key)
	}
}

// deleteWhere removes, and marks, every record that matches.
func (t *table[V]) deleteWhere(match func(V) bool) {
	for k, v := range t.m {
		if match(v) {
			delete(t.m, k)
			t.mark(t.kind, k)
		}
	}
}
