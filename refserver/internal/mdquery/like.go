package mdquery

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// likeTok is a token of a LIKE pattern.
type likeTok struct {
	r    rune
	kind byte // 'l' literal, '%', '_'
}

// likeTokens splits a LIKE pattern: % is any run of characters, _ is one
// character, a backslash makes the next character literal (a trailing one
// is itself a literal).
func likeTokens(pattern string) []likeTok {
	var toks []likeTok
	for i := 0; i < len(pattern); {
		r, n := utf8.DecodeRuneInString(pattern[i:])
		i += n
		switch {
		case r == '\\' && i < len(pattern):
			r, n = utf8.DecodeRuneInString(pattern[i:])
			i += n
			toks = append(toks, likeTok{r: r, kind: 'l'})
		case r == '%':
			if len(toks) == 0 || toks[len(toks)-1].kind != '%' {
				toks = append(toks, likeTok{kind: '%'})
			}
		case r == '_':
			toks = append(toks, likeTok{kind: '_'})
		default:
			toks = append(toks, likeTok{r: r, kind: 'l'})
		}
	}
	return toks
}

// LiteralPrefix is the text every string matched by the case-sensitive
// LIKE pattern starts with: its literal characters before the first
// wildcard (so a query planner can read the matches from an ordered
// index). It stops at a U+FFFD, which also matches invalid UTF-8 bytes.
func LiteralPrefix(pattern string) string {
	var b strings.Builder
	for _, t := range likeTokens(pattern) {
		if t.kind != 'l' || t.r == utf8.RuneError {
			break
		}
		b.WriteRune(t.r)
	}
	return b.String()
}

// FoldVariants is the runes a character r of a case-insensitive (ILIKE)
// pattern matches, as Like compares them: r itself and every rune x with
// unicode.ToLower(x) == unicode.ToLower(r) (for k: k, K and the Kelvin
// sign; for i: i, I and İ). In increasing order.
func FoldVariants(r rune) []rune {
	l := unicode.ToLower(r)
	out := []rune{r}
	if unicode.ToLower(l) == l {
		out = append(out, l)
	}
	out = append(out, upperOf()[l]...)
	slices.Sort(out)
	return slices.Compact(out)
}

// upperOf maps a rune l to the runes x != l with unicode.ToLower(x) == l:
// the runes with a case mapping are all in unicode.CaseRanges.
var upperOf = sync.OnceValue(func() map[rune][]rune {
	m := map[rune][]rune{}
	for _, cr := range unicode.CaseRanges {
		for x := rune(cr.Lo); x <= rune(cr.Hi); x++ {
			if l := unicode.ToLower(x); l != x {
				m[l] = append(m[l], x)
			}
		}
	}
	return m
})

// Like compiles a LIKE pattern: % is any run of characters, _ is
// one character, a backslash makes the next character literal (DG syntax
// "Pattern matching"). fold makes it case-insensitive (ILIKE).
func Like(pattern string, fold bool) func(string) bool {
	toks := likeTokens(pattern)
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
