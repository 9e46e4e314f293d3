package state

import (
	"bufio"
	"context"
	"hash/maphash"
	"io"
	"path"
	"slices"
	"strings"
	"sync"
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
// Items are indexed off the state's lock (search_indexer.go): every change
// of an item reaches folderIndexes.Sync (Item.touch and every place that
// adds, moves, trashes, restores or deletes an item call it), which queues
// the item (changed: a map insert and an append, under the state's lock).
// The server's indexer goroutine drains the queue in batches: it copies
// the texts of a batch's items in a short read transaction, reads the
// content of text files and cuts the words with no lock held, and puts the
// batch into the index under the index's own lock. A search first catches
// the index up with every change committed before it (read-your-writes),
// helping the indexer, then evaluates under the index's read lock (not
// the state's) and, in its transaction, drops the hits whose item is gone
// or changed after it began. The content of a file is read once per
// version.
//
// With Options.SearchIndexDelay (StateConfig.SearchIndexDelay), a change
// waits that long, on the server's clock, before it is indexed, as the
// service indexes new content asynchronously: until then a search sees
// what was indexed before (nothing for a new item, the old name for a
// renamed one). Items restored from a data directory and an item that is
// gone (purged) are not delayed.
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

// searchIndex is the server's search index. The model holds it (a
// transaction reaches it as Search), and so does the indexer, outside the
// state's lock: what the index holds is guarded by its own locks.
//
// Lock order: the indexer's drain lock (searchIndexer.drainMu), then mu
// (a search holds it for reading from its evaluation to the end of its
// transaction, State.SearchAt), then the state's lock (State.mu), then
// vocabMu, then the queue's lock (searchQueue.mu), which holds no other.
type searchIndex struct {
	seed maphash.Seed // set once: PairKey needs no lock

	// mu guards postings, docs, byOrd, free and vocabStale: the indexer
	// writes them (apply), a search reads them (State.SearchAt).
	mu       sync.RWMutex
	postings wordTable // the posting list of each word (search_words.go)
	docs     docTable  // the indexed items' ordinals by item (search_docs.go)
	// byOrd is the indexed items by their ordinals (docOrd), which the
	// posting lists hold, with their stamps and documents; free is the
	// ordinals of dropped items (their entries zero), reused first.
	byOrd []ordItem
	free  []docOrd
	// vocabStale says vocab lacks a word of postings or holds one no
	// longer there. Written while mu is locked for writing, or locked
	// for reading and vocabMu locked.
	vocabStale bool
	// vocabMu guards vocab (with vocabStale), which a search sorts anew
	// while it holds mu for reading only.
	vocabMu sync.Mutex
	vocab   []wordID // the words' ids, sorted by word, for prefix matches

	queue searchQueue // the changes not indexed yet (search_indexer.go)

	// readyAt is when a change made now may be indexed (zero: at once);
	// nil means at once. kick wakes the indexer; nil: none runs. Both are
	// set by InitItemIndexes and called from changed, within a
	// transaction.
	readyAt func() time.Time
	kick    func()
}

// SearchDoc is what the index holds of one item, in slices rather than
// maps: at a million items the maps (four per item) were most of the
// index's memory, and a document is only ever read whole or searched.
type SearchDoc struct {
	// data is, in one allocation with no pointer, the document's npairs
	// pairs (pairs) then the ids of its nwords words (wordAt), two to a
	// uint64: a SearchDoc with two slices was 64 bytes, and each slice
	// an allocation.
	data           []uint64
	npairs, nwords uint32
	ord            docOrd // the item's ordinal (its stamp is byOrd's)

	// content is the version whose content's words and pairs the
	// document holds (those with FieldContent; nil: none), reused while
	// the current version's blob stays the same (a rename does not read
	// the content again). A version's Blob never changes. A pointer, not
	// the blob's id (16 bytes).
	content *Version
}

// pairs is the keys of the document's adjacent word pairs (PairKey) with
// their fields in the low pairFieldBits instead of the key's own (a pair
// is found by the rest of its key), sorted.
func (d *SearchDoc) pairs() []uint64 { return d.data[:d.npairs] }

// wordAt is the id of the document's i-th word (wordTable; each one's
// list tells the fields the word is in), in the order of the words.
func (d *SearchDoc) wordAt(i int) wordID {
	return wordID(d.data[int(d.npairs)+i/2] >> (32 * (i % 2)))
}

// setWordAt makes id the document's i-th word.
func (d *SearchDoc) setWordAt(i int, id wordID) {
	v := &d.data[int(d.npairs)+i/2]
	shift := 32 * (i % 2)
	*v = *v&^(0xffffffff<<shift) | uint64(id)<<shift
}

// docDraft is a document before it is put into the index: its words as
// strings, sorted, with the fields they are in, and the item's stamp.
type docDraft struct {
	*SearchDoc
	words []docWord
	stamp ItemStamp
}

// ordItem is an indexed item, its stamp (its trash and modified_at when
// indexed) and its document, by its ordinal; a free ordinal's is zero.
type ordItem struct {
	it    *Item
	stamp ItemStamp
	doc   *SearchDoc
}

// docWord is one of an item's words and the fields it is in.
type docWord struct {
	word   string
	fields SearchField
}

// pairFieldBits is how many low bits of a pair's key hold its fields.
const (
	pairFieldBits = 5
	pairFieldMask = 1<<pairFieldBits - 1
)

// pair is how a SearchDoc holds the pair key k in the fields f.
func pair(k uint64, f SearchField) uint64 { return k&^pairFieldMask | uint64(f) }

// PairFields is the fields the pair of key k (PairKey) is in.
func (d *SearchDoc) PairFields(k uint64) SearchField {
	k &^= pairFieldMask
	pairs := d.pairs()
	i, _ := slices.BinarySearch(pairs, k)
	var f SearchField
	for ; i < len(pairs) && pairs[i]&^pairFieldMask == k; i++ {
		f |= SearchField(pairs[i] & pairFieldMask)
	}
	return f
}

// docOf makes the document of the words and pairs of an item's fields.
func docOf(sc *docScratch, stamp ItemStamp, content *Version) *docDraft {
	np, nw := len(sc.pairs), len(sc.words)
	d := &docDraft{SearchDoc: &SearchDoc{data: make([]uint64, np+(nw+1)/2), npairs: uint32(np), nwords: uint32(nw), content: content}, words: slices.Clone(sc.words), stamp: stamp}
	slices.SortFunc(d.words, func(a, b docWord) int { return strings.Compare(a.word, b.word) })
	pairs := d.data[:0]
	for k, f := range sc.pairs {
		pairs = append(pairs, pair(k, f))
	}
	slices.Sort(pairs)
	return d
}

// NewSearchIndex returns an empty search index.
func NewSearchIndex() *searchIndex {
	return &searchIndex{
		seed:     maphash.MakeSeed(),
		postings: newWordTable(),
		docs:     newDocTable(),
		queue:    searchQueue{latest: make(map[*Item]uint64)},

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
	s.Search.kick = s.kickIndexer
	s.Folders = folderIndexes{M: make(map[IndexKey]*folderIndex), changed: func(it *Item, from itemSlot, to IndexKey, listed bool) {
		s.Search.changed(it)
		if s.EventsOn {
			s.running.itemFiled(it, from, to, listed) // not s: a later transaction's outbox
		}
	}, reshaped: func(folder string) {
		if s.Persist != nil {
			s.Persist.ListingChanged(folder)
		}
	}, folder: func(id string) *Item { return s.Items.At("folder", id) }}
}

// changed queues an item to be indexed anew (at once, or after the index
// delay) and wakes the indexer. It is called within a transaction.
func (x *searchIndex) changed(it *Item) {
	var at time.Time
	if x.readyAt != nil {
		at = x.readyAt()
	}
	x.queue.add(it, at)
	if x.kick != nil {
		x.kick()
	}
}

// ItemStamp is what a search orders and filters an item by, as the item was
// when indexed: whether it was in the trash (bit 8) and the second of its
// modified_at (bits 16 on, offset so as to order as the times do; times
// beyond about ±4 million years are clamped, which keeps the order, not
// strictly). An item the queue holds no change of is as its stamp says,
// as every change of its trash or modified_at reaches the queue.
type ItemStamp uint64

const (
	stampTrashed  ItemStamp = 1 << 8
	stampSecShift           = 16
	stampSecBias            = 1 << 46 // half the seconds' range
)

// stampOf is it's stamp now.
func stampOf(it *Item) ItemStamp {
	var st ItemStamp
	if it.Trashed() {
		st |= stampTrashed
	}
	sec := min(max(it.ModifiedAt.Unix()+stampSecBias, 0), 1<<(64-stampSecShift)-1)
	return st | ItemStamp(sec)<<stampSecShift
}

// trashed reports whether the item was in the trash.
func (st ItemStamp) trashed() bool { return st&stampTrashed != 0 }

// sec is the item's modified_at's second, biased: greater is later.
func (st ItemStamp) sec() uint64 { return uint64(st >> stampSecShift) }

// PairKey is the key of two adjacent words.
func (x *searchIndex) PairKey(a, b string) uint64 {
	var h maphash.Hash
	h.SetSeed(x.seed)
	h.WriteString(a)
	h.WriteByte(0)
	h.WriteString(b)
	return h.Sum64()
}

// pairKeyOf is PairKey of words as bytes.
func (x *searchIndex) pairKeyOf(a, b []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(x.seed)
	h.Write(a)
	h.WriteByte(0)
	h.Write(b)
	return h.Sum64()
}

// drop removes an item from the index.
func (x *searchIndex) drop(it *Item) {
	d := x.doc(it)
	if d == nil {
		return
	}
	for i := range int(d.nwords) {
		x.unpost(d.wordAt(i), d.ord)
	}
	x.docs.remove(it, x.byOrd)
	x.byOrd[d.ord] = ordItem{}
	x.free = append(x.free, d.ord)
}

// doc is what the index holds of it, nil if nothing.
func (x *searchIndex) doc(it *Item) *SearchDoc {
	if o, ok := x.docs.get(it, x.byOrd); ok {
		return x.byOrd[o].doc
	}
	return nil
}

// ordFor gives it an ordinal, a free one first, and files it.
func (x *searchIndex) ordFor(it *Item) docOrd {
	if n := len(x.free); n > 0 {
		o := x.free[n-1]
		x.free = x.free[:n-1]
		x.byOrd[o].it = it
		x.docs.add(o, x.byOrd)
		return o
	}
	if len(x.byOrd) > maxDocOrd {
		panic("search index: more items than a posting can number")
	}
	x.byOrd = append(x.byOrd, ordItem{it: it})
	o := docOrd(len(x.byOrd) - 1)
	x.docs.add(o, x.byOrd)
	return o
}

// unpost takes the item o out of the list of the word id, and the word
// out of the index if no item is left holding it.
func (x *searchIndex) unpost(id wordID, o docOrd) {
	p := x.postings.list(id)
	p.del(o)
	if p.len() == 0 {
		x.postings.remove(p.word)
		x.vocabStale = true
	}
}

// searchTexts is what the index reads of an item: a copy of its texts
// taken within a transaction, so that its words are cut with no lock held.
type searchTexts struct {
	name, description string
	tags, comments    []string
	content           *Version // the current version, for a text file (nil: no content to index)
	stamp             ItemStamp
}

// textsOf copies the texts of it that the index reads.
func (s *ReadTx) textsOf(it *Item) searchTexts {
	t := searchTexts{name: it.Name, description: it.Description(), tags: slices.Clone(it.Tags()), comments: s.commentTexts(it), stamp: stampOf(it)}
	if it.Typ == "file" && textExtensions[fileExtension(it.Name)] && it.Current().Blob.HasID() {
		t.content = it.Current()
	}
	return t
}

// newDoc makes the document of an item's texts. old is what the index
// holds of it (nil: nothing), whose content words are reused while the
// content stays the same; content adds a blob's words to sc otherwise. sc
// is the scratch of the drain (docScratches).
//
// Reading old (its posting lists) needs no lock: only the drainer, which
// calls newDoc, changes the index.
func (x *searchIndex) newDoc(it *Item, t *searchTexts, old *SearchDoc, content func(blobID string, sc *docScratch) error, sc *docScratch) (*docDraft, error) {
	sc.reset()
	sc.addText(x, FieldName, t.name)
	sc.addText(x, FieldDescription, t.description)
	for _, tag := range t.tags {
		sc.addText(x, FieldTags, tag)
	}
	for _, c := range t.comments {
		sc.addText(x, FieldComments, c)
	}
	if t.content != nil {
		if old != nil && old.content != nil && old.content.Blob.SameID(t.content.Blob) {
			for i := range int(old.nwords) {
				if p := x.postings.list(old.wordAt(i)); p.get(old.ord)&FieldContent != 0 {
					sc.add(p.word, FieldContent)
				}
			}
			for _, p := range old.pairs() {
				if SearchField(p&pairFieldMask)&FieldContent != 0 {
					sc.pairs[p&^pairFieldMask] |= FieldContent
				}
			}
		} else if err := content(t.content.Blob.ID(), sc); err != nil {
			return nil, err
		}
	}
	return docOf(sc, t.stamp, t.content), nil
}

// put makes d what the index holds of it, replacing what it held. The
// indexer calls it while mu is locked for writing (apply).
func (x *searchIndex) put(it *Item, d *docDraft) {
	var o docOrd
	if old := x.doc(it); old != nil {
		o = old.ord
		for i := range int(old.nwords) {
			id := old.wordAt(i)
			w := x.postings.list(id).word
			if _, still := slices.BinarySearchFunc(d.words, w, func(e docWord, w string) int { return strings.Compare(e.word, w) }); !still {
				x.unpost(id, o)
			}
		}
	} else {
		o = x.ordFor(it)
	}
	d.ord = o
	x.byOrd[o].stamp = d.stamp
	for i, w := range d.words {
		id, ok := x.postings.find(w.word)
		if !ok {
			id = x.postings.add(w.word)
			x.vocabStale = true
		}
		x.postings.list(id).set(o, w.fields)
		d.setWordAt(i, id)
	}
	x.byOrd[o].doc = d.SearchDoc
}

// PutName indexes it by a name alone, at once (FuzzSearchQuery's index).
func (x *searchIndex) PutName(it *Item, name string) {
	sc := docScratches.Get().(*docScratch)
	d, _ := x.newDoc(it, &searchTexts{name: name, stamp: stampOf(it)}, nil, nil, sc)
	docScratches.Put(sc)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.put(it, d)
}

// contentWords adds the words and adjacent pairs of a blob's first
// maxIndexedContent bytes to sc, in FieldContent, reading from the store
// as it goes. A blob that cannot be read adds what was read (and is
// logged); the error is ctx's only, when it ended.
//
// scratch is the scanner's first buffer, shared by the calls of one drain
// (which makes them one after another): a buffer per file made the indexer
// allocate 64 KiB for every file however small, which after a restart of a
// large state was most of the process's garbage.
func (x *searchIndex) contentWords(ctx context.Context, env *Env, blobID string, scratch []byte, sc *docScratch) error {
	rc, err := env.Store.Open(ctx, blobID)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		env.Log.Warn("search index: reading content", "blob", blobID, "err", err)
		return nil
	}
	defer rc.Close()
	sc.limit = io.LimitedReader{R: rc, N: maxIndexedContent}
	defer func() { sc.limit.R = nil }()
	scan := bufio.NewScanner(&sc.limit)
	scan.Buffer(scratch[:0], maxIndexedContent)
	scan.Split(scanSearchWords)
	var prev []byte
	for scan.Scan() {
		w := lowerWord(scan.Bytes(), &sc.lower)
		sc.addContent(x, prev, w)
		sc.prev = append(sc.prev[:0], w...) // the scanner's buffer moves on
		prev = sc.prev
	}
	if err := scan.Err(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		env.Log.Warn("search index: reading content", "blob", blobID, "err", err)
	}
	return nil
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
