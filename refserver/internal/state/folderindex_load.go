package state

import (
	"cmp"
	"iter"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/btree"
)

// SyncAll files every item of items where it belongs, as Sync does one by
// one, in bulk: a restore files every item at once (internal/persist's
// VersionsLoaded). The items of each new index are sorted in each order
// and loaded into its B-trees in that order (appends, no search or
// split in the middle of a node), not inserted one by one. An item
// already filed, or filed in an index that held items before, goes
// through Sync.
func (x *folderIndexes) SyncAll(items iter.Seq2[string, *Item]) {
	var (
		fresh   []*folderIndex // new indexes, each with its items in filing
		lastKey IndexKey       // consecutive items are mostly in one folder
		lastFx  *folderIndex
		// pending is what the items filed in each new index add to its
		// size, added (and carried up) once every item is filed: a
		// folder's items may come before the folder.
		pending map[*folderIndex]int64
	)
	for _, it := range items {
		key, listed := Placement(it)
		if !listed || it.slot.home != nil {
			x.Sync(it)
			continue
		}
		fx := lastFx
		if fx == nil || key != lastKey {
			fx = x.M[key]
		}
		if fx != nil && fx.filing == nil {
			x.Sync(it) // an index from before
			continue
		}
		if x.changed != nil {
			x.changed(it, it.slot, key, listed)
		}
		if fx == nil {
			fx = newFolderIndex(key)
			x.M[key] = fx
			fresh = append(fresh, fx)
		}
		lastKey, lastFx = key, fx
		it.slot = slotFor(it)
		it.slot.home = fx
		it.index = x
		fx.fileName(it)
		fx.count++
		fx.filing = append(fx.filing, it)
		if size := x.sizeOf(it); size != 0 {
			if pending == nil {
				pending = map[*folderIndex]int64{}
			}
			pending[fx] += size
		}
		if key.Folder == TrashKey {
			if x.TrashAll == nil {
				x.TrashAll = newFolderIndex(IndexKey{})
			}
			x.TrashAll.add(it)
		}
	}
	for _, fx := range fresh {
		if size := pending[fx]; size != 0 {
			x.grow(fx, fx.key, size)
		}
	}
	folders := make([]string, len(fresh))
	for i, fx := range fresh {
		folders[i] = fx.key.Folder
	}
	loadIndexes(fresh)
	if x.reshaped != nil {
		for _, folder := range folders {
			x.reshaped(folder)
		}
	}
}

// loadIndexes fills the B-trees of the fresh indexes from their filing
// (load), on as many goroutines as the process has processors: each
// index is its own (its trees, its filing), and the items' slots are only
// read, so the indexes load side by side (a restore of a million items
// files them in a thousand folders: the sorts and loads were a third of
// SyncAll's time on one core).
func loadIndexes(fresh []*folderIndex) {
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < len(fresh); i = int(next.Add(1) - 1) {
			fx := fresh[i]
			filed := fx.filing
			fx.filing = nil
			fx.load(filed)
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(fresh)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// load fills the B-trees of fx, empty, with filed (filed in fx's byName
// already), each order's sorted first.
func (fx *folderIndex) load(filed []*Item) {
	var byRank [3][]*Item
	for _, it := range filed {
		byRank[it.slot.rank] = append(byRank[it.slot.rank], it)
	}
	for rank, its := range byRank {
		for k, cmp := range slotCmp {
			slices.SortFunc(its, cmp)
			loadFull(fx.orders[k][rank], its)
		}
	}
}

// leafRun is the items of a full B-tree leaf and the separator after it:
// tidwall/btree's default degree (32) holds at most 63 items a node.
const leafRun = 64

// loadFull fills tr, empty, with its, sorted, in leaves nearly full.
// tidwall/btree's Load appends to the last leaf and, when it is full,
// splits it in halves: loaded in order, every leaf but the last is left
// half full, its 31 items in an array of room for 64 (at a million items
// the folder indexes' trees were ~70 MB). So the items are loaded in two
// passes over runs of leafRun: first each run's first 31 items and its
// last (which a split sends up as the separator: a leaf then holds the 31,
// and the full leaf splits exactly there), then the other 32 of each run,
// set into their leaf, which takes them in the room it has (63 items in
// an array of 64). How full the leaves are depends on the library's
// splitting; the tree is right whatever it does (Load falls back to a
// search for an item out of order, Set finds its place).
func loadFull(tr *btree.BTreeG[*Item], its []*Item) {
	const half = leafRun/2 - 1 // the items a split leaves in a leaf: 31
	runs := len(its) / leafRun
	for r := range runs {
		run := its[r*leafRun : (r+1)*leafRun]
		for _, it := range run[:half] {
			tr.Load(it)
		}
		tr.Load(run[leafRun-1])
	}
	for _, it := range its[runs*leafRun:] {
		tr.Load(it)
	}
	var hint btree.PathHint
	for r := range runs {
		for _, it := range its[r*leafRun+half : (r+1)*leafRun-1] {
			tr.SetHint(it, &hint)
		}
	}
}

// slotCmp are the orders of slotLess as comparisons (for sorting).
var slotCmp = [len(SortKeys)]func(a, b *Item) int{
	func(a, b *Item) int {
		if c := strings.Compare(a.slot.lower, b.slot.lower); c != 0 {
			return c
		}
		return cmp.Compare(a.slot.id, b.slot.id)
	},
	func(a, b *Item) int {
		if c := dateCmp(&a.slot, &b.slot); c != 0 {
			return c
		}
		return cmp.Compare(a.slot.id, b.slot.id)
	},
	func(a, b *Item) int {
		if c := cmp.Compare(a.slot.size, b.slot.size); c != 0 {
			return c
		}
		return cmp.Compare(a.slot.id, b.slot.id)
	},
	func(a, b *Item) int { return cmp.Compare(a.slot.id, b.slot.id) },
}
