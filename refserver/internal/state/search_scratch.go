package state

import (
	"io"
	"iter"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// docScratch is where newDoc gathers the words and pairs of an item's
// texts, kept from one item to the next of a batch: indexing an item
// allocates its document and little else (the indexer's garbage is what
// the collector works through while searches run after bulk writes).
type docScratch struct {
	at    map[string]int         // a word's index in words
	words []docWord              // the words in the order first met
	pairs map[uint64]SearchField // pairs' keys without their low bits
	prev  []byte                 // contentWords: the word before
	lower []byte                 // contentWords: a word lower-cased
	limit io.LimitedReader       // contentWords: the content's first maxIndexedContent bytes
}

// docScratches are the scratches of the drains (and of PutName). A
// pooled scratch's maps keep the size of the largest item it held, until
// the pool lets it go.
var docScratches = sync.Pool{New: func() any {
	return &docScratch{at: map[string]int{}, pairs: map[uint64]SearchField{}}
}}

// reset empties sc for the next item.
func (sc *docScratch) reset() {
	clear(sc.at)
	clear(sc.words)
	sc.words = sc.words[:0]
	clear(sc.pairs)
}

// add notes that the item holds word w in the fields f.
func (sc *docScratch) add(w string, f SearchField) {
	if i, ok := sc.at[w]; ok {
		sc.words[i].fields |= f
		return
	}
	sc.at[w] = len(sc.words)
	sc.words = append(sc.words, docWord{w, f})
}

// addText notes the words of text (SearchWords) and their adjacent pairs
// in the field f.
func (sc *docScratch) addText(x *searchIndex, f SearchField, text string) {
	prev := ""
	for w := range searchWordsIn(strings.ToLower(text)) {
		sc.add(w, f)
		if prev != "" {
			sc.pairs[x.PairKey(prev, w)&^pairFieldMask] |= f
		}
		prev = w
	}
}

// addContent notes that the item's content holds the word b (lower case),
// after the word prev (nil: none). It allocates a string only for a word
// neither the item nor the index holds yet.
func (sc *docScratch) addContent(x *searchIndex, prev, b []byte) {
	if i, ok := sc.at[string(b)]; ok {
		sc.words[i].fields |= FieldContent
	} else {
		w := x.wordOf(b)
		sc.at[w] = len(sc.words)
		sc.words = append(sc.words, docWord{w, FieldContent})
	}
	if prev != nil {
		sc.pairs[x.pairKeyOf(prev, b)&^pairFieldMask] |= FieldContent
	}
}

// wordOf is the word b as a string: the index's own when it holds the
// word, a new one otherwise. Only the drainer changes the index, and it
// calls this: the table needs no lock.
func (x *searchIndex) wordOf(b []byte) string {
	if l := x.postings.get(string(b)); l != nil {
		return l.word
	}
	return string(b)
}

// searchWordsIn yields the words of a lower-cased text as SearchWords
// cuts them, without making their slice.
func searchWordsIn(lower string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1
		for i, r := range lower {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if !yield(lower[start:i]) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield(lower[start:])
		}
	}
}

// lowerWord is strings.ToLower of the word b, in buf when b is ASCII (no
// allocation) and b itself when it has no upper-case letter.
func lowerWord(b []byte, buf *[]byte) []byte {
	upper := false
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return []byte(strings.ToLower(string(b)))
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return b
	}
	out := (*buf)[:0]
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	*buf = out
	return out
}
