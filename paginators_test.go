package cms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pagedListServer answers every list of the API with the same list of five
// entries, two a page, by marker ("m<position>", from the query or a
// metadata query's body) and by offset alike: every page carries both
// next_marker and offset, limit and total_count.
func pagedListServer(w http.ResponseWriter, r *http.Request) {
	const total, limit = 5, 2
	pos := 0
	marker := r.URL.Query().Get("marker")
	if r.Method == http.MethodPost { // a metadata query carries its marker in the body
		var body struct {
			Marker string `json:"marker"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		marker = body.Marker
	}
	if m, ok := strings.CutPrefix(marker, "m"); ok {
		pos, _ = strconv.Atoi(m)
	}
	if o := r.URL.Query().Get("offset"); o != "" {
		pos, _ = strconv.Atoi(o)
	}
	entries := []any{}
	for i := pos; i < min(pos+limit, total); i++ {
		entries = append(entries, map[string]any{"type": "file", "id": strconv.Itoa(100 + i)})
	}
	var next any
	if pos+limit < total {
		next = "m" + strconv.Itoa(pos+limit)
	}
	writeJSON(w, http.StatusOK, map[string]any{"entries": entries, "next_marker": next, "offset": pos, "limit": limit, "total_count": total})
}

// TestEveryPaginatorWalksEveryPage: every New…Paginator of every service
// walks the five entries of a list served two a page, across three pages,
// and then reports no more pages.
func TestEveryPaginatorWalksEveryPage(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t, WithoutRetries())
	e.api.HandleFunc("/", pagedListServer)
	e.upload.HandleFunc("/", pagedListServer)
	found, pageMethods := 0, 0
	for sm := range serviceMethods(e.client) {
		m := sm.method
		if out := m.Type.NumOut(); out == 3 {
			if r := m.Type.Out(0).String(); strings.HasPrefix(r, "*cms.MarkerPage[") || strings.HasPrefix(r, "*cms.OffsetPage[") {
				pageMethods++
			}
		}
		if !strings.HasPrefix(m.Name, "New") || !strings.HasSuffix(m.Name, "Paginator") {
			continue
		}
		name := sm.name
		found++
		t.Run(name, func(t *testing.T) {
			p := sm.call.Call(sweepArgs(m))[0]
			pages, entries := 0, 0
			for p.MethodByName("HasMorePages").Call(nil)[0].Bool() {
				res := p.MethodByName("NextPage").Call([]reflect.Value{reflect.ValueOf(context.Background())})
				if err, _ := errOf(res); err != nil {
					require.NoError(t, err)
				}
				pages++
				entries += res[0].Elem().FieldByName("Entries").Len()
				require.LessOrEqual(t, pages, 3, "more pages than the list has")
			}
			assert.Equal(t, 3, pages, fmt.Sprintf("%s pages", name))
			assert.Equal(t, 5, entries, fmt.Sprintf("%s entries", name))
		})
	}
	assert.Equal(t, pageMethods, found, "every paged list (a method returning a page) has a paginator")
	assert.Greater(t, found, 20)
}
