package state

import (
	"hash/maphash"
	"unicode/utf8"
)

// foldKey is the case-folded name (FoldName) the item is filed under:
// an ASCII name's is its lower case, the string it is sorted by (no
// string of its own); another's is made when asked for (a slot held it:
// 16 bytes in every item for the few names that are not ASCII).
func (sl *itemSlot) foldKey() string {
	if isASCII(sl.name) {
		return sl.lower
	}
	return FoldName(sl.name)
}

// foldKeyer keys a folder index's byName: the case-folded name an item is
// filed under (foldKey). A probe of a name that is not ASCII compares and
// hashes its fold rune by rune, without making it.
type foldKeyer struct{}

func (foldKeyer) key(it *Item) string { return it.slot.foldKey() }

func (foldKeyer) hash(fold string) uint64 { return maphash.String(itemHashSeed, fold) }

func (foldKeyer) has(it *Item, fold string) bool {
	if isASCII(it.slot.name) {
		return it.slot.lower == fold
	}
	return foldEqual(it.slot.name, fold)
}

func (foldKeyer) hashOf(it *Item) uint64 {
	if isASCII(it.slot.name) {
		return maphash.String(itemHashSeed, it.slot.lower)
	}
	return foldHash(it.slot.name)
}

// foldEqual reports whether FoldName(name) == fold.
func foldEqual(name, fold string) bool {
	for _, r := range name {
		f, size := utf8.DecodeRuneInString(fold)
		if size <= 1 && f == utf8.RuneError || f != foldRune(r) { // FoldName writes valid UTF-8 only
			return false
		}
		fold = fold[size:]
	}
	return fold == ""
}

// foldHash is maphash.String(itemHashSeed, FoldName(name)): a Hash of the
// pieces is the hash of their concatenation.
func foldHash(name string) uint64 {
	var h maphash.Hash
	h.SetSeed(itemHashSeed)
	var buf [utf8.UTFMax]byte
	for _, r := range name {
		h.Write(utf8.AppendRune(buf[:0], foldRune(r)))
	}
	return h.Sum64()
}
