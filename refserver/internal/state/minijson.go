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
	b := make([]byte, 0, 256)
	b = append(b, `{"etag":`...)
	etag := it.Etag()
	b = wire.AppendString(b, etag)
	if it.Typ == "file" {
		v := it.Current()
		b = append(b, `,"file_version":{"id":`...)
		b = wire.AppendString(b, v.ID)
		b = append(b, `,"sha1":`...)
		b = wire.AppendString(b, v.Blob.SHA1)
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
		b = wire.AppendString(b, it.Current().Blob.SHA1)
	}
	b = append(b, `,"type":`...)
	b = wire.AppendString(b, it.Typ)
	if it.Typ == "web_link" {
		b = append(b, `,"url":`...)
		b = wire.AppendString(b, it.URL())
	}
	return append(b, '}')
}
