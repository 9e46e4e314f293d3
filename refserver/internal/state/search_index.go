package state

import (
	"bufio"
	"context"
	"hash/maphash"
	"io"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The search index answers GET /search without scanning every item: an
// inverted index from each word to the items that hold it and in which of
// their parts (name, description, tags, the text of text-like files,
// comments), plus, per item, the pairs of adjacent words of each part, so
// that a phrase is checked without the text.
//
// Items are indexed lazily: every change of an item reaches
// folderIndexes.Sync (Item.touch and every place that adds, moves,
// trashes, restores or deletes an item call it), which marks the item
// pending; a search first re-reads the pending items. A change costs a map
// insert, and the content of a file is read once per version.
//
// With Options.SearchIndexDelay (StateConfig.SearchIndexDelay), a change
// waits that long, on the server's clock, before a search re-reads the
// item, as the service indexes new content asynchronously: until then a
// search sees what was indexed before (nothing for a new item, the old
// name for a renamed one). Items restored from a data directory and an
// item that is gone (purged) are not delayed.
//
// The content of a file is indexed when its name has a text extension
// (textExtensions) and only its first maxIndexedContent bytes.

// SearchField is a part of an item a query can match (content_types).
type SearchField uint8

// The parts of an item a query can match, and all of them.
const (
	FieldName SearchField = 1 << iota
	FieldDescription
	FieldTags
	FieldContent
	FieldComments

	AllSearchFields = FieldName | FieldDescription | FieldTags | FieldContent | FieldComments
)

// fieldWeight is how much a word found in the fields f adds to the
// relevance of an item: a name says more about an item than its content.
func fieldWeight(f SearchField) int {
	w := 0
	if f&FieldName != 0 {
		w += 8
	}
	if f&FieldTags != 0 {
		w += 4
	}
	if f&FieldDescription != 0 {
		w += 2
	}
	if f&(FieldContent|FieldComments) != 0 {
		w++
	}
	return w
}

// maxIndexedContent is how much of a text file's content is indexed.
const maxIndexedContent = 1 << 20

// textExtensions are the extensions of files whose content is indexed.
var textExtensions = map[string]bool{
	"txt": true, "md": true, "markdown": true, "csv": true, "tsv": true, "json": true, "xml": true,
	"html": true, "htm": true, "log": true, "yaml": true, "yml": true, "ini": true, "rtf": true,
	"go": true, "js": true, "ts": true, "py": true, "java": true, "c": true, "h": true, "sql": true,
}

// searchIndex is the server's search index, reached only through a transaction.
type searchIndex struct {
	seed     maphash.Seed
	Postings map[string]map[*Item]SearchField
	Docs     map[*Item]*SearchDoc
	pending  map[*Item]time.Time // when each pending item may be indexed (zero: at once)
	// readyAt is when a change made now may be indexed (zero: at once);
	// nil means at once.
	readyAt func() time.Time

	// vocab is the words of Postings, sorted, for prefix matches; it is
	// rebuilt when a search needs it after a word came or went.
	vocab      []string
	vocabStale bool
}

// SearchDoc is what the index holds of one item.
type SearchDoc struct {
	Words map[string]SearchField // every word and the fields it is in
	Pairs map[uint64]SearchField // adjacent word pairs and their fields

	// The content's words and pairs, kept to be reused while the current
	// version stays the same (a rename does not read the content again).
	blobID       string
	contentWords map[string]struct{}
	contentPairs map[uint64]struct{}
}

// NewSearchIndex returns an empty search index.
func NewSearchIndex() *searchIndex {
	return &searchIndex{
		seed:     maphash.MakeSeed(),
		Postings: make(map[string]map[*Item]SearchField),
		Docs:     make(map[*Item]*SearchDoc),
		pending:  make(map[*Item]time.Time),

		vocabStale: true,
	}
}

// InitItemIndexes empties the indexes of items: the folder indexes, and
// the search index and the event log's move and rename detection, which
// hear of every change the folder indexes see.
func (s *Tx) InitItemIndexes() {
	s.Search = NewSearchIndex()
	s.Search.readyAt = func() time.Time {
		if s.Cfg.SearchIndexDelay <= 0 || !s.EventsOn { // restored items were indexed long ago
			return time.Time{}
		}
		return s.Now().Add(s.Cfg.SearchIndexDelay)
	}
	s.Folders = folderIndexes{M: make(map[IndexKey]*folderIndex), changed: func(it *Item, from itemSlot, to IndexKey, listed bool) {
		s.Search.changed(it)
		if s.EventsOn {
			s.running.itemFiled(it, from, to, listed) // not s: a later transaction's outbox
		}
	}, reshaped: func(folder string) {
		if s.Persist != nil {
			s.Persist.ListingChanged(folder)
		}
	}}
}

// changed marks an item to be indexed anew before the next search (or
// the first one after the index delay).
func (x *searchIndex) changed(it *Item) {
	var at time.Time
	if x.readyAt != nil {
		at = x.readyAt()
	}
	x.pending[it] = at
}

// PairKey is the key of two adjacent words.
func (x *searchIndex) PairKey(a, b string) uint64 {
	var h maphash.Hash
	h.SetSeed(x.seed)
	h.WriteString(a)
	h.WriteByte(0)
	h.WriteString(b)
	return h.Sum64()
}

// FlushSearchIndex indexes the pending items (reading the content of text
// files from the store), so a search sees every change, but those still
// within the index delay.
func (s *Tx) FlushSearchIndex(ctx context.Context) {
	x := s.Search
	var now time.Time
	for it, at := range x.pending {
		if s.Items.At(it.Typ, it.ID) != it {
			delete(x.pending, it)
			x.drop(it)
			continue
		}
		if !at.IsZero() {
			if now.IsZero() {
				now = s.Now()
			}
			if now.Before(at) {
				continue
			}
		}
		delete(x.pending, it)
		s.indexItem(ctx, it)
	}
}

// drop removes an item from the index.
func (x *searchIndex) drop(it *Item) {
	d := x.Docs[it]
	if d == nil {
		return
	}
	for w := range d.Words {
		x.unpost(w, it)
	}
	delete(x.Docs, it)
}

func (x *searchIndex) unpost(w string, it *Item) {
	if p := x.Postings[w]; p != nil {
		delete(p, it)
		if len(p) == 0 {
			delete(x.Postings, w)
			x.vocabStale = true
		}
	}
}

// indexItem indexes an item's current texts, replacing what was indexed.
func (s *Tx) indexItem(ctx context.Context, it *Item) {
	x := s.Search
	old := x.Docs[it]
	d := &SearchDoc{Words: make(map[string]SearchField), Pairs: make(map[uint64]SearchField)}
	add := func(f SearchField, text string) {
		words := SearchWords(text)
		for i, w := range words {
			d.Words[w] |= f
			if i > 0 {
				d.Pairs[x.PairKey(words[i-1], w)] |= f
			}
		}
	}
	add(FieldName, it.Name)
	add(FieldDescription, it.Description)
	for _, t := range it.Tags {
		add(FieldTags, t)
	}
	for _, c := range s.commentTexts(it) {
		add(FieldComments, c)
	}
	if it.Typ == "file" && textExtensions[fileExtension(it.Name)] {
		blob := it.Current().Blob.ID
		if old != nil && old.blobID == blob {
			d.blobID, d.contentWords, d.contentPairs = blob, old.contentWords, old.contentPairs
		} else {
			d.blobID = blob
			d.contentWords, d.contentPairs = s.contentWords(ctx, blob)
		}
		for w := range d.contentWords {
			d.Words[w] |= FieldContent
		}
		for p := range d.contentPairs {
			d.Pairs[p] |= FieldContent
		}
	}
	if old != nil {
		for w := range old.Words {
			if _, still := d.Words[w]; !still {
				x.unpost(w, it)
			}
		}
	}
	for w, f := range d.Words {
		p := x.Postings[w]
		if p == nil {
			p = make(map[*Item]SearchField)
			x.Postings[w] = p
			x.vocabStale = true
		}
		p[it] = f
	}
	x.Docs[it] = d
}

// contentWords reads the words and adjacent pairs of a blob's first
// maxIndexedContent bytes, streaming. A blob that cannot be read indexes
// nothing.
func (s *Tx) contentWords(ctx context.Context, blobID string) (map[string]struct{}, map[uint64]struct{}) {
	words, pairs := map[string]struct{}{}, map[uint64]struct{}{}
	rc, err := s.Store.Open(ctx, blobID)
	if err != nil {
		s.Log.Warn("search index: reading content", "blob", blobID, "err", err)
		return words, pairs
	}
	defer rc.Close()
	sc := bufio.NewScanner(io.LimitReader(rc, maxIndexedContent))
	sc.Buffer(make([]byte, 0, 64<<10), maxIndexedContent)
	sc.Split(scanSearchWords)
	prev := ""
	for sc.Scan() {
		w := strings.ToLower(sc.Text())
		words[w] = struct{}{}
		if prev != "" {
			pairs[s.Search.PairKey(prev, w)] = struct{}{}
		}
		prev = w
	}
	return words, pairs
}

// scanSearchWords is a bufio.SplitFunc for the words of SearchWords.
func scanSearchWords(data []byte, atEOF bool) (int, []byte, error) {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	start := 0
	for start < len(data) {
		r, n := utf8.DecodeRune(data[start:])
		if isWord(r) {
			break
		}
		start += n
	}
	for i := start; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if !isWord(r) {
			return i + n, data[start:i], nil
		}
		i += n
	}
	if atEOF && len(data) > start {
		return len(data), data[start:], nil
	}
	return start, nil, nil
}

