package refserver

import (
	"strings"
	"unicode"
)

// The query language of GET /search (spec, parameter query):
//
//   - words are matched as words of the item's text, case-insensitively:
//     the text is cut into words at every character that is neither a
//     letter nor a digit, so "Blue-Box", "blue.box" and "Blue Box" are the
//     same two words;
//   - "a quoted phrase" matches those words consecutively, in that order
//     (a bare word that holds several words, like Blue-Box, is a phrase
//     too);
//   - AND keeps items with both sides, OR items with either, NOT drops the
//     items with the next term; only upper-case operators are operators
//     (the spec: "We do not support lower case … or mixed case"), others
//     are words;
//   - words side by side without an operator are ORed ("we implicitly
//     interpret multi-word queries as OR"); AND binds tighter than OR;
//   - an operator without its operand is ignored.

// searchNode is a parsed query: a term or phrase (words), or an operator
// over its kids.
type searchNode struct {
	op    searchOp
	words []string // opWords: one word, or a phrase
	kids  []*searchNode
}

type searchOp int

const (
	opWords searchOp = iota
	opAnd
	opOr
	opNot
)

// maxQueryTerms bounds the number of terms of a query, so that a hostile
// query cannot make the server build an arbitrarily deep tree.
const maxQueryTerms = 64

// searchToken is a lexical token of a query: an operator or words.
type searchToken struct {
	op    searchOp // opWords for words
	words []string
}

// lexSearchQuery cuts a query into operators, words and phrases.
func lexSearchQuery(q string) []searchToken {
	var out []searchToken
	for len(q) > 0 && len(out) < maxQueryTerms*2 {
		q = strings.TrimLeftFunc(q, unicode.IsSpace)
		if q == "" {
			break
		}
		if q[0] == '"' {
			rest := q[1:]
			phrase := rest
			q = ""
			if end := strings.IndexByte(rest, '"'); end >= 0 { // an unclosed quote runs to the end
				phrase, q = rest[:end], rest[end+1:]
			}
			if w := searchWords(phrase); len(w) > 0 {
				out = append(out, searchToken{op: opWords, words: w})
			}
			continue
		}
		end := strings.IndexFunc(q, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
		if end < 0 {
			end = len(q)
		}
		word := q[:end]
		q = q[end:]
		switch word {
		case "AND":
			out = append(out, searchToken{op: opAnd})
		case "OR":
			out = append(out, searchToken{op: opOr})
		case "NOT":
			out = append(out, searchToken{op: opNot})
		default:
			if w := searchWords(word); len(w) > 0 {
				out = append(out, searchToken{op: opWords, words: w})
			}
		}
	}
	return out
}

// parseSearchQuery parses a query; nil when it holds no words (only
// operators or punctuation).
func parseSearchQuery(q string) *searchNode {
	p := &searchParser{toks: lexSearchQuery(q)}
	return p.or()
}

type searchParser struct {
	toks []searchToken
	pos  int
}

func (p *searchParser) peek() (searchToken, bool) {
	if p.pos >= len(p.toks) {
		return searchToken{}, false
	}
	return p.toks[p.pos], true
}

// or: and { [OR] and } — side by side means OR.
func (p *searchParser) or() *searchNode {
	var kids []*searchNode
	for {
		t, ok := p.peek()
		if !ok {
			break
		}
		if t.op == opOr || t.op == opAnd {
			p.pos++ // an operator without a left side
			continue
		}
		if n := p.and(); n != nil {
			kids = append(kids, n)
		}
	}
	return join(opOr, kids)
}

// and: unary { AND unary }.
func (p *searchParser) and() *searchNode {
	kids := []*searchNode{}
	if n := p.unary(); n != nil {
		kids = append(kids, n)
	}
	for {
		t, ok := p.peek()
		if !ok || t.op != opAnd {
			break
		}
		p.pos++
		if n := p.unary(); n != nil {
			kids = append(kids, n)
		}
	}
	return join(opAnd, kids)
}

// unary: NOT unary | words.
func (p *searchParser) unary() *searchNode {
	t, ok := p.peek()
	if !ok {
		return nil
	}
	switch t.op {
	case opNot:
		p.pos++
		if n := p.unary(); n != nil {
			return &searchNode{op: opNot, kids: []*searchNode{n}}
		}
		return nil
	case opWords:
		p.pos++
		return &searchNode{op: opWords, words: t.words}
	}
	return nil // OR or AND: the caller handles it
}

// join makes one node of kids under op (nil for none, the kid for one).
func join(op searchOp, kids []*searchNode) *searchNode {
	switch len(kids) {
	case 0:
		return nil
	case 1:
		return kids[0]
	}
	return &searchNode{op: op, kids: kids}
}

// positive reports whether n selects items by their words (rather than
// only excluding some): a NOT alone, or an AND of NOTs, needs every item.
func (n *searchNode) positive() bool {
	switch n.op {
	case opWords:
		return true
	case opNot:
		return false
	case opAnd:
		for _, k := range n.kids {
			if k.positive() {
				return true
			}
		}
		return false
	default: // opOr
		for _, k := range n.kids {
			if !k.positive() {
				return false
			}
		}
		return true
	}
}

// searchWords cuts text into lower-cased words at every character that is
// neither a letter nor a digit.
func searchWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
