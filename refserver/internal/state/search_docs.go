package state

import "hash/maphash"

// docTable is the index's documents by item: an open-addressing hash
// table (linear probing) of the items' ordinals, byOrd holding each
// ordinal's item and document — 4 bytes a slot and no pointer, where a
// map[*Item]*SearchDoc took 16 bytes a slot and its slack, all of it
// scanned by the collector (~37 MB at a million items).
type docTable struct {
	seed  maphash.Seed
	slots []uint32 // a power of two long (or empty): an ordinal+1; 0: free
	n     int
}

func newDocTable() docTable { return docTable{seed: maphash.MakeSeed()} }

// home is the slot where it's probe starts.
func (t *docTable) home(it *Item) int {
	return int(maphash.Comparable(t.seed, it) & uint64(len(t.slots)-1))
}

// get is it's ordinal, if the table holds it; by is the index's byOrd.
func (t *docTable) get(it *Item, by []ordItem) (docOrd, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.home(it); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if by[s-1].it == it {
			return docOrd(s - 1), true
		}
	}
}

// add files the ordinal o, whose item (by[o].it) the table does not
// hold. The table grows at three quarters full.
func (t *docTable) add(o docOrd, by []ordItem) {
	if (t.n+1)*4 > len(t.slots)*3 {
		old := t.slots
		t.slots = make([]uint32, max(8, 2*len(old)))
		for _, s := range old {
			if s != 0 {
				t.file(s, by)
			}
		}
	}
	t.file(uint32(o)+1, by)
	t.n++
}

// file puts the slot value s (an ordinal+1) in the first free slot of
// its item's probe.
func (t *docTable) file(s uint32, by []ordItem) {
	mask := len(t.slots) - 1
	i := t.home(by[s-1].it)
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// remove takes it out, if the table holds it, while by still names it.
// The ordinals after it in its probe run move back into the gap where
// their own probes would reach it, so no slot is ever a tombstone.
func (t *docTable) remove(it *Item, by []ordItem) {
	if t.n == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.home(it)
	for ; t.slots[i] == 0 || by[t.slots[i]-1].it != it; i = (i + 1) & mask {
		if t.slots[i] == 0 {
			return
		}
	}
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		// The ordinal at j may fill the gap at i unless its home lies
		// cyclically in (i, j]: its probe would not pass i.
		k := t.home(by[t.slots[j]-1].it)
		if i <= j && (k <= i || k > j) || i > j && k <= i && k > j {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
	t.n--
}
