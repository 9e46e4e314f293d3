package persist

import (
	"maps"
	"slices"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// orderedByID lists a map's objects by numeric id: the creation order of
// ids from the state's NewID.
func orderedByID[T any](m map[string]T, id func(T) string) []T {
	list := slices.Collect(maps.Values(m))
	slices.SortFunc(list, func(a, b T) int { return wire.CompareIDs(id(a), id(b)) })
	return list
}
