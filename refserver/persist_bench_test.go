package refserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkPersistedCall measures what persistence adds to a call, in
// process (no network, one goroutine: no grouping, no scheduling), which a
// shared machine disturbs far less than BenchmarkServerLoad: the same mix
// of calls against the memory store, a persisted server without its syncs
// (data-nosync: the commit path's CPU and allocations alone) and a
// persisted server (data). Each op is one call, out of every ten: four
// folder gets, three list pages of 100 items, three folder creations. Compare
// allocs/op and B/op (load-independent) and ns/op between the stores:
//
//	go test -run '^$' -bench PersistedCall -benchtime 20000x ./refserver
func BenchmarkPersistedCall(b *testing.B) {
	for _, store := range []string{"memory", "data-nosync", "data"} {
		b.Run("store="+store, func(b *testing.B) {
			opts := Options{}
			if store != "memory" {
				opts.DataDir = b.TempDir()
			}
			s, err := New(opts)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = s.Close() }()
			if store == "data-nosync" {
				s.db.NoSync = true
			}
			h, token := s.Handler(), s.AdminToken()
			call := func(method, path, body string, want int) string {
				req := httptest.NewRequest(method, "http://"+state.InProcessAPIHost+state.APIRoot+path, strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				if body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != want {
					b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
				}
				return rec.Body.String()
			}
			idOf := func(answer string) string {
				_, rest, _ := strings.Cut(answer, `"id":"`)
				id, _, _ := strings.Cut(rest, `"`)
				return id
			}
			shared := idOf(call(http.MethodPost, "/folders?fields=id", `{"name":"shared","parent":{"id":"0"}}`, http.StatusCreated))
			for i := range 100 {
				call(http.MethodPost, "/folders?fields=id", fmt.Sprintf(`{"name":"f-%03d","parent":{"id":%q}}`, i, shared), http.StatusCreated)
			}
			own := idOf(call(http.MethodPost, "/folders?fields=id", `{"name":"own","parent":{"id":"0"}}`, http.StatusCreated))
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				switch i % 10 {
				case 0, 3, 6, 8:
					call(http.MethodGet, "/folders/"+shared, "", http.StatusOK)
				case 1, 4, 7:
					call(http.MethodGet, "/folders/"+shared+"/items?limit=100", "", http.StatusOK)
				default:
					call(http.MethodPost, "/folders?fields=id", fmt.Sprintf(`{"name":"n-%d","parent":{"id":%q}}`, i, own), http.StatusCreated)
				}
			}
			b.StopTimer()
			s.ResetRequests()
		})
	}
}
