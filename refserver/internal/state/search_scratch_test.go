package state

import (
	"slices"
	"strings"
	"testing"
)

// TestSearchWordsIn: the words newDoc cuts without a slice, the content's
// words lower-cased in place and the pairs' keys of bytes are those of
// SearchWords, strings.ToLower and PairKey.
func TestSearchWordsIn(t *testing.T) {
	x := NewSearchIndex()
	var buf []byte
	for _, text := range []string{
		"", " ", "doc-0000042 w17 w803.txt", "Hello, WORLD!", "über Straße ÉTÉ", "İstanbul ıi", "a\xffb\xc0", "日本語 テキスト", "x", "..a..", "MiXeD123case",
	} {
		lower := strings.ToLower(text)
		if got, want := slices.Collect(searchWordsIn(lower)), SearchWords(text); !slices.Equal(got, want) {
			t.Errorf("searchWordsIn(%q) = %q, want %q", lower, got, want)
		}
		if got := string(lowerWord([]byte(text), &buf)); got != lower {
			t.Errorf("lowerWord(%q) = %q, want %q", text, got, lower)
		}
		if got, want := x.pairKeyOf([]byte(text), []byte(lower)), x.PairKey(text, lower); got != want {
			t.Errorf("pairKeyOf(%q, %q) = %x, want %x", text, lower, got, want)
		}
	}
}
