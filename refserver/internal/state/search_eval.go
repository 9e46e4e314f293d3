package state

import (
	"slices"
	"strings"
)

// Hit is an item a query matches: its relevance, and its stamp as the
// index holds it.
type Hit struct {
	Score int
	stamp ItemStamp
}

// Eval returns the items a query node matches in the fields of
// mask, with their relevance, as the index holds them now.
func (x *searchIndex) Eval(n *SearchNode, mask SearchField) map[*Item]Hit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.evalFor(n, mask)
}

// evalFor is Eval once mu is locked for reading.
func (x *searchIndex) evalFor(n *SearchNode, mask SearchField) map[*Item]Hit {
	switch n.Op {
	case OpWords:
		if n.Prefix && len(n.Words) == 1 {
			return x.prefixed(n.Words[0], mask)
		}
		return x.words(n.Words, mask)
	case OpNot:
		return x.except(x.evalFor(n.Kids[0], mask))
	case OpOr:
		out := map[*Item]Hit{}
		for _, k := range n.Kids {
			for it, h := range x.evalFor(k, mask) {
				out[it] = Hit{out[it].Score + h.Score, h.stamp}
			}
		}
		return out
	}
	// OpAnd: intersect the positive kids, then drop what the others match.
	var out map[*Item]Hit
	var excluded []*SearchNode
	for _, k := range n.Kids {
		if k.Op == OpNot {
			excluded = append(excluded, k.Kids[0])
			continue
		}
		m := x.evalFor(k, mask)
		if out == nil {
			out = m
			continue
		}
		for it, h := range out {
			if o, ok := m[it]; ok {
				out[it] = Hit{h.Score + o.Score, h.stamp}
			} else {
				delete(out, it)
			}
		}
	}
	if out == nil {
		out = x.except(nil)
	}
	for _, k := range excluded {
		for it := range x.evalFor(k, mask) {
			delete(out, it)
		}
	}
	return out
}

// except is every indexed item not in m.
func (x *searchIndex) except(m map[*Item]Hit) map[*Item]Hit {
	out := make(map[*Item]Hit, x.docs.n)
	for _, e := range x.byOrd {
		if _, in := m[e.it]; !in && e.it != nil {
			out[e.it] = Hit{0, e.stamp}
		}
	}
	return out
}

// words matches one word, or a phrase: its words consecutively within one
// field of mask.
func (x *searchIndex) words(words []string, mask SearchField) map[*Item]Hit {
	rarest := words[0]
	for _, w := range words[1:] {
		if x.postings.get(w).len() < x.postings.get(rarest).len() {
			rarest = w
		}
	}
	rare := x.postings.get(rarest)
	out := make(map[*Item]Hit, rare.len())
	for o, f := range rare.all() {
		f &= mask
		if f == 0 {
			continue
		}
		e := x.byOrd[o]
		if len(words) > 1 {
			d := e.doc
			for i := 1; i < len(words) && f != 0; i++ {
				f &= d.PairFields(x.PairKey(words[i-1], words[i]))
			}
			if f == 0 {
				continue
			}
		}
		out[e.it] = Hit{fieldWeight(f) * len(words), e.stamp}
	}
	return out
}

// prefixed matches the words that begin with prefix (the word itself
// among them): each item scores as for its best word, a word it only
// begins one less than the word itself (at least 1).
func (x *searchIndex) prefixed(prefix string, mask SearchField) map[*Item]Hit {
	lists := x.listsWithPrefix(prefix)
	size := 0
	for _, id := range lists {
		size = max(size, x.postings.list(id).len())
	}
	out := make(map[*Item]Hit, size)
	for _, id := range lists {
		l := x.postings.list(id)
		w := l.word
		for o, f := range l.all() {
			f &= mask
			if f == 0 {
				continue
			}
			e := x.byOrd[o]
			sc := fieldWeight(f)
			if w != prefix {
				sc = max(1, sc-1)
			}
			if h, ok := out[e.it]; !ok || sc > h.Score {
				out[e.it] = Hit{sc, e.stamp}
			}
		}
	}
	return out
}

// listsWithPrefix returns the ids of the words that begin with prefix,
// sorting the vocabulary anew first if a word came or went. It runs in
// evalFor, mu locked for reading, so no writer marks the vocabulary stale
// meanwhile: vocabMu keeps two searches from sorting it at once, and the
// slice returned stays as it is while mu is locked.
func (x *searchIndex) listsWithPrefix(prefix string) []wordID {
	x.vocabMu.Lock()
	defer x.vocabMu.Unlock()
	word := func(id wordID) string { return x.postings.list(id).word }
	if x.vocabStale {
		x.vocab = slices.AppendSeq(x.vocab[:0], x.postings.all())
		slices.SortFunc(x.vocab, func(a, b wordID) int { return strings.Compare(word(a), word(b)) })
		x.vocabStale = false
	}
	i, _ := slices.BinarySearchFunc(x.vocab, prefix, func(id wordID, w string) int { return strings.Compare(word(id), w) })
	j := i
	for j < len(x.vocab) && strings.HasPrefix(word(x.vocab[j]), prefix) {
		j++
	}
	return x.vocab[i:j]
}
