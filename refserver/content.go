package refserver

import (
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
)

// parseFields reads the comma-separated fields query parameter; nil if absent.
func parseFields(r *http.Request) []string {
	raw, ok := r.URL.Query()["fields"]
	if !ok {
		return nil
	}
	out := []string{}
	for _, v := range raw {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// sortItems orders items by type (folders, files, web links), then by key.
func sortItems(items []*state.Item, key string, desc bool) {
	typeRank := func(t string) int {
		switch t {
		case "folder":
			return 0
		case "file":
			return 1
		}
		return 2
	}
	size := func(it *state.Item) int64 {
		if it.Typ == "file" {
			return it.Current().Blob.Size
		}
		return 0
	}
	idNum := func(it *state.Item) int64 { n, _ := strconv.ParseInt(it.ID, 10, 64); return n }
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if ra, rb := typeRank(a.Typ), typeRank(b.Typ); ra != rb {
			return ra < rb
		}
		var less, equal bool
		switch key {
		case "name":
			la, lb := strings.ToLower(a.Name), strings.ToLower(b.Name)
			less, equal = la < lb, la == lb
		case "date":
			less, equal = a.ModifiedAt.Before(b.ModifiedAt), a.ModifiedAt.Equal(b.ModifiedAt)
		case "size":
			less, equal = size(a) < size(b), size(a) == size(b)
		}
		if key == "id" || equal {
			less = idNum(a) < idNum(b)
		}
		if desc {
			return !less && idNum(a) != idNum(b)
		}
		return less
	})
}
