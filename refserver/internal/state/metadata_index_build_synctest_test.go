//go:build go1.25

package state

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"testing/synctest"
)

// TestMetadataIndexerBuilds: the builder fills an index for every indexed
// field of a template in steps, in the background (no query builds), and
// again after ResetIndexes; an index it holds midway is kept in step by
// creates, updates and deletes (older instances in the index, newer ones
// left to the builder) and ends equal to a sort of every instance; once
// the builder stops, indexes are built whole on first use.
func TestMetadataIndexerBuilds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newMemWorld(t)
		r := rand.New(rand.NewPCG(3, 5))
		n := 2*indexBuildStep + 100 // three steps a field
		var tmpl *MDTemplate
		var items []*Item
		values := func() map[string]MDVal {
			v := r.IntN(500)
			m := map[string]MDVal{"amount": {Kind: ValNumber, S: strconv.Itoa(v), F: float64(v)},
				"tags": {Kind: ValList, List: []string{"a"}}}
			if r.IntN(5) > 0 {
				m["customer"] = MDVal{Kind: ValString, S: fmt.Sprintf("C%03d", r.IntN(300))}
			}
			return m
		}
		w.st.Update(func(tx *Tx) {
			tmpl = &MDTemplate{Scope: tx.EnterpriseScope(), Key: "contract", Fields: []*MDField{
				{Key: "customer", Typ: FieldString}, {Key: "amount", Typ: FieldFloat}, {Key: "tags", Typ: FieldMultiSelect}}}
			tx.AddTemplate(tmpl)
			for i := range n {
				it := w.item(tx, "file", fmt.Sprintf("f%d", i), RootID)
				items = append(items, it)
				tx.AddInstance(tmpl, it, values())
			}
		})
		// As a start leaves it: no indexes; the builder registers them.
		w.st.StartMetadataIndexer()
		t.Cleanup(w.st.StopMetadataIndexer)
		synctest.Wait()
		check := func(why string) {
			t.Helper()
			w.st.View(func(tx *ReadTx) {
				if tmpl.Sorted["tags"] != nil {
					t.Fatalf("%s: a multiSelect field has an index", why)
				}
				for _, f := range []string{"customer", "amount"} {
					x := tmpl.Sorted[f]
					if x == nil || !x.Complete() {
						t.Fatalf("%s: %s not built", why, f)
					}
					want := slices.Clone(tmpl.BySeq)
					slices.SortFunc(want, func(a, b *MDInstance) int {
						va, aok := a.Values.Get(f)
						vb, bok := b.Values.Get(f)
						return cmp.Or(CmpPresent(va, aok, vb, bok), cmp.Compare(a.Seq, b.Seq))
					})
					var got []*MDInstance
					x.Walk(nil, false, func(in *MDInstance) bool { got = append(got, in); return true })
					if !slices.Equal(got, want) {
						t.Fatalf("%s: index of %s holds %d instances, not the %d in order", why, f, len(got), len(want))
					}
				}
			})
		}
		check("after the start")
		if steps := w.st.MetadataIndexerSteps(); steps < 6 {
			t.Fatalf("%d steps for two fields of %d instances", steps, n)
		}

		// Midway: changes to instances on both sides of where it got.
		w.st.Update(func(tx *Tx) {
			tx.ResetIndexes(tmpl)
			tmpl.Unbuilt(tmpl.Sorted["amount"]) // a query asked: amount goes first
			tx.BuildIndexStep(10)
			if a, c := tmpl.Sorted["amount"].Len(), tmpl.Sorted["customer"].Len(); a != 10 || c != 0 {
				t.Fatalf("after a query asked for amount: %d of amount built, %d of customer", a, c)
			}
			for tx.BuildIndexStep(indexBuildStep) && !tmpl.Sorted["amount"].Complete() {
			}
			tx.BuildIndexStep(indexBuildStep + 1) // customer: one step and one instance
			if x := tmpl.Sorted["customer"]; x.Complete() || x.Len() != indexBuildStep+1 || len(tmpl.Unbuilt(x)) != n-indexBuildStep-1 {
				t.Fatalf("customer midway: %d in the index, %d not", x.Len(), len(tmpl.Unbuilt(x)))
			}
			for range 500 {
				it := items[r.IntN(len(items))]
				in := tmpl.Instances[tx.Items.Ref(it)]
				switch {
				case in == nil:
					tx.AddInstance(tmpl, it, values())
				case r.IntN(3) == 0:
					tx.RemoveInstance(in)
				default:
					tx.SetInstanceValues(in, values())
				}
			}
		})
		synctest.Wait()
		check("after changes midway")

		// Stopped: a reset leaves the indexes to their first use.
		w.st.StopMetadataIndexer()
		w.st.Update(func(tx *Tx) {
			tx.ResetIndexes(tmpl)
			if tmpl.Sorted != nil {
				t.Fatal("a stopped builder was given indexes")
			}
			if x := tmpl.QueryIndex("amount"); !x.Complete() || x.Len() != len(tmpl.BySeq) {
				t.Fatalf("QueryIndex without a builder: %d of %d", x.Len(), len(tmpl.BySeq))
			}
		})
	})
}

// TestHelpBuild: a query reading an index midway files a share of what
// it lacks (a step, at most half of the rest) and marks it asked.
func TestHelpBuild(t *testing.T) {
	w := newMemWorld(t)
	w.st.Update(func(tx *Tx) {
		tmpl := &MDTemplate{Scope: tx.EnterpriseScope(), Key: "contract", Fields: []*MDField{{Key: "code", Typ: FieldString}}}
		tx.AddTemplate(tmpl)
		n := 3*indexBuildStep - 100
		for i := range n {
			tx.AddInstance(tmpl, w.item(tx, "file", fmt.Sprintf("f%d", i), RootID), map[string]MDVal{"code": {Kind: ValString, S: strconv.Itoa(i % 7)}})
		}
		tmpl.registerIndexes(true)
		x := tmpl.Sorted["code"]
		for _, want := range []int{indexBuildStep, indexBuildStep + (n-indexBuildStep)/2} {
			tmpl.HelpBuild(x)
			if x.Len() != want || !x.asked {
				t.Fatalf("after help: %d filed (want %d), asked %v", x.Len(), want, x.asked)
			}
		}
		for range 20 {
			tmpl.HelpBuild(x)
		}
		if x.Complete() || len(tmpl.unbuilt(x)) != 1 {
			t.Fatalf("queries alone left %d unbuilt (complete %v): the last is the builder's", len(tmpl.unbuilt(x)), x.Complete())
		}
	})
}