// fileExtension is the lower-cased extension of a name, without the dot.
func fileExtension(name string) string {
	return strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
}

// Eval returns the items a query node matches in the fields of
// mask, with their relevance. Callers flushed the index.
func (x *searchIndex) Eval(n *SearchNode, mask SearchField) map[*Item]int {
	return x.EvalFor(n, mask, nil)
}

// FieldGate is the fields of an item a caller's query may match (nil:
// every field of every item): who may not preview a file matches only its
// name, description and tags, never its content or comments.
type FieldGate func(*Item) SearchField

// EvalFor is Eval where gate limits, item by item, the fields a word may
// be matched in.
func (x *searchIndex) EvalFor(n *SearchNode, mask SearchField, gate FieldGate) map[*Item]int {
	switch n.Op {
	case OpWords:
		if n.Prefix && len(n.Words) == 1 {
			return x.prefixed(n.Words[0], mask, gate)
		}
		return x.words(n.Words, mask, gate)
	case OpNot:
		return x.except(x.EvalFor(n.Kids[0], mask, gate))
	case OpOr:
		out := map[*Item]int{}
		for _, k := range n.Kids {
			for it, sc := range x.EvalFor(k, mask, gate) {
				out[it] += sc
			}
		}
		return out
	}
	// OpAnd: intersect the positive kids, then drop what the others match.
	var out map[*Item]int
	var excluded []*SearchNode
	for _, k := range n.Kids {
		if k.Op == OpNot {
			excluded = append(excluded, k.Kids[0])
			continue
		}
		m := x.EvalFor(k, mask, gate)
		if out == nil {
			out = m
			continue
		}
		for it, sc := range out {
			if o, ok := m[it]; ok {
				out[it] = sc + o
			} else {
				delete(out, it)
			}
		}
	}
	if out == nil {
		out = x.except(nil)
	}
	for _, k := range excluded {
		for it := range x.EvalFor(k, mask, gate) {
			delete(out, it)
		}
	}
	return out
}

