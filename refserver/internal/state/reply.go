package state

import (
	"github.com/contentapi/cms/refserver/internal/wire"
)

// Reply is an answer a change of the state makes: its status and its JSON
// body (none when body is nil). A list page (a map with "entries") is
// written by wire.WritePage, which copies pre-rendered entries as they are.
type Reply struct {
	Status int
	Body   any
}

// RecordIn returns the record of m with id, or 404 not_found naming what.
func RecordIn[V any](m map[string]*V, id, what string) (*V, *wire.Error) {
	if v, ok := m[id]; ok {
		return v, nil
	}
	return nil, wire.NotFound(what)
}

// TableRecord is RecordIn for a table.
func TableRecord[V any](t *Table[*V], id, what string) (*V, *wire.Error) {
	if v, ok := t.Get(id); ok {
		return v, nil
	}
	return nil, wire.NotFound(what)
}
