package mdquery

import (
	"strings"
	"testing"
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
