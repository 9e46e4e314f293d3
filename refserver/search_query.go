package refserver

import (
	"strings"
	"unicode"

	"github.com/contentapi/cms/refserver/internal/state"
)

// maxQueryTerms bounds the number of terms of a query, so that a hostile
// query cannot make the server build an arbitrarily deep tree.
const maxQueryTerms = 64

// searchToken is a lexical token of a query: an operator or words.
type searchToken struct {
	op     state.SearchOp // opWords for words
	words  []string
	prefix bool // a bare word: it also matches the words it begins
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
			if w := state.SearchWords(phrase); len(w) > 0 {
				out = append(out, searchToken{op: state.OpWords, words: w})
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
			out = append(out, searchToken{op: state.OpAnd})
		case "OR":
			out = append(out, searchToken{op: state.OpOr})
		case "NOT":
			out = append(out, searchToken{op: state.OpNot})
		default:
			if w := state.SearchWords(word); len(w) > 0 {
				out = append(out, searchToken{op: state.OpWords, words: w, prefix: len(w) == 1})
			}
		}
	}
	return out
}

// parseSearchQuery parses a query; nil when it holds no words (only
// operators or punctuation).
func parseSearchQuery(q string) *state.SearchNode {
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
func (p *searchParser) or() *state.SearchNode {
	var kids []*state.SearchNode
	for {
		t, ok := p.peek()
		if !ok {
			break
		}
		if t.op == state.OpOr || t.op == state.OpAnd {
			p.pos++ // an operator without a left side
			continue
		}
		if n := p.and(); n != nil {
			kids = append(kids, n)
		}
	}
	return join(state.OpOr, kids)
}

// and: unary { AND unary }.
func (p *searchParser) and() *state.SearchNode {
	kids := []*state.SearchNode{}
	if n := p.unary(); n != nil {
		kids = append(kids, n)
	}
	for {
		t, ok := p.peek()
		if !ok || t.op != state.OpAnd {
			break
		}
		p.pos++
		if n := p.unary(); n != nil {
			kids = append(kids, n)
		}
	}
	return join(state.OpAnd, kids)
}

// unary: NOT unary | words.
func (p *searchParser) unary() *state.SearchNode {
	t, ok := p.peek()
	if !ok {
		return nil
	}
	switch t.op {
	case state.OpNot:
		p.pos++
		if n := p.unary(); n != nil {
			return &state.SearchNode{Op: state.OpNot, Kids: []*state.SearchNode{n}}
		}
		return nil
	case state.OpWords:
		p.pos++
		return &state.SearchNode{Op: state.OpWords, Words: t.words, Prefix: t.prefix}
	}
	return nil // OR or AND: the caller handles it
}

// join makes one node of kids under op (nil for none, the kid for one).
func join(op state.SearchOp, kids []*state.SearchNode) *state.SearchNode {
	switch len(kids) {
	case 0:
		return nil
	case 1:
		return kids[0]
	}
	return &state.SearchNode{Op: op, Kids: kids}
}
