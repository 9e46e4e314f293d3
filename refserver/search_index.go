package refserver

import (
	"bufio"
	"context"
	"hash/maphash"
	"io"
	"path"
	"strings"
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
// folderIndexes.sync (item.touch and every place that adds, moves,
// trashes, restores or deletes an item call it), which marks the item
// pending; a search first re-reads the pending items. A change costs a map
// insert, and the content of a file is read once per version.
//
// The content of a file is indexed when its name has a text extension
// (textExtensions) and only its first maxIndexedContent bytes.

// searchField is a part of an item a query can match (content_types).
type searchField uint8

const (
	fieldName searchField = 1 << iota
	fieldDescription
	fieldTags
	fieldContent
	fieldComments

	allSearchFields = fieldName | fieldDescription | fieldTags | fieldContent | fieldComments
)

// searchContentTypes are the content_types of the spec and their fields.
var searchContentTypes = map[string]searchField{
	"name": fieldName, "description": fieldDescription, "tags": fieldTags,
	"file_content": fieldContent, "comments": fieldComments,
}

// fieldWeight is how much a word found in the fields f adds to the
// relevance of an item: a name says more about an item than its content.
func fieldWeight(f searchField) int {
	w := 0
	if f&fieldName != 0 {
		w += 8
	}
	if f&fieldTags != 0 {
		w += 4
	}
	if f&fieldDescription != 0 {
		w += 2
	}
	if f&(fieldContent|fieldComments) != 0 {
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

// searchIndex is the server's search index, guarded by Server.mu.
type searchIndex struct {
	seed     maphash.Seed
	postings map[string]map[*item]searchField
	docs     map[*item]*searchDoc
	pending  map[*item]struct{}
}

// searchDoc is what the index holds of one item.
type searchDoc struct {
	words map[string]searchField // every word and the fields it is in
	pairs map[uint64]searchField // adjacent word pairs and their fields

	// The content's words and pairs, kept to be reused while the current
	// version stays the same (a rename does not read the content again).
	blobID       string
	contentWords map[string]struct{}
	contentPairs map[uint64]struct{}
}

func newSearchIndex() *searchIndex {
	return &searchIndex{
		seed:     maphash.MakeSeed(),
		postings: make(map[string]map[*item]searchField),
		docs:     make(map[*item]*searchDoc),
		pending:  make(map[*item]struct{}),
	}
}

// initItemIndexes empties the indexes of items: the folder indexes, and
// the search index and the event log's move and rename detection, which
// hear of every change the folder indexes see.
func (s *state) initItemIndexes() {
	s.search = newSearchIndex()
	s.folders = folderIndexes{m: make(map[indexKey]*folderIndex), changed: func(it *item, from itemSlot, to indexKey, listed bool) {
		s.search.changed(it)
		if s.eventsOn {
			s.itemFiled(it, from, to, listed)
		}
	}}
}

// changed marks an item to be indexed anew before the next search.
func (x *searchIndex) changed(it *item) { x.pending[it] = struct{}{} }

// pairKey is the key of two adjacent words.
func (x *searchIndex) pairKey(a, b string) uint64 {
	var h maphash.Hash
	h.SetSeed(x.seed)
	h.WriteString(a)
	h.WriteByte(0)
	h.WriteString(b)
	return h.Sum64()
}

// flush indexes the pending items. Callers hold s.mu.
func (s *state) flushSearchIndex(ctx context.Context) {
	x := s.search
	for it := range x.pending {
		delete(x.pending, it)
		if s.items[it.id] != it {
			x.drop(it)
			continue
		}
		s.indexItem(ctx, it)
	}
}

// drop removes an item from the index.
func (x *searchIndex) drop(it *item) {
	d := x.docs[it]
	if d == nil {
		return
	}
	for w := range d.words {
		x.unpost(w, it)
	}
	delete(x.docs, it)
}

func (x *searchIndex) unpost(w string, it *item) {
	if p := x.postings[w]; p != nil {
		delete(p, it)
		if len(p) == 0 {
			delete(x.postings, w)
		}
	}
}

// indexItem indexes an item's current texts, replacing what was indexed.
func (s *state) indexItem(ctx context.Context, it *item) {
	x := s.search
	old := x.docs[it]
	d := &searchDoc{words: make(map[string]searchField), pairs: make(map[uint64]searchField)}
	add := func(f searchField, text string) {
		words := searchWords(text)
		for i, w := range words {
			d.words[w] |= f
			if i > 0 {
				d.pairs[x.pairKey(words[i-1], w)] |= f
			}
		}
	}
	add(fieldName, it.name)
	add(fieldDescription, it.description)
	for _, t := range it.tags {
		add(fieldTags, t)
	}
	for _, c := range s.commentTexts(it) {
		add(fieldComments, c)
	}
	if it.typ == "file" && textExtensions[fileExtension(it.name)] {
		blob := it.current().blob.ID
		if old != nil && old.blobID == blob {
			d.blobID, d.contentWords, d.contentPairs = blob, old.contentWords, old.contentPairs
		} else {
			d.blobID = blob
			d.contentWords, d.contentPairs = s.contentWords(ctx, blob)
		}
		for w := range d.contentWords {
			d.words[w] |= fieldContent
		}
		for p := range d.contentPairs {
			d.pairs[p] |= fieldContent
		}
	}
	if old != nil {
		for w := range old.words {
			if _, still := d.words[w]; !still {
				x.unpost(w, it)
			}
		}
	}
	for w, f := range d.words {
		p := x.postings[w]
		if p == nil {
			p = make(map[*item]searchField)
			x.postings[w] = p
		}
		p[it] = f
	}
	x.docs[it] = d
}

// contentWords reads the words and adjacent pairs of a blob's first
// maxIndexedContent bytes, streaming. A blob that cannot be read indexes
// nothing.
func (s *state) contentWords(ctx context.Context, blobID string) (map[string]struct{}, map[uint64]struct{}) {
	words, pairs := map[string]struct{}{}, map[uint64]struct{}{}
	rc, err := s.store.Open(ctx, blobID)
	if err != nil {
		s.log.Warn("search index: reading content", "blob", blobID, "err", err)
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
			pairs[s.search.pairKey(prev, w)] = struct{}{}
		}
		prev = w
	}
	return words, pairs
}

// scanSearchWords is a bufio.SplitFunc for the words of searchWords.
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

// evalSearch returns the items a query node matches in the fields of
// mask, with their relevance. Callers hold s.mu and flushed the index.
func (x *searchIndex) eval(n *searchNode, mask searchField) map[*item]int {
	switch n.op {
	case opWords:
		return x.words(n.words, mask)
	case opNot:
		return x.except(x.eval(n.kids[0], mask))
	case opOr:
		out := map[*item]int{}
		for _, k := range n.kids {
			for it, sc := range x.eval(k, mask) {
				out[it] += sc
			}
		}
		return out
	}
	// opAnd: intersect the positive kids, then drop what the others match.
	var out map[*item]int
	var excluded []*searchNode
	for _, k := range n.kids {
		if k.op == opNot {
			excluded = append(excluded, k.kids[0])
			continue
		}
		m := x.eval(k, mask)
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
		for it := range x.eval(k, mask) {
			delete(out, it)
		}
	}
	return out
}

// except is every indexed item not in m.
func (x *searchIndex) except(m map[*item]int) map[*item]int {
	out := make(map[*item]int, len(x.docs))
	for it := range x.docs {
		if _, in := m[it]; !in {
			out[it] = 0
		}
	}
	return out
}

// words matches one word, or a phrase: its words consecutively within one
// field of mask.
func (x *searchIndex) words(words []string, mask searchField) map[*item]int {
	rarest := words[0]
	for _, w := range words[1:] {
		if len(x.postings[w]) < len(x.postings[rarest]) {
			rarest = w
		}
	}
	out := map[*item]int{}
	for it, f := range x.postings[rarest] {
		f &= mask
		if f == 0 {
			continue
		}
		if len(words) > 1 {
			d := x.docs[it]
			for i := 1; i < len(words) && f != 0; i++ {
				f &= d.pairs[x.pairKey(words[i-1], words[i])]
			}
			if f == 0 {
				continue
			}
		}
		out[it] = fieldWeight(f) * len(words)
	}
	return out
}
