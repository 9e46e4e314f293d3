package state

import "hash/maphash"

// docTable is the index's documents by item: the items' ordinals in an
// idHash, byOrd holding each ordinal's item and document — 4 bytes a slot
// and no pointer, where a map[*Item]*SearchDoc took 16 bytes a slot and
// its slack, all of it scanned by the collector (~37 MB at a million
// items).
type docTable struct {
	seed maphash.Seed
	idHash[*Item, docKeyer]
}

func newDocTable() docTable { return docTable{seed: maphash.MakeSeed()} }

// docKeyer reads an ordinal's item from the index's byOrd.
type docKeyer struct {
	seed maphash.Seed
	by   []ordItem
}

func (k docKeyer) hash(it *Item) uint64        { return maphash.Comparable(k.seed, it) }
func (k docKeyer) hashOf(o uint32) uint64      { return k.hash(k.by[o].it) }
func (k docKeyer) has(o uint32, it *Item) bool { return k.by[o].it == it }

// get is it's ordinal, if the table holds it; by is the index's byOrd.
func (t *docTable) get(it *Item, by []ordItem) (docOrd, bool) {
	o, ok := t.find(it, docKeyer{t.seed, by})
	return docOrd(o), ok
}

// add files the ordinal o, whose item (by[o].it) the table does not
// hold.
func (t *docTable) add(o docOrd, by []ordItem) { t.idHash.add(uint32(o), docKeyer{t.seed, by}) }

// remove takes it out, if the table holds it, while by still names it.
func (t *docTable) remove(it *Item, by []ordItem) { t.idHash.remove(it, docKeyer{t.seed, by}) }