// except is every indexed item not in m.
func (x *searchIndex) except(m map[*Item]int) map[*Item]int {
	out := make(map[*Item]int, len(x.Docs))
	for it := range x.Docs {
		if _, in := m[it]; !in {
			out[it] = 0
		}
	}
	return out
}

// words matches one word, or a phrase: its words consecutively within one
// field of mask.
func (x *searchIndex) words(words []string, mask SearchField, gate FieldGate) map[*Item]int {
	rarest := words[0]
	for _, w := range words[1:] {
		if len(x.Postings[w]) < len(x.Postings[rarest]) {
			rarest = w
		}
	}
	out := map[*Item]int{}
	for it, f := range x.Postings[rarest] {
		f &= mask
		if gate != nil && f != 0 {
			f &= gate(it)
		}
		if f == 0 {
			continue
		}
		if len(words) > 1 {
			d := x.Docs[it]
			for i := 1; i < len(words) && f != 0; i++ {
				f &= d.Pairs[x.PairKey(words[i-1], words[i])]
			}
			if f == 0 {
				continue
			}
		}
		out[it] = fieldWeight(f) * len(words)
	}
	return out
}

// prefixed matches the words that begin with prefix (the word itself
// among them): each item scores as for its best word, a word it only
// begins one less than the word itself (at least 1).
func (x *searchIndex) prefixed(prefix string, mask SearchField, gate FieldGate) map[*Item]int {
	if x.vocabStale {
		x.vocab = x.vocab[:0]
		for w := range x.Postings {
			x.vocab = append(x.vocab, w)
		}
		slices.Sort(x.vocab)
		x.vocabStale = false
	}
	out := map[*Item]int{}
	i, _ := slices.BinarySearch(x.vocab, prefix)
	for ; i < len(x.vocab) && strings.HasPrefix(x.vocab[i], prefix); i++ {
		w := x.vocab[i]
		for it, f := range x.Postings[w] {
			f &= mask
			if gate != nil && f != 0 {
				f &= gate(it)
			}
			if f == 0 {
				continue
			}
			sc := fieldWeight(f)
			if w != prefix {
				sc = max(1, sc-1)
			}
			out[it] = max(out[it], sc)
		}
	}
	return out
}
