package refserver

import (
	"fmt"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
)

// benchFill adds items to a benchmark's server in one transaction,
// through the state (a large state without the API's cost), as the
// admin, at a fixed time.
type benchFill struct {
	tx  *state.Tx
	now time.Time
}

// filledServer is an in-process server (closed at the benchmark's end)
// that fill has filled.
func filledServer(b *testing.B, fill func(f *benchFill)) *Server {
	b.Helper()
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	tx, end := beginTx(s.st)
	defer end()
	fill(&benchFill{tx: tx, now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	return s
}

// folder adds a folder named name in parent and returns its id.
func (f *benchFill) folder(name, parent string) string {
	tx := f.tx
	id := tx.NewID()
	tx.AddItem(&state.Item{Typ: "folder", ID: id, Name: name, ParentID: parent,
		Owner: tx.Admin, CreatedBy: tx.Admin, ModBy: tx.Admin, CreatedAt: f.now, ModifiedAt: f.now})
	return id
}

// file adds a file named name in parent, of one version of size bytes
// (its SHA1 made of seq), modified modified after the fill's time, and
// returns its id.
func (f *benchFill) file(name, parent string, size int64, seq int, modified time.Duration) string {
	tx := f.tx
	content := blob.RefOf(BlobInfo{ID: blob.NewID(), Size: size, SHA1: fmt.Sprintf("%040x", seq)})
	id := tx.NewID()
	tx.AddItem(&state.Item{Typ: "file", ID: id, Name: name, ParentID: parent,
		Owner: tx.Admin, CreatedBy: tx.Admin, ModBy: tx.Admin, CreatedAt: f.now, ModifiedAt: f.now.Add(modified),
		Versions: []*state.Version{state.NewVersion(tx.NewID(), content, f.now, tx.Admin)}})
	return id
}
