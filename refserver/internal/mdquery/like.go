package mdquery

import (
	"unicode"
	"unicode/utf8"
)

// Like compiles a LIKE pattern: % is any run of characters, _ is
// one character, a backslash makes the next character literal (DG syntax
// "Pattern matching"). fold makes it case-insensitive (ILIKE).
func Like(pattern string, fold bool) func(string) bool {
	type tok struct {
		r    rune
		kind byte // 'l' literal, '%', '_'
	}
	var toks []tok
	for i := 0; i < len(pattern); {
		r, n := utf8.DecodeRuneInString(pattern[i:])
		i += n
		switch {
		case r == '\\' && i < len(pattern):
			r, n = utf8.DecodeRuneInString(pattern[i:])
			i += n
			toks = append(toks, tok{r: r, kind: 'l'})
		case r == '%':
			if len(toks) == 0 || toks[len(toks)-1].kind != '%' {
				toks = append(toks, tok{kind: '%'})
			}
		case r == '_':
			toks = append(toks, tok{kind: '_'})
		default:
			toks = append(toks, tok{r: r, kind: 'l'})
		}
	}
	eq := func(a, b rune) bool { return a == b }
	if fold {
		eq = func(a, b rune) bool { return a == b || unicode.ToLower(a) == unicode.ToLower(b) }
	}
	return func(s string) bool {
		text := []rune(s)
		// Iterative wildcard matching with backtracking to the last %.
		ti, pi, starP, starT := 0, 0, -1, 0
		for ti < len(text) {
			switch {
			case pi < len(toks) && toks[pi].kind == '%':
				starP, starT = pi, ti
				pi++
			case pi < len(toks) && (toks[pi].kind == '_' || eq(toks[pi].r, text[ti])):
				pi++
				ti++
			case starP >= 0:
				starT++
				ti, pi = starT, starP+1
			default:
				return false
			}
		}
		for pi < len(toks) && toks[pi].kind == '%' {
			pi++
		}
		return pi == len(toks)
	}
}
