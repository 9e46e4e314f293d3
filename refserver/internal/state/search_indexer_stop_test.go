package state

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// deafStore is a store whose Open does not look at its context (as a
// store reading from the database does): the first Open waits until the
// context is done, then every Open returns a small text.
type deafStore struct {
	blob.Store
	opened chan struct{} // closed at the first Open
	once   sync.Once
	mu     sync.Mutex
	opens  int
}

func (d *deafStore) Open(ctx context.Context, id string) (io.ReadSeekCloser, error) {
	d.mu.Lock()
	d.opens++
	d.mu.Unlock()
	d.once.Do(func() {
		close(d.opened)
		<-ctx.Done()
	})
	return nopSeekCloser{strings.NewReader("some words")}, nil
}

type nopSeekCloser struct{ *strings.Reader }

func (nopSeekCloser) Close() error { return nil }

// TestStopSearchIndexerDropsTheBatchInFlight: a stop ends the indexer
// within the item it is on, though the store goes on reading: the rest
// of its batch and the batches after it stay queued (a restored server
// queued every item, and its stop waited for the indexer to index them
// all).
func TestStopSearchIndexerDropsTheBatchInFlight(t *testing.T) {
	store := &deafStore{Store: blob.NewMemory(), opened: make(chan struct{})}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	st, err := NewMemory(&Env{Now: func() time.Time { return now }, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	const files = 3 * searchBatch
	st.Update(func(tx *Tx) {
		u := tx.User
		for i := range files {
			it := &Item{Typ: "file", ID: tx.NewID(), Name: fmt.Sprintf("f%d.txt", i), ParentID: RootID, Owner: u, CreatedBy: u, ModBy: u, CreatedAt: now, ModifiedAt: now}
			it.Versions = []*Version{NewVersion(tx.NewID(), blob.RefOf(blob.Info{ID: "b" + it.ID, Size: 10}), now, u)}
			tx.AddItem(it)
		}
	})
	st.StartSearchIndexer()
	<-store.opened
	st.StopSearchIndexer()
	store.mu.Lock()
	opens := store.opens
	store.mu.Unlock()
	if opens != 1 {
		t.Errorf("the store was opened %d times after the stop began; want 1 (the read in flight)", opens)
	}
	queued := false
	st.View(func(tx *ReadTx) { queued = tx.Search.queue.queued() })
	if !queued {
		t.Error("the stopped indexer indexed everything")
	}
}
