package state

import (
	"strings"
	"testing"
)

func TestParseRepHints(t *testing.T) {
	hints, aerr := ParseRepHints("[jpg?paged=false&dimensions=32x32,94x94,PNG?dimensions=1024x1024][extracted_text]")
	if aerr != nil {
		t.Fatal(aerr)
	}
	want := RepHints{
		{{Rep: "jpg", Dims: []string{"32x32", "94x94"}, Paged: "false"}, {Rep: "png", Dims: []string{"1024x1024"}}},
		{{Rep: "extracted_text"}},
	}
	if len(hints) != len(want) || len(hints[0]) != 2 || hints[0][0].Rep != "jpg" || strings.Join(hints[0][0].Dims, " ") != "32x32 94x94" ||
		hints[0][0].Paged != "false" || hints[0][1].Rep != "png" || hints[1][0].Rep != "extracted_text" {
		t.Fatalf("got %+v, want %+v", hints, want)
	}
	if h, aerr := ParseRepHints("  "); h != nil || aerr != nil {
		t.Fatalf("blank: %v %v", h, aerr)
	}
}

// FuzzParseRepHints: any header value parses or is 400 bad_request, never
// panics; what parses selects only entries it was given, each once.
func FuzzParseRepHints(f *testing.F) {
	for _, s := range []string{
		"[jpg?dimensions=32x32]", "[jpg?dimensions=2048x2048,png?dimensions=2048x2048]", "[pdf][extracted_text]",
		"[jpg?dimensions=32x32,94x94]", "[jpg?dimensions=1024x1024&paged=false,png?dimensions=1024x1024][pdf][text]",
		"[", "]", "[]", "[a?b]", "[a?=b]", "[,]", "[jpg]x",
	} {
		f.Add(s)
	}
	s := ReadTx{&model{Env: &Env{}}}
	entries := []any{}
	for _, r := range ImageReps {
		entries = append(entries, s.RepEntry("1", "2", r, "success"))
	}
	f.Fuzz(func(t *testing.T, h string) {
		hints, aerr := ParseRepHints(h)
		if aerr != nil {
			if hints != nil || aerr.Status != 400 || aerr.Code != "bad_request" {
				t.Fatalf("%q: %v %v", h, hints, aerr)
			}
			return
		}
		if strings.TrimSpace(h) != "" && hints == nil {
			t.Fatalf("%q: parsed to nothing", h)
		}
		got := hints.Select(entries)
		if len(got) > len(entries) {
			t.Fatalf("%q: %d entries of %d", h, len(got), len(entries))
		}
		seen := map[any]bool{}
		for _, e := range got {
			url := e.(map[string]any)["info"].(map[string]any)["url"]
			if seen[url] {
				t.Fatalf("%q: %v twice", h, url)
			}
			seen[url] = true
		}
	})
}
