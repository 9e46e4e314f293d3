package persist

import (
	"bytes"
	"encoding/json"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// recBlob is a version's content in its record, blob.Info's members (ID,
// Size, SHA1), held as the version holds it (a blob.Ref): a load makes no
// strings of the ids and SHA1s of a million versions.
type recBlob struct{ blob.Ref }

// recBlobOf is the record of content i.
func recBlobOf(i blob.Info) recBlob { return recBlob{blob.RefOf(i)} }

// MarshalJSON writes the blob.Info b holds.
func (b recBlob) MarshalJSON() ([]byte, error) { return json.Marshal(b.Info()) }

// UnmarshalJSON reads a blob.Info as encoding/json does for the records
// (unknown members refused); null changes nothing, as for a struct.
func (b *recBlob) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var i blob.Info
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&i); err != nil {
		return err
	}
	b.Ref = blob.RefOf(i)
	return nil
}
