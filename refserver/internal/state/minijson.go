package state

import (
	"encoding/json"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// MiniJSON is the JSON of s.Mini(it), written directly: the same bytes
// json.Marshal gives for the map (keys in sorted order), without building
// the map. Folder listings send a page of up to 1000 of them; encoding
// maps was most of a page's cost.
func (s *Tx) MiniJSON(it *Item) json.RawMessage {
	return s.AppendMiniJSON(make([]byte, 0, miniJSONSize), it)
}

// miniJSONSize is room for a file's mini record (its id, name, etag, two
// SHA1s and its version's id): about 230 bytes.
const miniJSONSize = 256

// AppendMiniJSON appends MiniJSON(it) to b.
func (s *Tx) AppendMiniJSON(b []byte, it *Item) []byte {
	b = append(b, `{"etag":`...)
	etag := it.Etag()
	b = wire.AppendString(b, etag)
	if it.Typ == "file" {
		v := it.Current()
		b = append(b, `,"file_version":{"id":`...)
		b = wire.AppendString(b, v.ID)
		b = append(b, `,"sha1":`...)
		b = appendSHA1(b, v)
		b = append(b, `,"type":"file_version"}`...)
	}
	b = append(b, `,"id":`...)
	b = wire.AppendString(b, it.ID)
	b = append(b, `,"name":`...)
	b = wire.AppendString(b, it.Name)
	b = append(b, `,"sequence_id":`...)
	b = wire.AppendString(b, etag)
	if it.Typ == "file" {
		b = append(b, `,"sha1":`...)
		b = appendSHA1(b, it.Current())
	}
	b = append(b, `,"type":`...)
	b = wire.AppendString(b, it.Typ)
	if it.Typ == "web_link" {
		b = append(b, `,"url":`...)
		b = wire.AppendString(b, it.URL())
	}
	return append(b, '}')
}

// appendSHA1 appends the JSON string of v's SHA1, as wire.AppendString
// does; a SHA1 held as bytes, hex digits that need no escape, without
// making the string.
func appendSHA1(b []byte, v *Version) []byte {
	if !v.Blob.Packed() {
		return wire.AppendString(b, v.Blob.SHA1())
	}
	b = append(b, '"')
	b = v.Blob.AppendSHA1(b)
	return append(b, '"')
}
