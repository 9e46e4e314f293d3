package state

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRecentItemsKeepTheNewest: past the cap, each interaction drops the
// user's oldest entry, whatever order entries were filed and re-noted in
// (a restore files them in key order), as a walk of the entries would.
func TestRecentItemsKeepTheNewest(t *testing.T) {
	w := newMemWorld(t)
	r := rand.New(rand.NewPCG(5, 6))
	w.st.Update(func(tx *Tx) {
		u := tx.User
		items := make([]*Item, recentItemsMax+300)
		for i := range items {
			items[i] = &Item{Typ: "file", ID: tx.NewID()}
		}
		// A restored state: entries filed out of Seq order.
		for _, i := range r.Perm(recentItemsMax) {
			tx.AddRecentItem(&RecentItem{User: u, ItemID: items[i].ID, Interaction: InteractionOpen, At: w.now, Seq: int64(i + 1)})
		}
		tx.Recent.Seq = recentItemsMax
		// The model: item ids by last interaction, newest last.
		model := make([]string, recentItemsMax)
		for i := range model {
			model[i] = items[i].ID
		}
		for range 5000 {
			it := items[r.IntN(len(items))]
			tx.noteInteraction(u, it, InteractionOpen)
			model = slices.DeleteFunc(model, func(id string) bool { return id == it.ID })
			model = append(model, it.ID)
			if len(model) > recentItemsMax {
				model = model[1:]
			}
			if got := len(tx.Recent.ByUser[u.ID]); got != len(model) {
				t.Fatalf("%d entries, want %d", got, len(model))
			}
		}
		got := slices.Collect(func(yield func(string) bool) {
			for id := range tx.Recent.ByUser[u.ID] {
				if !yield(id) {
					return
				}
			}
		})
		slices.Sort(got)
		want := slices.Clone(model)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("kept entries differ from the newest %d", recentItemsMax)
		}
		if q := tx.Recent.order[u.ID]; len(q) > 2*recentItemsMax+64+1 {
			t.Errorf("the order holds %d entries for %d", len(q), recentItemsMax)
		}
	})
}
