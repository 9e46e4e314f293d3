package refserver

import (
	"fmt"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkCascadeApply applies a cascade policy with overwrite to a
// folder holding n files in folders of 100, the folder's value changing
// before each apply, so every item's instance is rewritten. ns/item stays
// flat as n grows: the cost is linear in the items touched.
func BenchmarkCascadeApply(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			s, err := New(Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			tx, end := beginTx(s.st)
			defer end()
			p := tx.Principals[s.AdminToken()]
			top, items := cascadeTree(tx, n)
			tmpl := &state.MDTemplate{Scope: s.st.EnterpriseScope(), Key: "bench", DisplayName: "Bench",
				Fields: []*state.MDField{{ID: "f", Typ: state.FieldString, Key: "k", DisplayName: "K"}}}
			tx.AddTemplate(tmpl)
			src := tx.AddInstance(tmpl, top, map[string]state.MDVal{"k": {Kind: state.ValString, S: "v0"}})
			rep, aerr := tx.CreateCascadePolicy(p, top.ID, "enterprise", "bench")
			if aerr != nil {
				b.Fatal(aerr)
			}
			id := rep.Body.(map[string]any)["id"].(string)
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				i++
				tx.SetInstanceValues(src, map[string]state.MDVal{"k": {Kind: state.ValString, S: fmt.Sprint("v", i)}})
				if _, aerr := tx.ApplyCascadePolicy(p, id, true); aerr != nil {
					b.Fatal(aerr)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(items), "ns/item")
		})
	}
}

// cascadeTree makes a folder holding n files, 100 to a subfolder, and
// returns it with the number of items below it.
func cascadeTree(tx *state.Tx, n int) (*state.Item, int) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(typ, name, parent string) *state.Item {
		it := &state.Item{Typ: typ, ID: tx.NewID(), Name: name, ParentID: parent, Owner: tx.Admin, CreatedBy: tx.Admin, ModBy: tx.Admin,
			CreatedAt: now, ModifiedAt: now}
		if typ == "file" {
			it.Versions = []*state.Version{state.NewVersion(tx.NewID(), blob.Ref{}, now, tx.Admin)}
		}
		tx.AddItem(it)
		return it
	}
	top := mk("folder", "top", state.RootID)
	items := 0
	var dir *state.Item
	for i := range n {
		if i%100 == 0 {
			dir = mk("folder", fmt.Sprintf("d%05d", i/100), top.ID)
			items++
		}
		mk("file", fmt.Sprintf("f%06d", i), dir.ID)
		items++
	}
	return top, items
}
