// Package mdquery is the metadata query language of the reference server:
// its lexer and parser (Parse, a Node tree) and its LIKE patterns (Like).
// It imports nothing of the server, so it can be tested and fuzzed alone.
package mdquery

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The metadata query language (DG metadata/queries/syntax, item-fields).
// Box publishes no grammar; this one is derived from the guides' tables
// (the metadata query guide), with SQL precedence NOT > AND > OR:
//
//	query = or ;                 or  = and { "OR" and } ;
//	and   = not { "AND" not } ;  not = "NOT" not | "(" or ")" | pred ;
//	pred  = field cmp param
//	      | field [ "NOT" ] ( "LIKE" | "ILIKE" ) param
//	      | field [ "NOT" ] "IN" list
//	      | field ( "HASANY" | "HASALL" ) list
//	      | field "IS" [ "NOT" ] "NULL" ;
//	cmp   = "=" | "<>" | "!=" | "<" | ">" | "<=" | ">=" ;
//	list  = "(" param { "," param } ")" ;   param = ":" name ;
//	field = templateFieldKey | "item." itemField ;
//
// Keywords are case-insensitive. Values are only ever placeholders: the
// guides use nothing else ("each item in the list to be an explicitly
// defined query_params argument"), so an inline literal ('x', 42) is 400
// invalid_query. "~" and HASANCESTOR are recognised and refused as
// unsupported by this server (they need full-text search and taxonomies).

// Node is a node of a parsed query.
type Node struct {
	Kind   string // and, or, not, cmp, like, in, has, null
	Kids   []*Node
	Field  string
	Op     string   // cmp: = <> < > <= >=
	Not    bool     // NOT LIKE, NOT IN, IS NOT NULL
	Fold   bool     // ILIKE
	All    bool     // HASALL
	Params []string // placeholder names
}

// qToken is a token of the query language.
type qToken struct {
	kind string // ident, param, op, kw, eof
	text string // identifier, param name, operator, upper-cased keyword
	pos  int
}

const maxQueryDepth = 64

var queryKeywords = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "LIKE": true, "ILIKE": true, "IN": true,
	"IS": true, "NULL": true, "HASANY": true, "HASALL": true, "HASANCESTOR": true,
}

// Error is a query the language refuses; its message says where and why.
type Error struct{ Msg string }

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

func qErrf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

func isIdentRune(r rune, first bool) bool {
	if r == '_' || unicode.IsLetter(r) {
		return true
	}
	return !first && (unicode.IsDigit(r) || r == '.' || r == '-')
}

