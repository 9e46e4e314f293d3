package state

import (
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// The X-Rep-Hints request header: which entries of the representations
// field a client wants (docs/refserver.md, "Representations and
// thumbnails"). Its syntax, as the service documents it:
//
//	[jpg?dimensions=32x32][png?dimensions=1024x1024]   two hints, both given
//	[jpg?dimensions=2048x2048,png?dimensions=2048x2048] one hint, its first available alternative
//	[jpg?dimensions=32x32,94x94]                        a comma list of dimensions
//	[pdf] [extracted_text]                              a kind without parameters
//
// A hint the server cannot make (another kind, a size it does not make)
// gives no entry; a header that does not have this syntax is 400
// bad_request.

// RepHints are the hints of an X-Rep-Hints header, in its order; nil
// when the header is absent (every representation is listed).
type RepHints []RepHint

// RepHint is one bracketed hint: its alternatives, the first that the
// server makes being the one given.
type RepHint []RepWant

// RepWant is one alternative of a hint: a representation kind (jpg, png,
// pdf, extracted_text, ...), the dimensions asked (none: any), and paged
// ("true", "false" or "": any). Other parameters are ignored.
type RepWant struct {
	Rep   string
	Dims  []string // "32x32"
	Paged string
}

// ParseRepHints reads an X-Rep-Hints header value. An empty value is no
// header (nil hints).
func ParseRepHints(h string) (RepHints, *wire.Error) {
	h = strings.TrimSpace(h)
	if h == "" {
		return nil, nil
	}
	bad := func() (RepHints, *wire.Error) {
		return nil, wire.BadRequest("Invalid value for the X-Rep-Hints header")
	}
	var hints RepHints
	for h != "" {
		if h[0] != '[' {
			return bad()
		}
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return bad()
		}
		hint, ok := parseRepHint(h[1:end])
		if !ok {
			return bad()
		}
		hints = append(hints, hint)
		h = strings.TrimLeft(h[end+1:], " \t")
	}
	return hints, nil
}

// parseRepHint reads the inside of one bracketed hint: alternatives
// separated by commas; an alternative that is only dimensions (94x94)
// adds to the dimensions of the one before it.
func parseRepHint(s string) (RepHint, bool) {
	var hint RepHint
	for alt := range strings.SplitSeq(s, ",") {
		alt = strings.TrimSpace(alt)
		if isRepDims(alt) && len(hint) > 0 && len(hint[len(hint)-1].Dims) > 0 {
			last := &hint[len(hint)-1]
			last.Dims = append(last.Dims, alt)
			continue
		}
		w, ok := parseRepWant(alt)
		if !ok {
			return nil, false
		}
		hint = append(hint, w)
	}
	return hint, true
}

// parseRepWant reads one alternative: kind[?key=value&...].
func parseRepWant(s string) (RepWant, bool) {
	kind, query, hasQuery := strings.Cut(s, "?")
	if !isRepKind(kind) || hasQuery && query == "" {
		return RepWant{}, false
	}
	w := RepWant{Rep: strings.ToLower(kind)}
	if !hasQuery {
		return w, true
	}
	for kv := range strings.SplitSeq(query, "&") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return RepWant{}, false
		}
		switch k {
		case "dimensions":
			if !isRepDims(v) || len(w.Dims) > 0 {
				return RepWant{}, false
			}
			w.Dims = []string{v}
		case "paged":
			if v != "true" && v != "false" || w.Paged != "" {
				return RepWant{}, false
			}
			w.Paged = v
		}
	}
	return w, true
}

// isRepKind reports whether s is a representation kind: letters, digits
// and underscores (3d, jpg, extracted_text).
func isRepKind(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isRepDims reports whether s is dimensions: WxH, each 1 to 5 digits.
func isRepDims(s string) bool {
	w, h, ok := strings.Cut(s, "x")
	return ok && isDigits(w) && isDigits(h)
}

func isDigits(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Select is the entries of a representations field the hints ask for:
// for each hint in order, the entries of its first alternative that the
// field has (every size it asks, in its order), each entry once. nil
// hints select every entry.
func (h RepHints) Select(entries []any) []any {
	if h == nil {
		return entries
	}
	out := []any{}
	taken := map[int]bool{}
	for _, hint := range h {
		for _, w := range hint {
			got := w.match(entries)
			if len(got) == 0 {
				continue
			}
			for _, i := range got {
				if !taken[i] {
					taken[i] = true
					out = append(out, entries[i])
				}
			}
			break
		}
	}
	return out
}

// match is the positions of the entries w asks for, in the order of its
// dimensions (the entries' order when it names none).
func (w RepWant) match(entries []any) []int {
	fits := func(e map[string]any, dims string) bool {
		if e["representation"] != w.Rep {
			return false
		}
		props, _ := e["properties"].(map[string]any)
		if dims != "" && props["dimensions"] != dims {
			return false
		}
		if w.Paged != "" {
			paged, _ := props["paged"].(string)
			if paged == "" {
				paged = "false"
			}
			return paged == w.Paged
		}
		return true
	}
	var got []int
	dimsList := w.Dims
	if len(dimsList) == 0 {
		dimsList = []string{""}
	}
	for _, dims := range dimsList {
		for i, e := range entries {
			if m, ok := e.(map[string]any); ok && fits(m, dims) {
				got = append(got, i)
			}
		}
	}
	return got
}

// FilterRepresentations narrows, in a reply body, the representations
// field of every file (the item itself, the entries of a page or of an
// item_collection, a recent item's item) to what the hints ask. nil hints
// change nothing. body is a freshly rendered reply, changed in place.
func FilterRepresentations(body any, h RepHints) {
	if h == nil {
		return
	}
	switch v := body.(type) {
	case map[string]any:
		if reps, ok := v["representations"].(map[string]any); ok && v["type"] == "file" {
			if entries, ok := reps["entries"].([]any); ok {
				reps["entries"] = h.Select(entries)
			}
		}
		for k, x := range v {
			switch k {
			case "entries", "item_collection", "item":
				FilterRepresentations(x, h)
			}
		}
	case []any:
		for _, x := range v {
			FilterRepresentations(x, h)
		}
	}
}
