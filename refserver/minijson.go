package refserver

import (
	"encoding/json"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// miniJSON is the JSON of s.mini(it), written directly: the same bytes
// json.Marshal gives for the map (keys in sorted order), without building
// the map. Folder listings send a page of up to 1000 of them; encoding
// maps was most of a page's cost. Callers hold s.mu.
func (s *state) miniJSON(it *item) json.RawMessage {
	b := make([]byte, 0, 256)
	b = append(b, `{"etag":`...)
	etag := it.etag()
	b = wire.AppendString(b, etag)
	if it.typ == "file" {
		v := it.current()
		b = append(b, `,"file_version":{"id":`...)
		b = wire.AppendString(b, v.id)
		b = append(b, `,"sha1":`...)
		b = wire.AppendString(b, v.blob.SHA1)
		b = append(b, `,"type":"file_version"}`...)
	}
	b = append(b, `,"id":`...)
	b = wire.AppendString(b, it.id)
	b = append(b, `,"name":`...)
	b = wire.AppendString(b, it.name)
	b = append(b, `,"sequence_id":`...)
	b = wire.AppendString(b, etag)
	if it.typ == "file" {
		b = append(b, `,"sha1":`...)
		b = wire.AppendString(b, it.current().blob.SHA1)
	}
	b = append(b, `,"type":`...)
	b = wire.AppendString(b, it.typ)
	if it.typ == "web_link" {
		b = append(b, `,"url":`...)
		b = wire.AppendString(b, it.url)
	}
	return append(b, '}')
}
