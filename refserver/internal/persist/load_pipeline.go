package persist

import (
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/state"
)

// The records of the kinds that are most of a large state (items, their
// versions, events) are decoded on a goroutine of their own while the
// loading transaction puts the ones decoded before into the state: on two
// cores, decoding and restoring overlap (issue 35: a million items).
// Batches go through in key order, so the state is restored exactly as
// one record after the other would.

// loadBatchLen is how many records a batch of the pipeline holds.
const loadBatchLen = 512

// loadBatch is a batch of records of one kind: their keys and values
// (the values are bbolt's, valid while its transaction is), then, once
// decoded, what puts them into the state.
type loadBatch struct {
	keys  []string
	vals  [][]byte
	apply func(tx *state.Tx) error
}

// decodeBatchOf is KindOf's decodeBatch: it decodes vals (nothing of the
// state is read: it runs off the loading transaction) and returns what
// loads them, in order, into the state, with the error of the first
// record that fails, named as loadTx names it. The records decode into an
// array that, once they are loaded (load has a copy of each), is cleared
// and goes to the next batch: the load, run with the collector off
// (loadgc.go), would otherwise leave a new array of records behind for
// every batch (at a million files 0.6 GB of its garbage).
func decodeBatchOf[R any](bucket string, decode func(*scanner, []byte, *R) error, load func(*state.Tx, string, R) error) func(keys []string, vals [][]byte) func(*state.Tx) error {
	var arrays sync.Pool // of *[]R, cleared
	return func(keys []string, vals [][]byte) func(*state.Tx) error {
		rs, _ := arrays.Get().(*[]R)
		if rs == nil || cap(*rs) < len(vals) {
			a := make([]R, len(vals))
			rs = &a
		}
		*rs = (*rs)[:len(vals)]
		var errs []error
		s := new(scanner) // one for the batch: records share what repeats
		for i, b := range vals {
			if err := decode(s, b, &(*rs)[i]); err != nil {
				if errs == nil {
					errs = make([]error, len(vals))
				}
				errs[i] = err
			}
		}
		return func(tx *state.Tx) error {
			defer func() {
				clear(*rs)
				arrays.Put(rs)
			}()
			for i, key := range keys {
				err := error(nil)
				if errs != nil {
					err = errs[i]
				}
				if err == nil {
					err = load(tx, key, (*rs)[i])
				}
				if err != nil {
					return fmt.Errorf("refserver: state record %s/%s: %w", bucket, key, err)
				}
			}
			return nil
		}
	}
}

// loadPipelined loads the records of b, of kind k (which has a
// decodeBatch), decoding them on another goroutine a batch ahead.
func loadPipelined(tx *state.Tx, k Kind, b *bolt.Bucket) error {
	work := make(chan *loadBatch, 2)
	ready := make(chan *loadBatch, 2)
	go func() {
		defer close(ready)
		for bt := range work {
			bt.apply = k.decodeBatch(bt.keys, bt.vals)
			ready <- bt
		}
	}()
	var err error
	apply := func(bt *loadBatch) {
		if err == nil {
			err = bt.apply(tx)
		}
	}
	c := b.Cursor()
	key, val := c.First()
	for key != nil && err == nil {
		bt := &loadBatch{keys: make([]string, 0, loadBatchLen), vals: make([][]byte, 0, loadBatchLen)}
		for ; key != nil && len(bt.keys) < loadBatchLen; key, val = c.Next() {
			bt.keys = append(bt.keys, string(key))
			bt.vals = append(bt.vals, val)
		}
		for sent := false; !sent; { // restore what is decoded while the goroutine is busy
			select {
			case work <- bt:
				sent = true
			case r := <-ready:
				apply(r)
			}
		}
	}
	close(work)
	for r := range ready { // every batch, even after an error: the goroutine ends
		apply(r)
	}
	return err
}
