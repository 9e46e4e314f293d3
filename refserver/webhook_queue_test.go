package refserver

import (
	"bytes"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestWebhookQueueBytesBound: the payloads the queue holds never pass
// its byte bound, however many deliveries come: the oldest not in flight
// go first, a payload larger than the bound alone is dropped, and every
// drop is counted.
func TestWebhookQueueBytesBound(t *testing.T) {
	release := make(chan struct{})
	var wg sync.WaitGroup
	q := &hookQueue{slots: 1, maxCount: 1 << 20, maxBytes: 10 << 10, retryDelay: time.Hour, maxRetries: 1,
		send: func(*delivery) attemptResult { <-release; return attemptDone },
		wg:   &wg, log: slog.New(slog.DiscardHandler), owners: map[string]*hookOwner{}}
	const n = 1000
	for i := range n {
		q.add(&delivery{hookID: fmt.Sprint(i), owner: fmt.Sprint(i % 3), body: bytes.Repeat([]byte("x"), 1<<10)})
		if st := q.stats(); st.Bytes > 10<<10 {
			t.Fatalf("after %d deliveries the queue holds %d bytes", i+1, st.Bytes)
		}
	}
	q.add(&delivery{hookID: "huge", owner: "0", body: make([]byte, 11<<10)})
	st := q.stats()
	if st.Queued != 10 || st.Dropped != n+1-10 {
		t.Fatalf("%+v, want 10 queued and %d dropped", st, n+1-10)
	}
	q.mu.Lock()
	var kept []string
	for e := q.all.Front(); e != nil; e = e.Next() {
		kept = append(kept, e.Value.(*delivery).hookID)
	}
	q.mu.Unlock()
	if kept[0] != "0" || kept[1] != fmt.Sprint(n-9) || kept[9] != fmt.Sprint(n-1) {
		t.Fatalf("kept %v: want the one in flight and the newest", kept)
	}
	close(release)
	wg.Wait()
	if st := q.stats(); st.Queued != 0 || st.Bytes != 0 {
		t.Fatalf("%+v after every delivery was taken", st)
	}
}

// TestWebhookQueueMemoryBound: 20,000 deliveries of 4 KiB to a receiver
// that refuses them all (80 MB of payloads, each waiting hours for its
// retries) grow the heap by about the queue's byte bound, not by their
// sum.
func TestWebhookQueueMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	// The heap is shared with whatever earlier tests left running, so a
	// reading can be high by their live objects: the bound holds when one
	// of three fills stays within it.
	const n, size = 20_000, 4 << 10
	var grown int64
	for range 3 {
		var wg sync.WaitGroup
		q := &hookQueue{slots: 8, maxCount: DefaultWebhookQueueLimit, maxBytes: 8 << 20, retryDelay: time.Hour, maxRetries: maxWebhookRetries,
			send: func(*delivery) attemptResult { return attemptFailed },
			wg:   &wg, log: slog.New(slog.DiscardHandler), owners: map[string]*hookOwner{}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range n {
			q.add(&delivery{hookID: fmt.Sprint(i), owner: fmt.Sprint(i % 7), body: bytes.Repeat([]byte{'x'}, size)})
		}
		wg.Wait()
		runtime.GC()
		runtime.ReadMemStats(&after)
		grown = int64(after.HeapAlloc) - int64(before.HeapAlloc)
		st := q.stats()
		t.Logf("%d queued (%d bytes), %d dropped; heap grew %d bytes", st.Queued, st.Bytes, st.Dropped, grown)
		if st.Bytes > 8<<20 {
			t.Fatalf("queue holds %d bytes for an 8 MiB bound", st.Bytes)
		}
		q.close()
		if grown <= 16<<20 {
			return
		}
	}
	t.Fatalf("the heap grew %d bytes for an 8 MiB bound", grown)
}
