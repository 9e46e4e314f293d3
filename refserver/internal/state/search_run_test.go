package state

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// TestFirstKIsTheSortedPrefix: firstK keeps, in order, the first k of
// what it is given, as a full sort would (the search orders only its
// page and those before it).
func TestFirstKIsTheSortedPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	order := func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmpNewest(a.it, b.it)
	}
	for round := range 200 {
		n := rng.IntN(300)
		all := make([]scored, n)
		for i := range all {
			it := &Item{ID: fmt.Sprint(100 + i), ModifiedAt: base.Add(time.Duration(rng.IntN(20)) * time.Second)}
			all[i] = scored{it, rng.IntN(5)}
		}
		k := rng.IntN(n + 10)
		f := newFirstK(min(k, n), order)
		for _, v := range all {
			f.add(v)
		}
		want := slices.Clone(all)
		slices.SortFunc(want, order)
		want = want[:min(k, n)]
		got := f.sorted()
		if len(got) != len(want) {
			t.Fatalf("round %d: %d kept, want %d", round, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("round %d (n %d, k %d): at %d got %s/%d, want %s/%d", round, n, k, i, got[i].it.ID, got[i].score, want[i].it.ID, want[i].score)
			}
		}
	}
}

// TestSearchInChunksAnswersAsOne: a search whose hits are checked in
// transactions of a few (searchChunk) answers every page as one that
// checks them in one transaction, and leaves out an item changed after
// its mark.
func TestSearchInChunksAnswersAsOne(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	st, err := NewMemory(&Env{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	var admin *Principal
	var renamed *Item
	st.Update(func(tx *Tx) {
		for _, p := range tx.Principals {
			if p.Kind == "admin" {
				admin = p
			}
		}
		for i := range 60 {
			it := &Item{Typ: "file", ID: tx.NewID(), Name: fmt.Sprintf("doc %d%s.txt", i, strings.Repeat(" doc", i%3)), ParentID: RootID,
				Owner: tx.Admin, CreatedBy: tx.Admin, ModBy: tx.Admin, CreatedAt: now, ModifiedAt: now.Add(time.Duration(i%7) * time.Second),
				Versions: []*Version{NewVersion(tx.NewID(), blob.RefOf(blob.Info{ID: "b" + fmt.Sprint(i), Size: 1}), now, tx.Admin)}}
			tx.AddItem(it)
			if i == 10 {
				renamed = it
			}
		}
	})
	mark, err := st.CatchUpSearch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	names := func(mark uint64, q *SearchRequest) ([]string, any) {
		var out []string
		var total any
		st.SearchAt(mark, admin, q, func(tx *Tx, h *SearchHits) {
			rep, aerr := tx.SearchTx(admin, q, h)
			if aerr != nil {
				t.Fatal(aerr)
			}
			body := rep.Body.(map[string]any)
			for _, e := range body["entries"].([]any) {
				out = append(out, e.(map[string]any)["name"].(string))
			}
			total = body["total_count"]
		})
		return out, total
	}
	defer func(n, m int) { searchChunk, stampRankMax = n, m }(searchChunk, stampRankMax)
	stampRankMax = 0 // the admin's search is checked in chunks too
	for _, byModified := range []bool{false, true} {
		for _, page := range []wire.Page{{Offset: 0, Limit: 7}, {Offset: 5, Limit: 30}, {Offset: 55, Limit: 30}, {Offset: 70, Limit: 5}} {
			q := &SearchRequest{Query: &SearchNode{Op: OpWords, Words: []string{"doc"}, Prefix: true}, HasQuery: true,
				Mask: AllSearchFields, Trash: "non_trashed_only", ByModified: byModified, Page: page}
			searchChunk = 1 << 30
			want, wantTotal := names(mark, q)
			searchChunk = 7
			got, gotTotal := names(mark, q)
			if !slices.Equal(got, want) || gotTotal != wantTotal {
				t.Fatalf("by modified %v, page %+v: in chunks %v (%v), in one %v (%v)", byModified, page, got, gotTotal, want, wantTotal)
			}
		}
	}
	st.Update(func(tx *Tx) { tx.Search.changed(renamed) }) // a change after mark
	q := &SearchRequest{Query: &SearchNode{Op: OpWords, Words: []string{"doc"}}, HasQuery: true, Mask: AllSearchFields, Trash: "non_trashed_only", Page: wire.Page{Limit: 100}}
	got, total := names(mark, q)
	if len(got) != 59 || total != int64(59) || slices.Contains(got, renamed.Name) {
		t.Fatalf("after a change past the mark: %d names (total %v), %q among them: %v", len(got), total, renamed.Name, slices.Contains(got, renamed.Name))
	}
}
