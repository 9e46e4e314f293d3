package state

import "testing"

// BenchmarkItemEventSources renders and encodes the two sources an item
// event keeps (ItemEvent: the item's standard record, the enterprise
// stream's source) for a file two folders down: the work every upload,
// new version, folder creation and download does under the state's lock.
func BenchmarkItemEventSources(b *testing.B) {
	w := newMemWorld(b)
	w.st.Update(func(tx *Tx) {
		d := w.item(tx, "folder", "d1", RootID)
		f := w.item(tx, "file", "f.txt", w.item(tx, "folder", "d2", d.ID).ID)
		b.ReportAllocs()
		for b.Loop() {
			_ = RecordJSON(tx.Standard(f))
			_ = RecordJSON(tx.adminItemSource(f))
		}
	})
}
