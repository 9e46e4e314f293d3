package mdquery

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzLikePattern: any pattern compiles and runs; a pattern without
// wildcards matches itself, and an escaped text matches itself, alone and
// between two %; whatever a pattern matches starts with its LiteralPrefix.
func FuzzLikePattern(f *testing.F) {
	for _, s := range []string{"%", "_", "a%b", `20\%`, `\\`, `%a%a%a%`, "x_y"} {
		f.Add(s, "a20%b")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if !utf8.ValidString(pattern) || !utf8.ValidString(text) {
			return
		}
		_ = Like(pattern, true)(text)
		if Like(pattern, false)(text) && !strings.HasPrefix(text, LiteralPrefix(pattern)) {
			t.Fatalf("%q matches %q but does not start with its prefix %q", pattern, text, LiteralPrefix(pattern))
		}
		if !strings.ContainsAny(pattern, `%_\`) && !Like(pattern, false)(pattern) {
			t.Fatalf("plain pattern %q does not match itself", pattern)
		}
		escaped := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(text)
		if !Like(escaped, false)(text) || !Like("%"+escaped+"%", false)(text) {
			t.Fatalf("escaped %q does not match itself", text)
		}
	})
}

func TestLiteralPrefix(t *testing.T) {
	for pattern, want := range map[string]string{
		"":          "",
		"%":         "",
		"abc":       "abc",
		"abc%":      "abc",
		"ab_c%":     "ab",
		"Cust 00%9": "Cust 00",
		`20\%%`:     "20%",
		`a\_b%`:     "a_b",
		`x\`:        `x\`,
		"é%":        "é",
		"a\uFFFDb%": "a",
		"%abc":      "",
		"_abc":      "",
	} {
		if got := LiteralPrefix(pattern); got != want {
			t.Errorf("LiteralPrefix(%q) = %q, want %q", pattern, got, want)
		}
	}
}

// TestFoldVariants: the variants of a rune are exactly the runes an ILIKE
// pattern's rune matches (checked against every rune of the planes that
// hold letters with case, up to U+1FFFF).
func TestFoldVariants(t *testing.T) {
	for _, r := range []rune{'a', 'A', 'k', 'K', '\u212a', 'i', 'I', '\u0130', '\u0131', 's', '\u017f', '\u00df', '\u1e9e', '\u03a3', '\u03c2', '1', '%', '\u01c5'} {
		if last := unicode.CaseRanges[len(unicode.CaseRanges)-1].Hi; last > 0x1ffff {
			t.Fatalf("case ranges reach %#x", last)
		}
		m := Like("\\"+string(r), true)
		var want []rune
		for x := rune(0); x <= 0x1ffff; x++ {
			if utf8.ValidRune(x) && x != utf8.RuneError && m(string(x)) {
				want = append(want, x)
			}
		}
		if got := FoldVariants(r); !slices.Equal(got, want) {
			t.Errorf("FoldVariants(%q) = %q, want %q", r, got, want)
		}
	}
}
