package state

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
//   - a bare word also matches the words it begins, as Box's search
//     guide shows ("cal" finds California), ranked below the word itself;
//     a quoted word, and the words of a phrase, match whole words only;
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

// SearchNode is a parsed query: a term or phrase (words), or an operator
// over its kids.
type SearchNode struct {
	Op    SearchOp
	Words []string // OpWords: one word, or a phrase
	// Prefix: the node's one word also matches the words it begins (a
	// bare word, not a quoted one).
	Prefix bool
	Kids   []*SearchNode
}

// SearchOp is the kind of a query node: words (a term or a phrase), or an
// operator over the node's kids.
type SearchOp int

// The kinds of query nodes.
const (
	OpWords SearchOp = iota
	OpAnd
	OpOr
	OpNot
)

// positive reports whether n selects items by their words (rather than
// only excluding some): a NOT alone, or an AND of NOTs, needs every item.
func (n *SearchNode) positive() bool {
	switch n.Op {
	case OpWords:
		return true
	case OpNot:
		return false
	case OpAnd:
		for _, k := range n.Kids {
			if k.positive() {
				return true
			}
		}
		return false
	default: // OpOr
		for _, k := range n.Kids {
			if !k.positive() {
				return false
			}
		}
		return true
	}
}

// SearchWords cuts text into lower-cased words at every character that is
// neither a letter nor a digit.
func SearchWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
