package persist

import (
	"slices"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// orderedByID lists a table's objects by numeric id: the creation order of
// ids from the state's NewID.
func orderedByID[T any](t *state.Table[T], id func(T) string) []T {
	var list []T
	for _, v := range t.All() {
		list = append(list, v)
	}
	slices.SortFunc(list, func(a, b T) int { return wire.CompareIDs(id(a), id(b)) })
	return list
}