// lexQuery splits a query into tokens.
func lexQuery(q string) ([]qToken, *Error) {
	var out []qToken
	for i := 0; i < len(q); {
		r, n := utf8.DecodeRuneInString(q[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return nil, qErrf("invalid UTF-8 at offset %d", i)
		case unicode.IsSpace(r):
			i += n
		case r == ':':
			j := i + 1
			for j < len(q) && (q[j] == '_' || q[j] >= 'a' && q[j] <= 'z' || q[j] >= 'A' && q[j] <= 'Z' || q[j] >= '0' && q[j] <= '9') {
				j++
			}
			if j == i+1 {
				return nil, qErrf("a placeholder needs a name after ':' at offset %d", i)
			}
			out = append(out, qToken{kind: "param", text: q[i+1 : j], pos: i})
			i = j
		case isIdentRune(r, true):
			j := i
			for j < len(q) {
				r2, n2 := utf8.DecodeRuneInString(q[j:])
				if !isIdentRune(r2, false) {
					break
				}
				j += n2
			}
			word := q[i:j]
			if up := strings.ToUpper(word); queryKeywords[up] {
				out = append(out, qToken{kind: "kw", text: up, pos: i})
			} else {
				out = append(out, qToken{kind: "ident", text: word, pos: i})
			}
			i = j
		case strings.HasPrefix(q[i:], "<>") || strings.HasPrefix(q[i:], "!=") ||
			strings.HasPrefix(q[i:], "<=") || strings.HasPrefix(q[i:], ">="):
			out = append(out, qToken{kind: "op", text: q[i : i+2], pos: i})
			i += 2
		case strings.ContainsRune("=<>(),~", r):
			out = append(out, qToken{kind: "op", text: string(r), pos: i})
			i += n
		case r == '\'' || r == '"' || unicode.IsDigit(r) || r == '-':
			return nil, qErrf("literal values are not supported at offset %d: use a :placeholder and query_params", i)
		default:
			return nil, qErrf("unexpected character %q at offset %d", r, i)
		}
	}
	return append(out, qToken{kind: "eof", pos: len(q)}), nil
}

// queryParser is a recursive-descent parser over the tokens.
type queryParser struct {
	toks  []qToken
	i     int
	depth int
}

// Parse parses a query; nil (no error) for an empty one,
// which matches every instance. It is the parser of untrusted input fuzzed
// by FuzzMetadataQueryParse.
func Parse(q string) (*Node, *Error) {
	if strings.TrimSpace(q) == "" {
		return nil, nil
	}
	toks, err := lexQuery(q)
	if err != nil {
		return nil, err
	}
	p := &queryParser{toks: toks}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != "eof" {
		return nil, qErrf("unexpected %q at offset %d", t.text, t.pos)
	}
	return n, nil
}

func (p *queryParser) peek() qToken { return p.toks[p.i] }

func (p *queryParser) next() qToken {
	t := p.toks[p.i]
	if t.kind != "eof" {
		p.i++
	}
	return t
}

func (p *queryParser) accept(kind, text string) bool {
	if t := p.peek(); t.kind == kind && t.text == text {
		p.i++
		return true
	}
	return false
}

func (p *queryParser) expect(kind, text string) *Error {
	if !p.accept(kind, text) {
		t := p.peek()
		if t.kind == "eof" {
			return qErrf("expected %s at the end of the query", text)
		}
		return qErrf("expected %s at offset %d, found %q", text, t.pos, t.text)
	}
	return nil
}

func (p *queryParser) binary(kind, kw string, sub func() (*Node, *Error)) (*Node, *Error) {
	n, err := sub()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != "kw" || p.peek().text != kw {
		return n, nil
	}
	out := &Node{Kind: kind, Kids: []*Node{n}}
	for p.accept("kw", kw) {
		k, err := sub()
		if err != nil {
			return nil, err
		}
		out.Kids = append(out.Kids, k)
	}
	return out, nil
}

func (p *queryParser) or() (*Node, *Error) { return p.binary("or", "OR", p.and) }

func (p *queryParser) and() (*Node, *Error) { return p.binary("and", "AND", p.unary) }

func (p *queryParser) unary() (*Node, *Error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxQueryDepth {
		return nil, qErrf("the query nests deeper than %d levels", maxQueryDepth)
	}
	if p.accept("kw", "NOT") {
		k, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &Node{Kind: "not", Kids: []*Node{k}}, nil
	}
	if p.accept("op", "(") {
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		return n, p.expect("op", ")")
	}
	return p.pred()
}

func (p *queryParser) param() (string, *Error) {
	t := p.next()
	if t.kind != "param" {
		if t.kind == "eof" {
			return "", qErrf("expected a :placeholder at the end of the query")
		}
		return "", qErrf("expected a :placeholder at offset %d, found %q", t.pos, t.text)
	}
	return t.text, nil
}

func (p *queryParser) list() ([]string, *Error) {
	if err := p.expect("op", "("); err != nil {
		return nil, err
	}
	var out []string
	for {
		name, err := p.param()
		if err != nil {
			return nil, err
		}
		out = append(out, name)
		if !p.accept("op", ",") {
			break
		}
	}
	return out, p.expect("op", ")")
}

func (p *queryParser) pred() (*Node, *Error) {
	t := p.next()
	if t.kind != "ident" {
		if t.kind == "eof" {
			return nil, qErrf("expected a field at the end of the query")
		}
		return nil, qErrf("expected a field at offset %d, found %q", t.pos, t.text)
	}
	n := &Node{Field: t.text}
	op := p.next()
	if op.kind == "op" {
		switch op.text {
		case "=", "<>", "!=", "<", ">", "<=", ">=":
			n.Kind, n.Op = "cmp", op.text
			if n.Op == "!=" {
				n.Op = "<>"
			}
			name, err := p.param()
			n.Params = []string{name}
			return n, err
		case "~":
			return nil, qErrf("the ~ operator (term search) is not supported by this server")
		}
		return nil, qErrf("expected an operator after %q at offset %d", n.Field, op.pos)
	}
	if op.kind != "kw" {
		return nil, qErrf("expected an operator after %q at offset %d", n.Field, op.pos)
	}
	kw := op.text
	if kw == "NOT" {
		n.Not = true
		kw = p.next().text
	}
	switch kw {
	case "LIKE", "ILIKE":
		n.Kind, n.Fold = "like", kw == "ILIKE"
		name, err := p.param()
		n.Params = []string{name}
		return n, err
	case "IN":
		n.Kind = "in"
		var err *Error
		n.Params, err = p.list()
		return n, err
	}
	if n.Not {
		return nil, qErrf("NOT after %q must be followed by LIKE, ILIKE or IN", n.Field)
	}
	switch kw {
	case "HASANY", "HASALL":
		n.Kind, n.All = "has", kw == "HASALL"
		var err *Error
		n.Params, err = p.list()
		return n, err
	case "HASANCESTOR":
		return nil, qErrf("HASANCESTOR needs taxonomy fields, which this server does not support")
	case "IS":
		n.Kind = "null"
		n.Not = p.accept("kw", "NOT")
		return n, p.expect("kw", "NULL")
	}
	return nil, qErrf("expected an operator after %q at offset %d", n.Field, op.pos)
}
