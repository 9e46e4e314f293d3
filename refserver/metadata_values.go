package refserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// decodeObject decodes a JSON object with numbers kept as json.Number.
func decodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data")
	}
	if m == nil {
		return nil, errors.New("not an object")
	}
	return m, nil
}
