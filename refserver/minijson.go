package refserver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// miniJSON is the JSON of s.mini(it), written directly: the same bytes
// json.Marshal gives for the map (keys in sorted order), without building
// the map. Folder listings send a page of up to 1000 of them; encoding
// maps was most of a page's cost. Callers hold s.mu.
func (s *Server) miniJSON(it *item) json.RawMessage {
	b := make([]byte, 0, 256)
	b = append(b, `{"etag":`...)
	etag := it.etag()
	b = appendJSONString(b, etag)
	if it.typ == "file" {
		v := it.current()
		b = append(b, `,"file_version":{"id":`...)
		b = appendJSONString(b, v.id)
		b = append(b, `,"sha1":`...)
		b = appendJSONString(b, v.blob.SHA1)
		b = append(b, `,"type":"file_version"}`...)
	}
	b = append(b, `,"id":`...)
	b = appendJSONString(b, it.id)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, it.name)
	b = append(b, `,"sequence_id":`...)
	b = appendJSONString(b, etag)
	if it.typ == "file" {
		b = append(b, `,"sha1":`...)
		b = appendJSONString(b, it.current().blob.SHA1)
	}
	b = append(b, `,"type":`...)
	b = appendJSONString(b, it.typ)
	if it.typ == "web_link" {
		b = append(b, `,"url":`...)
		b = appendJSONString(b, it.url)
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string the way encoding/json writes
// it (HTML-safe: <, > and & escaped; U+2028 and U+2029 escaped; invalid
// UTF-8 replaced by U+FFFD).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// writePage writes a list page (a map with "entries") like writeJSON, but
// copies entries that are json.RawMessage (miniJSON records) as they are,
// without the validation pass encoding/json makes over them. The bytes are
// those json.Marshal writes: "entries" sorts before every other key of a
// page.
func writePage(w http.ResponseWriter, status int, page map[string]any) {
	entries, ok := page["entries"].([]any)
	rest := make(map[string]any, len(page))
	for k, v := range page {
		if k != "entries" {
			rest[k] = v
		}
	}
	tail, err := json.Marshal(rest)
	if !ok || err != nil {
		writeJSON(w, status, page)
		return
	}
	b := make([]byte, 0, 256*len(entries)+len(tail)+16)
	b = append(b, `{"entries":[`...)
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		raw, isRaw := e.(json.RawMessage)
		if !isRaw {
			if raw, err = json.Marshal(e); err != nil {
				writeJSON(w, status, page)
				return
			}
		}
		b = append(b, raw...)
	}
	b = append(b, ']')
	if len(rest) > 0 {
		b = append(b, ',')
		b = append(b, tail[1:]...) // after its "{"
	} else {
		b = append(b, '}')
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
