package state

import (
	"math"
	"runtime"
	"sync/atomic"
)

// The query index builder (issue 35: the first query that filtered on a
// field built the field's index, about 2 µs an instance, holding the
// state's lock: 0.2–0.6 s at 100,000 instances, again after every
// restart). A server starts it once the state is loaded
// (StartMetadataIndexer) and stops it before it closes
// (StopMetadataIndexer). It registers an empty index for every indexed
// field (IndexedType) of every template with instances, and of a template
// whose schema changed (ResetIndexes), and its goroutine fills them in
// short transactions of indexBuildStep instances each, oldest first: the
// state's lock is held a few milliseconds at a time, and a start answers
// as soon as it did before. The goroutine ends when every index is
// complete, so an idle server has none.
//
// A query never builds: it reads what an index holds and tests the
// instances it does not hold yet (MDTemplate.Unbuilt) as a scan does, so
// a query in the first moments after a start costs at most the scan it
// cost before there were indexes, and less as the builder goes on. The
// builder files instances as they were committed; those created, changed
// or deleted meanwhile are kept in step as usual if they are older than
// where it got (SortIndex.Insert, Remove), and left to it otherwise.
//
// Indexes made while no builder runs (a state of tests, or one whose
// server closed) are built whole on first use (MDTemplate.Index), as
// they were before.

// indexBuildStep is how many instances the builder files in one
// transaction: about 1–3 ms of the state's lock at 0.8–2 µs an
// instance (100,000 instances of a template whose state holds 100,000
// items; 4,096 took 10 ms, for the same total).
const indexBuildStep = 1024

// completeIndex is SortIndex.upTo of a complete index.
const completeIndex = math.MaxInt64

// mdIndexer runs the builder's goroutine; it is the State's, as the
// search indexer is, and the model reaches it (model.mdx) to register
// work from a transaction.
type mdIndexer struct {
	background
	st    *State
	steps atomic.Int64 // transactions the goroutine ran (tests)
}

// StartMetadataIndexer registers an index for every indexed field of
// every template and starts the goroutine that builds them (see above).
func (s *State) StartMetadataIndexer() {
	ix := &s.mdIndexer
	if !ix.enable() {
		return
	}
	s.View(func(tx *ReadTx) {
		for _, t := range tx.Metadata.Order {
			t.registerIndexes(false)
		}
		ix.kick()
	})
}

// StopMetadataIndexer stops the builder's goroutine and waits for it to
// end. The indexes it had not finished are finished on first use
// (MDTemplate.Index, QueryIndex build once no builder runs). Safe to call
// more than once.
func (s *State) StopMetadataIndexer() {
	ix := &s.mdIndexer
	ix.stop() // run sees it at its next step
	ix.wait()
	s.View(func(tx *ReadTx) {
		for _, t := range tx.Metadata.Order {
			for f, x := range t.Sorted {
				if !x.Complete() {
					delete(t.Sorted, f) // QueryIndex builds it whole
				}
			}
		}
	})
}

// MetadataIndexerSteps is the number of transactions the builder has run
// (tests).
func (s *State) MetadataIndexerSteps() int {
	return int(s.mdIndexer.steps.Load())
}

// kick starts the builder's goroutine unless it runs, is not started, or
// is stopped. It is called within a transaction.
func (ix *mdIndexer) kick() { ix.background.kick(ix.run) }

// run builds a step at a time until every index is complete or the
// builder stops.
func (ix *mdIndexer) run() {
	for {
		done := false
		ix.st.View(func(tx *ReadTx) {
			done = ix.stopped() || !tx.BuildIndexStep(indexBuildStep)
			ix.steps.Add(1)
			if done {
				ix.idle() // within the transaction: a later registration kicks again
			}
		})
		if done {
			return
		}
		runtime.Gosched() // let waiting requests take the lock between steps
	}
}

// BuildIndexStep files up to n instances in the first index not complete
// (a cache: a read transaction may fill it), one a query has asked for
// first (Unbuilt); false when all are complete. It is the builder's step;
// tests take a few to see indexes midway.
func (s *ReadTx) BuildIndexStep(n int) bool {
	for _, asked := range []bool{true, false} {
		for _, t := range s.Metadata.Order {
			for _, f := range t.Fields {
				if x := t.Sorted[f.Key]; x != nil && !x.Complete() && (x.asked || !asked) {
					t.buildSome(x, n)
					return true
				}
			}
		}
	}
	return false
}

// registerIndexes gives every indexed field of t an index (empty, for the
// builder to fill) unless it has one; with reset, the existing ones are
// dropped first (their field keys or values changed). A template without
// instances gets complete (empty) indexes: its instances are filed as
// they come.
func (t *MDTemplate) registerIndexes(reset bool) {
	if reset || t.Sorted == nil {
		t.Sorted = make(map[string]*SortIndex)
	}
	upTo := int64(0)
	if len(t.BySeq) == 0 {
		upTo = completeIndex
	}
	for _, f := range t.Fields {
		if IndexedType(f.Typ) && t.Sorted[f.Key] == nil {
			t.Sorted[f.Key] = newSortIndex(f.Key, upTo)
		}
	}
}

// ResetIndexes drops the query indexes of t (after a schema update: its
// field keys or values may have changed) and, with a builder running,
// registers new ones for it to build; without one, they are built on
// first use.
func (s *Tx) ResetIndexes(t *MDTemplate) {
	t.Sorted = nil
	if s.mdx.isOn() {
		t.registerIndexes(true)
		s.mdx.kick()
	}
}
